import GRDB
import GRDBSQLite
import PlanMarkFormats
import PlanMarkGeometry

extension SQLiteStore {
    /// Imports markers atomically.
    ///
    /// 1. Reads every row (outside any transaction, so a slow input never holds the write lock).
    /// 2. Validates them on all cores against a snapshot of the drawing's regions.
    /// 3. In one `BEGIN IMMEDIATE` transaction: re-validates if the regions changed meanwhile
    ///    (`regionsRevision`), then stores every valid row with consecutive numbers and one `created` history
    ///    entry for the range. With invalid rows and no `skipInvalid`, nothing is stored.
    ///
    /// A crash or `kill -9` before the commit leaves the store as it was (SQLite's WAL rolls back).
    /// In single-marker mode only the last valid row is stored (it replaces the existing marker).
    /// - Complexity: O(n * k) validation for n rows and k nearby regions, O(n log n) inserts.
    public func importMarkers<Source: MarkerRowSource>(into name: String, from source: inout Source, skipInvalid: Bool,
                                                       author: String?) throws(StoreError) -> ImportOutcome {
        try TextField.check(author, field: "author")
        var rows: [MarkerRow] = []
        do {
            while let batch = try source.nextBatch(maxCount: 1 << 20) { rows.append(contentsOf: batch) }
        } catch {
            throw .input(error)
        }
        for row in rows {
            let at = row.line > 0 ? "line \(row.line): " : "marker \(row.id): "
            try TextField.check(row.note, field: at + "note")
            try TextField.check(row.author, field: at + "author")
        }
        let snapshot: (drawing: Drawing, regions: [Region]) = try read { db in
            let drawing = try Self.fetchDrawing(db, named: name)
            return (drawing, try Self.fetchRegions(db, drawingID: drawing.id!))
        }
        var checked = ImportValidation(rows, validator: Self.validator(for: snapshot.drawing, regions: snapshot.regions))
        if !checked.rejected.isEmpty && !skipInvalid {
            return ImportOutcome(total: rows.count, stored: 0, numbers: 0..<0, rejected: checked.rejected)
        }
        return try write { db in
            var drawing = try Self.fetchDrawing(db, named: name)
            if drawing.regionsRevision != snapshot.drawing.regionsRevision {
                let regions = try Self.fetchRegions(db, drawingID: drawing.id!)
                checked = ImportValidation(rows, validator: Self.validator(for: drawing, regions: regions))
            }
            var accepted = checked.accepted
            if !checked.rejected.isEmpty && !skipInvalid {
                return ImportOutcome(total: rows.count, stored: 0, numbers: 0..<0, rejected: checked.rejected)
            }
            let now = Timestamp.now()
            if drawing.singleMarker, let last = accepted.last {
                accepted = [last]
                try Self.replaceAll(db, drawingID: drawing.id!, by: drawing.nextNumber, at: now, author: author)
            }
            let first = drawing.nextNumber
            try Self.insertCreated(db, drawingID: drawing.id!, firstNumber: first, rows: rows, accepted: accepted,
                                   rooms: checked.rooms, at: now, author: author)
            drawing.nextNumber += accepted.count
            try drawing.update(db, columns: ["nextNumber"])
            return ImportOutcome(total: rows.count, stored: accepted.count, numbers: first..<drawing.nextNumber,
                                 rejected: checked.rejected)
        }
    }

    /// Inserts the accepted rows as open markers numbered from `firstNumber`, and one `created` history
    /// entry for the whole range.
    /// - Complexity: O(n log n) for n rows.
    static func insertCreated(_ db: Database, drawingID: Int64, firstNumber: Int, rows: [MarkerRow], accepted: [Int],
                              rooms: [String], at now: Timestamp, author: String?) throws {
        guard !accepted.isEmpty else { return }
        var inserter = MarkerInserter(db, drawingID: drawingID, time: now)
        var start = 0
        while start < accepted.count {
            let end = min(accepted.count, start + MarkerInserter.rowsPerStatement)
            try inserter.insert(rows: rows, rooms: rooms, indices: accepted[start..<end], firstNumber: firstNumber + start, author: author)
            start = end
        }
        var entry = HistoryEntry(sequence: 0, drawingID: drawingID, number: firstNumber, lastNumber: firstNumber + accepted.count - 1,
                                 action: .created, at: now, author: author, old: nil, new: nil)
        try entry.insert(db)
    }
}

/// Inserts markers many rows per statement, bound through SQLite's C API.
///
/// Why: binding through GRDB's argument arrays, and one `sqlite3_step` per row, cost more than SQLite's
/// own work on a million rows. Here the number is `?2 + k` in the SQL (bound once per statement), the
/// drawing and time are bound once, and when a batch's rows share their note and author (the usual case)
/// those are bound once too, so each row costs three binds (x, y, rooms).
struct MarkerInserter {
    /// Rows per multi-row `INSERT`.
    static let rowsPerStatement = 64

    private let db: Database
    private let drawingID: Int64
    private let time: Timestamp
    /// Prepared statements by (rows, shared note and author).
    private var statements: [Int: Statement] = [:]

    init(_ db: Database, drawingID: Int64, time: Timestamp) {
        self.db = db
        self.drawingID = drawingID
        self.time = time
    }

    /// Inserts `indices` of `rows` numbered from `firstNumber`.
    mutating func insert(rows: [MarkerRow], rooms: [String], indices: ArraySlice<Int>, firstNumber: Int, author: String?) throws {
        let first = rows[indices.first!]
        let sharedNote = first.note, sharedAuthor = first.author ?? author
        let shared = indices.allSatisfy { rows[$0].note == sharedNote && (rows[$0].author ?? author) == sharedAuthor }
        let statement = try self.statement(count: indices.count, shared: shared)
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
        for index in indices {
            let position = rows[index].position!
            try check(sqlite3_bind_double(handle, parameter, position.x))
            try check(sqlite3_bind_double(handle, parameter + 1, position.y))
            try bind(parameter + 2, rooms[index])
            parameter += 3
            if !shared {
                try bind(parameter, rows[index].note)
                try bind(parameter + 1, rows[index].author ?? author)
                parameter += 2
            }
        }
        try check(sqlite3_step(handle), SQLITE_DONE)
        try check(sqlite3_reset(handle))
    }

    /// The statement for `count` rows: `?1` drawing, `?2` first number, `?3` time, then either shared
    /// note and author (`?4`, `?5`) and x, y, rooms a row, or x, y, rooms, note, author a row.
    private mutating func statement(count: Int, shared: Bool) throws -> Statement {
        let key = count * 2 + (shared ? 1 : 0)
        if let statement = statements[key] { return statement }
        var sql = "INSERT INTO marker (drawingId, number, x, y, rooms, note, author, status, createdAt, updatedAt) VALUES "
        var parameter = shared ? 6 : 4
        for k in 0..<count {
            if k > 0 { sql += "," }
            let (x, y, r) = (parameter, parameter + 1, parameter + 2)
            let (note, who) = shared ? (4, 5) : (parameter + 3, parameter + 4)
            parameter += shared ? 3 : 5
            sql += "(?1,?2+\(k),?\(x),?\(y),?\(r),?\(note),?\(who),'open',?3,?3)"
        }
        let statement = try db.makeStatement(sql: sql)
        statements[key] = statement
        return statement
    }
}

/// SQLite's `SQLITE_TRANSIENT` (copy the bound bytes), which Swift cannot import as a macro.
nonisolated(unsafe) let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// The validation of an import's rows: which are accepted, their rooms (as JSON arrays), which are refused.
struct ImportValidation {
    /// Indices of the valid rows, in file order.
    var accepted: [Int] = []
    /// For each row, its rooms as a JSON array (empty text for refused rows).
    var rooms: [String] = []
    /// The refused rows, in file order.
    var rejected: [RejectedRow] = []

    /// Validates `rows` on all cores.
    /// - Complexity: O(n * k) for n rows and k nearby regions, spread over the cores.
    init(_ rows: [MarkerRow], validator: MarkerValidator) {
        let roomText: [String?] = validator.regions.map { $0.kind == .room ? JSONString.quoted($0.id) : nil }
        let chunk = 1 << 15
        let chunks = (rows.count + chunk - 1) / chunk
        let parts: [(rooms: [String], reasons: [(Int, InvalidReason)])] = parallelMap(chunks) { c in
            var rooms: [String] = []
            var reasons: [(Int, InvalidReason)] = []
            var hits: [RegionHit] = []
            let range = (c * chunk)..<min(rows.count, (c + 1) * chunk)
            rooms.reserveCapacity(range.count)
            for index in range {
                guard let position = rows[index].position else {
                    reasons.append((index, .invalidCoordinate))
                    rooms.append("")
                    continue
                }
                if let reason = validator.validate(position, hits: &hits) {
                    reasons.append((index, reason))
                    rooms.append("")
                    continue
                }
                var text = "["
                for hit in hits {
                    guard let room = roomText[hit.regionIndex] else { continue }
                    if text.utf8.count > 1 { text += "," }
                    text += room
                }
                rooms.append(text + "]")
            }
            return (rooms, reasons)
        }
        rooms.reserveCapacity(rows.count)
        accepted.reserveCapacity(rows.count)
        for (c, part) in parts.enumerated() {
            rooms.append(contentsOf: part.rooms)
            var reasonIterator = part.reasons.makeIterator()
            var next = reasonIterator.next()
            for index in (c * chunk)..<min(rows.count, (c + 1) * chunk) {
                if let (bad, reason) = next, bad == index {
                    let row = rows[index]
                    rejected.append(RejectedRow(id: row.id, line: row.line, position: row.position, reason: reason))
                    next = reasonIterator.next()
                } else {
                    accepted.append(index)
                }
            }
        }
    }
}
