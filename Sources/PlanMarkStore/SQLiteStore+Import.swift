import Dispatch
import GRDB
import GRDBSQLite
import PlanMarkFormats
import PlanMarkGeometry

extension SQLiteStore {
    /// Imports markers atomically.
    ///
    /// 1. Reads every row (outside any transaction, so a slow input never holds the write lock).
    /// 2. In one `BEGIN IMMEDIATE` transaction, against the drawing's current regions: validates the rows in
    ///    chunks on a background thread while this thread stores the valid rows of the chunks already
    ///    validated, with consecutive numbers and one `created` history entry for the range. With invalid
    ///    rows and no `skipInvalid`, storing stops at the first, validation goes on (to report every invalid
    ///    row), and the transaction is rolled back: nothing is stored.
    ///
    /// Why the pipeline: SQLite's inserts run on one thread and take most of an import; validating before
    /// the transaction (as the first version did) added the validation's wall time to it, and the rows are
    /// already in memory, so holding the write lock while validating costs no more than the inserts do.
    ///
    /// Offline capture: a row whose `uuid` is stored already for this drawing (or appeared earlier in the file)
    /// is skipped and counted (`alreadyStored`), so importing one file twice stores nothing the second time; a
    /// uuid stored on another drawing is `uuidConflict` and nothing is stored. Rows carry every field of a
    /// PlanMark export (status, category, priority, assignee, due, capturedAt; the `id` is kept as `ref`).
    ///
    /// A crash or `kill -9` before the commit leaves the store as it was (SQLite's WAL rolls back).
    /// In single-marker mode only the last valid row is stored (it replaces the existing marker).
    /// - Complexity: O(n * k) validation for n rows and k nearby regions, O(n log n) inserts.
    public func importMarkers<Source: MarkerRowSource>(into name: String, from source: inout Source, skipInvalid: Bool,
                                                       author: String?) throws(StoreError) -> ImportOutcome {
        try TextField.check(author, field: "author")
        var rows: [MarkerRow] = []
        do {
            // The first batch is kept as it is (no copy of up to a million rows).
            while let batch = try source.nextBatch(maxCount: 1 << 20) {
                if rows.isEmpty { rows = batch } else { rows.append(contentsOf: batch) }
            }
        } catch {
            throw .input(error)
        }
        var hasUUIDs = false
        for row in rows {
            try Self.checkImported(row)
            if row.uuid != nil { hasUUIDs = true }
        }
        return try writeOrRollBack { db in
            var drawing = try Self.fetchDrawing(db, named: name)
            let validator = Self.validator(for: drawing, regions: try Self.fetchRegions(db, drawingID: drawing.id!))
            // A page cache that holds the import's new pages (about 80 bytes a marker, 128 given): with
            // SQLite's default 2 MiB, pages spilled to the WAL mid-transaction were written again and
            // again (a million markers: 533 MB written to the WAL for a 79 MB table; with this, 79 MB).
            let cacheKiB = max(2000, rows.count / 8)
            try db.execute(sql: "PRAGMA cache_size = -\(cacheKiB)")
            defer { try? db.execute(sql: "PRAGMA cache_size = -2000") }
            let pipeline = ImportValidation(rows, validator: validator)
            defer { pipeline.finish() }
            let now = Timestamp.now()
            let first = drawing.nextNumber
            var inserter = MarkerInserter(db, drawingID: drawing.id!, time: now)
            var rejected: [RejectedRow] = []
            var stored = 0
            var lastAccepted: (chunk: ValidatedChunk, index: Int)?
            var known = KnownUUIDs(db, drawing: drawing, enabled: hasUUIDs)
            for c in 0..<pipeline.chunkCount {
                var chunk = pipeline.chunk(c)
                for (index, reason) in chunk.rejected {
                    let row = rows[index]
                    if try known.isStored(row) { continue }
                    rejected.append(RejectedRow(id: row.id, line: row.line, position: row.position, reason: reason))
                }
                if hasUUIDs { chunk.accepted = try chunk.accepted.filter { try !known.isStored(rows[$0]) } }
                if (!rejected.isEmpty && !skipInvalid) || chunk.accepted.isEmpty { continue }
                if drawing.singleMarker {
                    lastAccepted = (chunk, chunk.accepted.last!)
                    continue
                }
                try inserter.insert(rows: rows, chunk: chunk, firstNumber: first + stored, author: author)
                stored += chunk.accepted.count
            }
            if !rejected.isEmpty && !skipInvalid {
                return (ImportOutcome(total: rows.count, stored: 0, numbers: 0..<0, rejected: rejected, alreadyStored: known.count),
                        commit: false)
            }
            if let (chunk, index) = lastAccepted {
                try Self.replaceAll(db, drawingID: drawing.id!, by: first, at: now, author: author)
                var single = chunk
                single.accepted = [index]
                try inserter.insert(rows: rows, chunk: single, firstNumber: first, author: author)
                stored = 1
            }
            if stored > 0 {
                var entry = HistoryEntry(sequence: 0, drawingID: drawing.id!, number: first, lastNumber: first + stored - 1,
                                         action: .created, at: now, author: author, old: nil, new: nil)
                try entry.insert(db)
                drawing.nextNumber += stored
                try drawing.update(db, columns: ["nextNumber"])
            }
            return (ImportOutcome(total: rows.count, stored: stored, numbers: first..<drawing.nextNumber, rejected: rejected,
                                  alreadyStored: known.count), commit: true)
        }
    }
}

/// Inserts markers many rows per statement, bound through SQLite's C API.
///
/// Why: binding through GRDB's argument arrays, and one `sqlite3_step` per row, cost more than SQLite's
/// own work on a million rows. Here the number is `?2 + k` in the SQL (bound once per statement), the
/// drawing and time are bound once, and when a batch's rows share their note and author (the usual case)
/// those are bound once too. A row of a plain position file costs five binds (x, y, rooms, uuid, ref); a
/// row with punch-item fields (an export being imported) binds every column.
struct MarkerInserter {
    /// Rows per multi-row `INSERT`.
    static let rowsPerStatement = 512

    private let db: Database
    private let drawingID: Int64
    private let time: Timestamp
    /// Prepared statements by (rows, shared note and author, punch-item fields).
    private var statements: [Int: Statement] = [:]

    init(_ db: Database, drawingID: Int64, time: Timestamp) {
        self.db = db
        self.drawingID = drawingID
        self.time = time
    }

    /// Inserts the accepted rows of `chunk`, numbered from `firstNumber`.
    mutating func insert(rows: [MarkerRow], chunk: ValidatedChunk, firstNumber: Int, author: String?) throws {
        var start = 0
        while start < chunk.accepted.count {
            let end = min(chunk.accepted.count, start + Self.rowsPerStatement)
            try insert(rows: rows, chunk: chunk, indices: chunk.accepted[start..<end], firstNumber: firstNumber + start, author: author)
            start = end
        }
    }

    /// Inserts `indices` of `rows` (at most `rowsPerStatement`, all in `chunk`) numbered from `firstNumber`.
    private mutating func insert(rows: [MarkerRow], chunk: ValidatedChunk, indices: ArraySlice<Int>, firstNumber: Int,
                                 author: String?) throws {
        let first = rows[indices.first!]
        let sharedNote = first.note, sharedAuthor = first.author ?? author
        let shared = indices.allSatisfy { rows[$0].note == sharedNote && (rows[$0].author ?? author) == sharedAuthor }
        let rich = !indices.allSatisfy { rows[$0].hasOnlyPosition }
        let statement = try self.statement(count: indices.count, shared: shared, rich: rich)
        let handle = statement.sqliteStatement
        let connection = db.sqliteConnection
        func check(_ code: Int32, _ expected: Int32 = SQLITE_OK) throws {
            if code != expected {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)))
            }
        }
        func bind(_ index: Int32, _ text: String?) throws {
            guard var text else { return try check(sqlite3_bind_null(handle, index)) }
            try text.withUTF8 { bytes in
                try check(sqlite3_bind_text(handle, index, UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self),
                                            Int32(bytes.count), sqliteTransient))
            }
        }
        try check(sqlite3_bind_int64(handle, 1, drawingID))
        try check(sqlite3_bind_int64(handle, 2, Int64(firstNumber)))
        try check(sqlite3_bind_int64(handle, 3, time.milliseconds))
        var parameter: Int32 = 4
        if shared {
            try bind(4, sharedNote)
            try bind(5, sharedAuthor)
            parameter = 6
        }
        // The rooms are bound without a copy (SQLITE_STATIC): the chunk's bytes outlive the step below.
        do {
            try chunk.rooms.withUnsafeBufferPointer { rooms in
                let base = UnsafeRawPointer(rooms.baseAddress!).assumingMemoryBound(to: CChar.self)
                for index in indices {
                    let row = rows[index]
                    let position = row.position!
                    let text = chunk.roomsRange(ofRow: index)
                    try check(sqlite3_bind_double(handle, parameter, position.x))
                    try check(sqlite3_bind_double(handle, parameter + 1, position.y))
                    try check(sqlite3_bind_text(handle, parameter + 2, base + text.lowerBound, Int32(text.count), nil))
                    // A row without uuid gets none stored: the store's own is made from the number (`DerivedUUID`).
                    try bind(parameter + 3, row.uuid?.text)
                    try bind(parameter + 4, row.ref)
                    parameter += 5
                    if !shared {
                        try bind(parameter, row.note)
                        try bind(parameter + 1, row.author ?? author)
                        parameter += 2
                    }
                    if rich {
                        try bind(parameter, row.status.flatMap(MarkerStatus.init(text:))?.rawValue ?? MarkerStatus.open.rawValue)
                        try bind(parameter + 1, row.category)
                        try bind(parameter + 2, row.priority ?? MarkerPriority.normal.rawValue)
                        try bind(parameter + 3, row.assignee)
                        try bind(parameter + 4, row.due?.text)
                        try bind(parameter + 5, row.capturedAt?.text)
                        parameter += 6
                    }
                }
                try check(sqlite3_step(handle), SQLITE_DONE)
            }
        }
        try check(sqlite3_reset(handle))
        // Nothing may point into the chunk's bytes once this returns.
        try check(sqlite3_clear_bindings(handle))
    }

    /// The statement for `count` rows: `?1` drawing, `?2` first number, `?3` time, then either shared
    /// note and author (`?4`, `?5`) or a note and author a row; a row binds x, y, rooms, uuid, ref, then
    /// (not shared) note, author, then (rich) status, category, priority, assignee, due, capturedAt.
    private mutating func statement(count: Int, shared: Bool, rich: Bool) throws -> Statement {
        let key = count * 4 + (shared ? 1 : 0) + (rich ? 2 : 0)
        if let statement = statements[key] { return statement }
        var sql = """
            INSERT INTO marker (drawingId, number, x, y, rooms, uuid, ref, note, author, status, category, priority, assignee,
                                due, capturedAt, createdAt, updatedAt) VALUES
            """
        var parameter = shared ? 6 : 4
        func next() -> String {
            defer { parameter += 1 }
            return "?\(parameter)"
        }
        for k in 0..<count {
            if k > 0 { sql += "," }
            let (x, y, r, u, ref) = (next(), next(), next(), next(), next())
            let (note, who) = shared ? ("?4", "?5") : (next(), next())
            var fields = "'open',NULL,'normal',NULL,NULL,NULL"
            if rich { fields = (0..<6).map { _ in next() }.joined(separator: ",") }
            sql += "(?1,?2+\(k),\(x),\(y),\(r),\(u),\(ref),\(note),\(who),\(fields),?3,?3)"
        }
        let statement = try db.makeStatement(sql: sql)
        statements[key] = statement
        return statement
    }
}

/// The uuids an import has met: those stored for the drawing (looked up in the uuid index) and those of the
/// file's earlier rows.
struct KnownUUIDs {
    private let db: Database
    private let drawing: Drawing
    private let enabled: Bool
    private var seen: Set<MarkerUUID> = []
    /// Rows found stored already.
    private(set) var count = 0

    init(_ db: Database, drawing: Drawing, enabled: Bool) {
        self.db = db
        self.drawing = drawing
        self.enabled = enabled
    }

    /// Whether `row`'s uuid is stored for the drawing or came earlier in the file (counted); a uuid stored on
    /// another drawing is `uuidConflict`. Rows without uuid are never stored already.
    /// - Complexity: O(log n).
    mutating func isStored(_ row: MarkerRow) throws -> Bool {
        guard enabled, let uuid = row.uuid else { return false }
        if seen.contains(uuid) {
            count += 1
            return true
        }
        seen.insert(uuid)
        // A store-made uuid of this drawing for a marker since removed: it was stored once; skipped as such.
        if let (owner, number) = try SQLiteStore.derivedOwner(db, uuid), owner.id == drawing.id, number < owner.nextNumber,
           try Int.fetchOne(db, sql: "SELECT count(*) FROM marker WHERE drawingId = ? AND number = ?", arguments: [owner.id!, number]) == 0 {
            count += 1
            return true
        }
        guard let found = try SQLiteStore.fetchMarker(db, uuid: uuid) else { return false }
        guard found.drawingID == drawing.id! else {
            let owner = try String.fetchOne(db, sql: "SELECT name FROM drawing WHERE id = ?", arguments: [found.drawingID]) ?? "?"
            throw StoreError.uuidConflict(uuid: uuid, drawing: owner, number: found.number)
        }
        count += 1
        return true
    }
}

/// SQLite's `SQLITE_TRANSIENT` (copy the bound bytes), which Swift cannot import as a macro.
nonisolated(unsafe) let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// The validation of one chunk of an import's rows.
struct ValidatedChunk: Sendable {
    /// The chunk's rows: indices into the import's rows.
    var range: Range<Int>
    /// Indices of the valid rows, in file order.
    var accepted: [Int] = []
    /// The refused rows and why, in file order.
    var rejected: [(Int, InvalidReason)] = []
    /// The rooms of the valid rows as JSON arrays, one after the other.
    var rooms: [UInt8] = []
    /// For each row of `range`, where its rooms end in `rooms` (they start where the previous row's end).
    var roomEnds: [Int] = []

    /// The bytes of row `index`'s rooms in `rooms` (empty for a refused row).
    func roomsRange(ofRow index: Int) -> Range<Int> {
        let k = index - range.lowerBound
        return (k == 0 ? 0 : roomEnds[k - 1])..<roomEnds[k]
    }

    /// Validates `rows[range]`; each valid row's rooms become the JSON array of its room ids, in region order.
    /// - Complexity: O(m * k) for m rows and k nearby regions.
    init(_ rows: [MarkerRow], range: Range<Int>, validator: MarkerValidator, roomText: [[UInt8]?]) {
        self.range = range
        accepted.reserveCapacity(range.count)
        roomEnds.reserveCapacity(range.count)
        rooms.reserveCapacity(range.count * 16)
        var hits: [RegionHit] = []
        for index in range {
            defer { roomEnds.append(rooms.count) }
            guard let position = rows[index].position else {
                rejected.append((index, .invalidCoordinate))
                continue
            }
            if let reason = validator.validate(position, hits: &hits) {
                rejected.append((index, reason))
                continue
            }
            accepted.append(index)
            rooms.append(UInt8(ascii: "["))
            var count = 0
            for hit in hits {
                guard let room = roomText[hit.regionIndex] else { continue }
                if count > 0 { rooms.append(UInt8(ascii: ",")) }
                rooms.append(contentsOf: room)
                count += 1
            }
            rooms.append(UInt8(ascii: "]"))
        }
    }
}

/// The validation of an import's rows, chunk by chunk on a background thread, in file order: the importing
/// thread takes each chunk (`chunk(_:)`) as soon as it is ready and stores it while the next are validated.
///
/// One background thread is enough: validating a row costs a fraction of storing it. The chunks are handed
/// over through one semaphore each, so each is written once by the validating thread before the importing
/// thread reads it.
final class ImportValidation: @unchecked Sendable {
    /// Rows a chunk.
    static let chunkRows = 1 << 14

    let chunkCount: Int
    /// One slot a chunk, written by the validating thread, then taken by the importing thread.
    private let chunks: UnsafeMutableBufferPointer<ValidatedChunk?>
    private let ready: [DispatchSemaphore]
    private let done = DispatchSemaphore(value: 0)
    private var finished = false

    /// Starts validating `rows` against `validator` in the background.
    /// - Complexity: O(n * k) for n rows and k nearby regions, on one other thread.
    init(_ rows: [MarkerRow], validator: MarkerValidator) {
        chunkCount = (rows.count + Self.chunkRows - 1) / Self.chunkRows
        chunks = .allocate(capacity: chunkCount)
        chunks.initialize(repeating: nil)
        ready = (0..<chunkCount).map { _ in DispatchSemaphore(value: 0) }
        let roomText: [[UInt8]?] = validator.regions.map { $0.kind == .room ? Array(JSONString.quoted($0.id).utf8) : nil }
        DispatchQueue.global().async { [self, rows] in
            for c in 0..<chunkCount {
                let range = (c * Self.chunkRows)..<min(rows.count, (c + 1) * Self.chunkRows)
                chunks[c] = ValidatedChunk(rows, range: range, validator: validator, roomText: roomText)
                ready[c].signal()
            }
            done.signal()
        }
    }

    /// Chunk `c`, once validated (chunks are taken in order, each once).
    func chunk(_ c: Int) -> ValidatedChunk {
        ready[c].wait()
        defer { chunks[c] = nil }
        return chunks[c]!
    }

    /// Waits until the background validation has ended (so no work outlives the import).
    func finish() {
        if !finished {
            done.wait()
            finished = true
        }
    }

    deinit {
        finish()
        chunks.deinitialize()
        chunks.deallocate()
    }
}

extension SQLiteStore {
    /// Refuses an imported row's text that cannot be stored exactly, an unknown status or priority, and a
    /// category over 100 characters; the field is named with the row's line (or id).
    static func checkImported(_ row: MarkerRow) throws(StoreError) {
        let at = row.line > 0 ? "line \(row.line): " : "marker \(row.id): "
        try TextField.check(row.note, field: at + "note")
        try TextField.check(row.author, field: at + "author")
        if row.hasOnlyPosition && row.ref == nil { return }
        try TextField.check(row.ref, field: at + "id")
        try TextField.check(row.assignee, field: at + "assignee")
        try TextField.check(row.category, field: at + "category")
        if let status = row.status, MarkerStatus(text: status) == nil {
            throw .invalidText(field: at + "status", problem: "\"\(status)\" is not one of \(MarkerStatus.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let priority = row.priority, MarkerPriority(rawValue: priority) == nil {
            throw .invalidText(field: at + "priority", problem: "\"\(priority)\" is not one of \(MarkerPriority.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let category = row.category, category.count > Marker.maxCategoryLength {
            throw .invalidText(field: at + "category", problem: "is \(category.count) characters long; at most \(Marker.maxCategoryLength)")
        }
    }
}
