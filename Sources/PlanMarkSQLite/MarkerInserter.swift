import PlanMarkStore
import Dispatch
import GRDB
import GRDBSQLite
import PlanMarkFormats
import PlanMarkGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif


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
    mutating func insert(chunk: ValidatedChunk, firstNumber: Int, author: String?) throws {
        var start = 0
        while start < chunk.accepted.count {
            // The rest of a chunk goes in statements of a power of two rows: at most ten statements are prepared
            // in all (preparing one for every remainder's count was a few percent of an import).
            var count = min(chunk.accepted.count - start, Self.rowsPerStatement)
            if count < Self.rowsPerStatement { count = 1 << (Int.bitWidth - 1 - count.leadingZeroBitCount) }
            let end = start + count
            try insert(chunk: chunk, indices: chunk.accepted[start..<end], firstNumber: firstNumber + start, author: author)
            start = end
        }
    }

    /// Inserts `indices` of `rows` (at most `rowsPerStatement`, all in `chunk`) numbered from `firstNumber`.
    private mutating func insert(chunk: ValidatedChunk, indices: ArraySlice<Int>, firstNumber: Int, author: String?) throws {
        let rows = chunk.rows
        let sharedNote: String?, sharedAuthor: String?, shared: Bool, rich: Bool
        if chunk.plain {
            // Rows with a position only (their `rows` are not kept): no note, author, uuid or id.
            (sharedNote, sharedAuthor, shared, rich) = (nil, author, true, false)
        } else {
            let first = rows[indices.first!]
            sharedNote = first.note
            sharedAuthor = first.author ?? author
            shared = indices.allSatisfy { rows[$0].note == sharedNote && (rows[$0].author ?? author) == sharedAuthor }
            rich = !indices.allSatisfy { rows[$0].hasOnlyPosition }
        }
        // A plain position file: no note, author, uuid or id; those columns are left to the table (NULL, and the
        // defaults `open` and `normal`), which stores the same record for less of SQLite's work than binding them.
        let plain = shared && !rich && sharedNote == nil && sharedAuthor == nil
            && (chunk.plain || indices.allSatisfy { rows[$0].ref == nil })
        let statement = try self.statement(count: indices.count, shared: shared, rich: rich, plain: plain)
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
        if shared && !plain {
            try bind(4, sharedNote)
            try bind(5, sharedAuthor)
            parameter = 6
        }
        // The rooms are bound without a copy (SQLITE_STATIC): the chunk's bytes outlive the step below.
        do {
            try chunk.rooms.withUnsafeBufferPointer { rooms in
                try chunk.positions.withUnsafeBufferPointer { positions in
                    try chunk.roomEnds.withUnsafeBufferPointer { roomEnds in
                        let base = UnsafeRawPointer(rooms.baseAddress!).assumingMemoryBound(to: CChar.self)
                        for index in indices {
                            let position = positions[index]
                            let text = (index == 0 ? 0 : roomEnds[index - 1])..<roomEnds[index]
                            try check(sqlite3_bind_double(handle, parameter, position.x))
                            try check(sqlite3_bind_double(handle, parameter + 1, position.y))
                            try check(sqlite3_bind_text(handle, parameter + 2, base + text.lowerBound, Int32(text.count), nil))
                            if plain {
                                parameter += 3
                                continue
                            }
                            if chunk.plain {
                                try check(sqlite3_bind_null(handle, parameter + 3))
                                try check(sqlite3_bind_null(handle, parameter + 4))
                                parameter += 5
                                continue
                            }
                            let row = rows[index]
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
                                // Codes (v9); both words were checked by `checkImported`.
                                let status = row.status.flatMap(MarkerStatus.init(text:)) ?? .open
                                let priority = row.priority.flatMap(MarkerPriority.init(rawValue:)) ?? .normal
                                try check(sqlite3_bind_int64(handle, parameter, status.storedCode))
                                try bind(parameter + 1, row.category)
                                try check(sqlite3_bind_int64(handle, parameter + 2, priority.storedCode))
                                try bind(parameter + 3, row.assignee)
                                try bind(parameter + 4, row.due?.text)
                                try bind(parameter + 5, row.capturedAt?.text)
                                parameter += 6
                            }
                        }
                        try check(sqlite3_step(handle), SQLITE_DONE)
                    }
                }
            }
        }
        try check(sqlite3_reset(handle))
        // Nothing may point into the chunk's bytes once this returns.
        try check(sqlite3_clear_bindings(handle))
    }

    /// The statement for `count` rows: `?1` drawing, `?2` first number, `?3` time, then either shared
    /// note and author (`?4`, `?5`) or a note and author a row; a row binds x, y, rooms, uuid, ref, then
    /// (not shared) note, author, then (rich) status, category, priority, assignee, due, capturedAt.
    private mutating func statement(count: Int, shared: Bool, rich: Bool, plain: Bool) throws -> Statement {
        let key = count * 8 + (shared ? 1 : 0) + (rich ? 2 : 0) + (plain ? 4 : 0)
        if let statement = statements[key] { return statement }
        if plain {
            // `?1` drawing, `?2` first number, `?3` time, then x, y, rooms a row.
            // `updatedAt` is left NULL (= `createdAt`), status and priority to their defaults (codes 0 and 1), v9.
            var sql = "INSERT INTO marker (drawingId, number, x, y, rooms, createdAt) VALUES "
            for k in 0..<count {
                let p = 4 + 3 * k
                sql += "\(k > 0 ? "," : "")(?1,?2+\(k),?\(p),?\(p + 1),?\(p + 2),?3)"
            }
            let statement = try db.makeStatement(sql: sql)
            statements[key] = statement
            return statement
        }
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
            // Status `open` and priority `normal` as their codes (v9).
            var fields = "0,NULL,1,NULL,NULL,NULL"
            if rich { fields = (0..<6).map { _ in next() }.joined(separator: ",") }
            sql += "(?1,?2+\(k),\(x),\(y),\(r),\(u),\(ref),\(note),\(who),\(fields),?3,NULL)"
        }
        let statement = try db.makeStatement(sql: sql)
        statements[key] = statement
        return statement
    }
}


/// SQLite's `SQLITE_TRANSIENT` (copy the bound bytes), which Swift cannot import as a macro.
nonisolated(unsafe) let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
