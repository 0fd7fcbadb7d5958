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

extension SQLiteStore {
    /// Imports markers atomically.
    ///
    /// 1. Reads the input into memory (`MarkerRowSource.readInput`), outside any transaction, so a slow input
    ///    never holds the write lock.
    /// 2. In one `BEGIN IMMEDIATE` transaction, against the drawing's current regions: parses and validates the
    ///    rows block by block on background threads (`ImportValidation`) while this thread stores the valid rows
    ///    of the chunks already validated, with consecutive numbers and one `created` history entry for the
    ///    range. With invalid rows and no `skipInvalid`, storing stops at the first, validation goes on (to
    ///    report every invalid row), and the transaction is rolled back: nothing is stored. A row whose text
    ///    cannot be stored, or the input's own error, rolls everything back too.
    ///
    /// Why the pipeline: SQLite's inserts run on one thread and are the import's critical path; parsing and
    /// validating before the transaction (as earlier versions did) added their wall time to it, and the input
    /// is already in memory, so holding the write lock while parsing costs no more than the inserts do.
    /// Foreign key checks are off for this transaction (every row references the drawing read in it).
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
                                                       author: String?) async throws(StoreError) -> ImportOutcome {
        // The rows are parsed and validated inside the transaction, while the rows before them are being stored.
        try StoreRules.readImportInput(&source, author: author)
        return try await writeOrRollBack(foreignKeys: false) { db in
            var drawing = try Self.fetchDrawing(db, named: name)
            let validator = StoreRules.validator(for: drawing, regions: try Self.fetchRegions(db, drawingID: drawing.id!))
            // The page cache: with SQLite's default 2 MiB, the B-tree's inner pages were spilled to the WAL and
            // written again and again (a million markers: 533 MB of WAL for a 78 MB table). From 16 MiB on they
            // stay cached and each full leaf is spilled once (78 MB of WAL); pages spilled during the
            // transaction, rather than all at its commit, let `WALFlusher` put them on disk meanwhile.
            let cacheKiB = min(16384, max(2000, source.expectedRowCount / 8))
            try db.execute(sql: "PRAGMA cache_size = -\(cacheKiB)")
            defer { try? db.execute(sql: "PRAGMA cache_size = -2000") }
            let flusher = WALFlusher(walPath: path + "-wal")
            defer { flusher?.finish() }
            let pipeline = ImportValidation(source, validator: validator)
            defer { pipeline.finish() }
            let now = Timestamp.now()
            let first = drawing.nextNumber
            var inserter = MarkerInserter(db, drawingID: drawing.id!, time: now)
            var rejected: [RejectedRow] = []
            var stored = 0
            var total = 0
            var lastAccepted: (chunk: ValidatedChunk, index: Int)?
            var known = KnownUUIDs(db, drawing: drawing)
            // The input's error, met while the rows before it are stored, is reported as such (and rolls back).
            func nextChunk() throws(StoreError) -> ValidatedChunk? {
                do { return try pipeline.next() } catch { throw .input(error) }
            }
            while var chunk = try nextChunk() {
                total += chunk.count
                if let problem = chunk.problem { throw problem }
                for (k, (index, _)) in chunk.rejected.enumerated() {
                    if !chunk.plain, try known.isStored(chunk.rows[index]) { continue }
                    rejected.append(chunk.rejectedRows[k])
                }
                if chunk.hasUUIDs { chunk.accepted = try chunk.accepted.filter { try !known.isStored(chunk.rows[$0]) } }
                if (!rejected.isEmpty && !skipInvalid) || chunk.accepted.isEmpty { continue }
                if drawing.singleMarker {
                    lastAccepted = (chunk, chunk.accepted.last!)
                    continue
                }
                try inserter.insert(chunk: chunk, firstNumber: first + stored, author: author)
                flusher?.flush()
                stored += chunk.accepted.count
            }
            if !rejected.isEmpty && !skipInvalid {
                return (ImportOutcome(total: total, stored: 0, numbers: 0..<0, rejected: rejected, alreadyStored: known.count),
                        commit: false)
            }
            if let (chunk, index) = lastAccepted {
                try Self.replaceAll(db, drawingID: drawing.id!, by: first, at: now, author: author)
                var single = chunk
                single.accepted = [index]
                try inserter.insert(chunk: single, firstNumber: first, author: author)
                stored = 1
            }
            if stored > 0 {
                var entry = HistoryEntry(sequence: 0, drawingID: drawing.id!, number: first, lastNumber: first + stored - 1,
                                         action: .created, at: now, author: author, old: nil, new: nil)
                try entry.insert(db)
                drawing.nextNumber += stored
                try drawing.update(db, columns: ["nextNumber"])
            }
            return (ImportOutcome(total: total, stored: stored, numbers: first..<drawing.nextNumber, rejected: rejected,
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

/// The uuids an import has met: those stored for the drawing (looked up in the uuid index) and those of the
/// file's earlier rows.
struct KnownUUIDs {
    private let db: Database
    private let drawing: Drawing
    private var seen: Set<MarkerUUID> = []
    /// Rows found stored already.
    private(set) var count = 0

    init(_ db: Database, drawing: Drawing) {
        self.db = db
        self.drawing = drawing
    }

    /// Whether `row`'s uuid is stored for the drawing or came earlier in the file (counted); a uuid stored on
    /// another drawing is `uuidConflict`. Rows without uuid are never stored already.
    /// - Complexity: O(log n).
    mutating func isStored(_ row: MarkerRow) throws -> Bool {
        guard let uuid = row.uuid else { return false }
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

/// Writes the WAL frames an import has written so far to disk, on another thread, while the import goes on.
///
/// Why: committing a large import ends with a checkpoint, which first syncs the WAL (SQLite's `synchronous =
/// NORMAL`): for a million markers 78 MB waited for the disk there, on the import's critical path. Synced in the
/// background as the frames are written (`flush()` after each chunk; one sync at a time, none queued), the
/// checkpoint finds little left to sync. Durability is unchanged (frames without a commit are ignored on
/// recovery, as before); only when the bytes reach the disk moves.
final class WALFlusher: @unchecked Sendable {
    private let descriptor: Int32
    private let queue = DispatchQueue(label: "PlanMarkStore.WALFlusher")
    private let lock = DispatchSemaphore(value: 1)
    private var busy = false

    /// Opens the WAL at `walPath` for syncing; nil when it cannot be opened (nothing is synced early then).
    init?(walPath: String) {
        let descriptor = open(walPath, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    /// Starts syncing what is written so far, unless a sync is under way.
    func flush() {
        lock.wait()
        defer { lock.signal() }
        if busy { return }
        busy = true
        queue.async { [self] in
            #if os(Linux)
            _ = fdatasync(descriptor)
            #else
            _ = fsync(descriptor)
            #endif
            lock.wait()
            busy = false
            lock.signal()
        }
    }

    /// Waits for a sync under way and closes the file.
    func finish() {
        queue.sync {}
        close(descriptor)
    }
}

/// SQLite's `SQLITE_TRANSIENT` (copy the bound bytes), which Swift cannot import as a macro.
nonisolated(unsafe) let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One chunk of an import's rows, parsed and validated.
package struct ValidatedChunk: Sendable {
    /// How many rows the chunk has.
    package var count: Int
    /// True when every row has a position and nothing else (no note, author, id, uuid or punch-item field):
    /// then `rows` is empty (dropped by the validating thread) and only `positions` and the rooms are kept.
    package var plain = true
    /// The chunk's rows, in file order (empty when `plain`).
    package var rows: [MarkerRow]
    /// Each row's position (zero for a row without one), so that storing a plain row reads no `MarkerRow`.
    package var positions: [PixelPoint] = []
    /// The refused rows as reported, in file order (as `rejected`).
    package var rejectedRows: [RejectedRow] = []
    /// The first row whose text cannot be stored (`SQLiteStore.checkImported`), if any.
    package var problem: StoreError?
    /// Indices (into `rows`) of the valid rows, in file order.
    package var accepted: [Int] = []
    /// The refused rows (indices into `rows`) and why, in file order.
    package var rejected: [(Int, InvalidReason)] = []
    /// The rooms of the valid rows as JSON arrays, one after the other.
    package var rooms: [UInt8] = []
    /// For each row, where its rooms end in `rooms` (they start where the previous row's end).
    package var roomEnds: [Int] = []
    /// True when a row of the chunk has a uuid.
    package var hasUUIDs = false

    /// Validates `rows`; each valid row's rooms become the JSON array of its room ids, in region order.
    /// - Complexity: O(m * k) for m rows and k nearby regions.
    init(_ rows: [MarkerRow], validator: MarkerValidator, roomText: [[UInt8]?]) {
        self.rows = rows
        count = rows.count
        accepted.reserveCapacity(rows.count)
        roomEnds.reserveCapacity(rows.count)
        positions.reserveCapacity(rows.count)
        rooms.reserveCapacity(rows.count * 16)
        var hits: [RegionHit] = []
        for index in rows.indices {
            defer { roomEnds.append(rooms.count) }
            let row = rows[index]
            if !row.hasOnlyPosition || row.note != nil || row.author != nil || row.ref != nil {
                plain = false
                if row.uuid != nil { hasUUIDs = true }
                if problem == nil {
                    do throws(StoreError) { try SQLiteStore.checkImported(row) } catch { problem = error }
                }
            }
            positions.append(row.position ?? PixelPoint(x: 0, y: 0))
            guard let position = row.position else {
                rejected.append((index, .invalidCoordinate))
                rejectedRows.append(RejectedRow(id: row.id, line: row.line, position: nil, reason: .invalidCoordinate))
                continue
            }
            if let reason = validator.validate(position, hits: &hits) {
                rejected.append((index, reason))
                rejectedRows.append(RejectedRow(id: row.id, line: row.line, position: position, reason: reason))
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
        // Freed here, on the validating thread, rather than by the importing thread.
        if plain { self.rows = [] }
    }
}

/// An import's rows, parsed and validated on background threads in file order, a few blocks ahead of the
/// importing thread, which takes each chunk (`next()`) as soon as it is ready and stores it while the next
/// are parsed and validated.
///
/// Why: SQLite's inserts run on one thread and are the import's critical path; parsing every row before the
/// transaction (as an earlier version did) added the parse's wall time to it. The input is in memory
/// already (`MarkerRowSource.readInput`), so holding the write lock while parsing costs no more than the
/// inserts do. At most `aheadBlocks` blocks wait, so memory stays at a few blocks' rows, not the file's.
package final class ImportValidation<Source: MarkerRowSource>: @unchecked Sendable {
    /// Blocks parsed ahead of the importing thread.
    static var aheadBlocks: Int { 2 }

    private var source: Source
    private let validator: MarkerValidator
    private let roomText: [[UInt8]?]
    /// Blocks handed over, each in file order, guarded by `mutex`.
    private var queue: [Result<[ValidatedChunk], FormatError>?] = []
    private var queueStart = 0
    private var cancelled = false
    private var current: [ValidatedChunk] = []
    private var currentIndex = 0
    private var ended = false
    // Made at 0 and signalled up to their starting counts (in init): libdispatch traps when a semaphore is freed
    // with a count below the one it was made with, which `free` and `mutex` may have when the last reference to
    // this object goes on the background thread after `finish()`.
    private let mutex = DispatchSemaphore(value: 0)
    private let filled = DispatchSemaphore(value: 0)
    private let free = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private var finished = false

    /// Starts parsing and validating `source`'s rows against `validator` in the background.
    /// - Complexity: O(n * k) for n rows and k nearby regions, on the other cores.
    package init(_ source: Source, validator: MarkerValidator) {
        self.source = source
        self.validator = validator
        roomText = validator.regions.map { $0.kind == .room ? Array(JSONString.quoted($0.id).utf8) : nil }
        mutex.signal()
        for _ in 0..<Self.aheadBlocks { free.signal() }
        DispatchQueue.global().async { [self] in
            produce()
            done.signal()
        }
    }

    private func produce() {
        while true {
            free.wait()
            mutex.wait()
            let stop = cancelled
            mutex.signal()
            if stop { return }
            let item: Result<[ValidatedChunk], FormatError>?
            do throws(FormatError) {
                let (validator, roomText) = (self.validator, self.roomText)
                item = try source.nextChunks { ValidatedChunk($0, validator: validator, roomText: roomText) }.map { .success($0) }
            } catch {
                item = .failure(error)
            }
            mutex.wait()
            queue.append(item)
            mutex.signal()
            filled.signal()
            guard case .success = item else { return }
        }
    }

    /// The next chunk in file order, once validated; nil after the last. Throws the input's error where it
    /// is met.
    package func next() throws(FormatError) -> ValidatedChunk? {
        while currentIndex >= current.count {
            if ended { return nil }
            filled.wait()
            mutex.wait()
            let item = queue[queueStart]
            queue[queueStart] = nil
            queueStart += 1
            mutex.signal()
            free.signal()
            current = []
            currentIndex = 0
            guard let item else {
                ended = true
                return nil
            }
            do {
                current = try item.get()
            } catch {
                ended = true
                throw error
            }
        }
        defer { currentIndex += 1 }
        return current[currentIndex]
    }

    /// Stops the background work and waits until it has ended (so no work outlives the import).
    package func finish() {
        if finished { return }
        mutex.wait()
        cancelled = true
        mutex.signal()
        free.signal()
        done.wait()
        finished = true
    }

    deinit {
        finish()
    }
}

extension SQLiteStore {
    /// Refuses an imported row's text that cannot be stored exactly, an unknown status or priority, and a
    /// category over 100 characters; the field is named with the row's line (or id).
    static func checkImported(_ row: MarkerRow) throws(StoreError) {
        // The usual row (a plain position file): nothing to check, and no field name made.
        if row.note == nil && row.author == nil && row.hasOnlyPosition && row.ref == nil { return }
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
