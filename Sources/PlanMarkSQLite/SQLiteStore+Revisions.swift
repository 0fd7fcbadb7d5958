import PlanMarkStore
import Foundation
import GRDB
import GRDBSQLite
import PlanMarkFormats
import PlanMarkGeometry

extension SQLiteStore {
    /// The drawing's revisions, oldest first.
    /// - Complexity: O(r) for its r revisions.
    public func revisions(of name: String) async throws(StoreError) -> [Revision] {
        try await read { db in
            let drawing = try Self.fetchDrawing(db, named: name)
            return try Row.fetchAll(db, sql: "SELECT * FROM revision WHERE drawingId = ? ORDER BY number", arguments: [drawing.id!]).map { row in
                var transform: AffineMap?
                if let a: Double = row["a"], let b: Double = row["b"], let c: Double = row["c"],
                   let d: Double = row["d"], let e: Double = row["e"], let f: Double = row["f"] {
                    transform = AffineMap(a: a, b: b, c: c, d: d, e: e, f: f)
                }
                var pdf: PDFSource?
                if let page: Int = row["pdfPage"], let dpi: Int = row["pdfDPI"] { pdf = PDFSource(page: page, dpi: dpi) }
                return Revision(number: row["number"], imagePath: row["imagePath"], imageSHA256: row["imageSHA256"],
                                width: row["width"], height: row["height"], createdAt: Timestamp(milliseconds: row["createdAt"]),
                                author: row["author"], transform: transform, maxResidual: row["maxResidual"], pdf: pdf)
            }
        }
    }

    /// The image of revision `number` of the drawing, byte for byte (`unknownRevision` when it has no such revision).
    /// - Complexity: O(image bytes).
    public func revisionImage(of name: String, revision number: Int) async throws(StoreError) -> (Revision, DrawingImage) {
        let all = try await revisions(of: name)
        guard let revision = all.first(where: { $0.number == number }) else {
            throw StoreError.unknownRevision(drawing: name, number: number)
        }
        let stored = try await read { db in
            try Data.fetchOne(db, sql: "SELECT bytes FROM image WHERE sha256 = ?", arguments: [revision.imageSHA256])
        }
        if let stored { return (revision, DrawingImage(sha256: revision.imageSHA256, bytes: [UInt8](stored), pdf: revision.pdf)) }
        let bytes = try StoreRules.readImage(path: revision.imagePath)
        guard SHA256.hexDigest(of: bytes) == revision.imageSHA256 else {
            throw .imageChanged(drawing: name, path: revision.imagePath)
        }
        return (revision, DrawingImage(sha256: revision.imageSHA256, bytes: bytes, pdf: revision.pdf))
    }

    /// Where the drawing's markers were on revision `number`: for the current revision, where they are; for an
    /// older one, the position each had when the next revision carried it on (the `old` side of its `revised`
    /// entry from `number`). Markers created after that revision (and removed ones) are not in the result.
    /// - Complexity: O(h) for the drawing's h history entries (older revisions), O(m) for the current one.
    public func markerPositions(of name: String, onRevision number: Int) async throws(StoreError) -> [Int: PixelPoint] {
        try await read { db in
            let drawing = try Self.fetchDrawing(db, named: name)
            var positions: [Int: PixelPoint] = [:]
            if number == drawing.revision {
                for row in try Row.fetchAll(db, sql: "SELECT number, x, y FROM marker WHERE drawingId = ?", arguments: [drawing.id!]) {
                    positions[row[0]] = PixelPoint(x: row[1], y: row[2])
                }
                return positions
            }
            let existing = Set(try Int.fetchAll(db, sql: "SELECT number FROM marker WHERE drawingId = ?", arguments: [drawing.id!]))
            let rows = try Row.fetchCursor(db, sql: "SELECT number, oldValue FROM history WHERE drawingId = ? AND action = 'revised' ORDER BY id",
                                           arguments: [drawing.id!])
            while let row = try rows.next() {
                let marker: Int = row[0]
                guard existing.contains(marker), let text: String = row[1], let old = MarkerState(jsonText: text),
                      old.revision == number, let x = old.x, let y = old.y else { continue }
                positions[marker] = PixelPoint(x: x, y: y)
            }
            return positions
        }
    }

    /// Every marker of the drawing with its position, rooms (JSON text) and `needsPlacement`, by number; read
    /// through SQLite's C API (by column position).
    /// - Complexity: O(m) for the drawing's m markers.
    static func readPlacements(_ db: Database, drawingID: Int64) throws -> [Placement] {
        let statement = try db.makeStatement(sql: "SELECT number, x, y, rooms, needsPlacement FROM marker WHERE drawingId = ? ORDER BY number")
        try statement.setArguments([drawingID])
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        func text(_ column: Int32) -> String? {
            guard let bytes = sqlite3_column_text(handle, column) else { return nil }
            return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column))), as: UTF8.self)
        }
        var placements: [Placement] = []
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
            }
            placements.append(Placement(number: Int(sqlite3_column_int64(handle, 0)),
                                        position: PixelPoint(x: sqlite3_column_double(handle, 1), y: sqlite3_column_double(handle, 2)),
                                        rooms: text(3) ?? "[]", reason: text(4)))
        }
        return placements
    }

    /// Stores each marker's new position, rooms and `needsPlacement` (one prepared `UPDATE`, stepped per marker).
    /// - Complexity: O(m log m) for m markers.
    static func writePlacements(_ db: Database, _ placements: [Placement], drawingID: Int64, at now: Timestamp, firstCursor: Int64) throws {
        let connection = db.sqliteConnection
        func check(_ code: Int32, _ expected: Int32 = SQLITE_OK) throws {
            if code != expected {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)))
            }
        }
        func bind(_ handle: OpaquePointer?, _ index: Int32, _ text: String?) throws {
            guard var text else { return try check(sqlite3_bind_null(handle, index)) }
            try text.withUTF8 { bytes in
                try check(sqlite3_bind_text(handle, index, UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self),
                                            Int32(bytes.count), sqliteTransient))
            }
        }
        let update = try db.makeStatement(sql: "UPDATE marker SET x = ?1, y = ?2, rooms = ?3, needsPlacement = ?4, updatedAt = ?5, version = version + 1, cursor = ?8 WHERE drawingId = ?6 AND number = ?7")
        let handle = update.sqliteStatement
        try check(sqlite3_bind_int64(handle, 5, now.milliseconds))
        try check(sqlite3_bind_int64(handle, 6, drawingID))
        for (index, placement) in placements.enumerated() {
            try check(sqlite3_bind_int64(handle, 8, firstCursor + Int64(index)))
            try check(sqlite3_bind_double(handle, 1, placement.newPosition.x))
            try check(sqlite3_bind_double(handle, 2, placement.newPosition.y))
            try bind(handle, 3, placement.newRooms)
            try bind(handle, 4, placement.newReason)
            try check(sqlite3_bind_int64(handle, 7, Int64(placement.number)))
            try check(sqlite3_step(handle), SQLITE_DONE)
            try check(sqlite3_reset(handle))
        }
        try check(sqlite3_clear_bindings(handle))
    }
}
