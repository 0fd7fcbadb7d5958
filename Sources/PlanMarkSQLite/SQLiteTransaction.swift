import PlanMarkStore
import PlanMarkFormats
import Foundation
import GRDB
import PlanMarkGeometry

extension SQLiteStore: StoreBackend {
    /// Runs `body` in one `BEGIN IMMEDIATE` transaction on GRDB's writer (see `StoreBackend.writeOrRollBack`). The task
    /// runs on the writer's queue meanwhile (`WriterExecutor`), so `body` and its primitives are one access to the
    /// writer unless `body` awaits something else; this process's other writers wait for `writerLock` until the end,
    /// other processes for SQLite's lock (up to `busyTimeout`), as they do for any write.
    public func writeOrRollBack<T>(drawing name: String?, _ body: (SQLiteTransaction, Drawing?) async throws -> (T, commit: Bool)) async throws(StoreError) -> T {
        let ticket = connections.enter()
        defer { ticket.end() }
        let executor = WriterExecutor(pool: pool)
        let transaction = SQLiteTransaction(pool: pool, executor: executor)
        do {
            return try await withTaskExecutorPreference(executor) {
                // Taken and handed over on the writer: a waiting transaction resumes there (its executor's next job),
                // and the lock is free again before this task leaves the writer.
                await writerLock.lock()
                defer { writerLock.unlock() }
                let drawing = try await transaction.access { db -> Drawing? in
                    ticket.start()
                    try db.beginTransaction(.immediate)
                    do {
                        return try name.flatMap { try Self.findDrawing(db, named: $0) }
                    } catch {
                        try? db.rollback()
                        throw error
                    }
                }
                do {
                    let (value, commit) = try await body(transaction, drawing)
                    if commit { try await transaction.commit() } else { await transaction.rollBack() }
                    return value
                } catch {
                    await transaction.rollBack()
                    throw error
                }
            }
        } catch {
            throw Self.storeError(error, path: path, busyTimeout: busyTimeout)
        }
    }

    /// Validators by drawing (see `StoreBackend.validators`).
    public var validators: ValidatorCache { validatorCache }
}

/// SQLite's primitives for one write transaction of `SQLiteStore.writeOrRollBack(drawing:)`.
///
/// The transaction's task runs on GRDB's writer (`WriterExecutor`), and there each primitive calls SQLite at once. Run
/// from elsewhere (the body awaited something that resumed it off the writer), a primitive that reads is one access to
/// the writer (through `asyncWriteWithoutTransaction`: the task is suspended meanwhile, no thread waits), and one that
/// only writes is kept and run at the start of the next access (or the commit). GRDB is told that a transaction may
/// stay open between accesses (`Configuration.allowsUnsafeTransactions`); the store's `writerLock` keeps every other
/// write of this process out until it ends.
public final class SQLiteTransaction: StoreTransaction {
    private let pool: DatabasePool
    private let executor: WriterExecutor
    /// Writes not yet run, in order.
    private var pending: [@Sendable (Database) throws -> Void] = []

    init(pool: DatabasePool, executor: WriterExecutor) {
        self.pool = pool
        self.executor = executor
    }

    /// Runs the pending writes, then `work`, on the writer; not cancellable (a transaction must always end).
    func access<T>(_ work: (Database) throws -> T) async throws -> T {
        let writes = pending
        pending = []
        if let db = executor.database {
            for write in writes { try write(db) }
            return try work(db)
        }
        return try await withoutActuallyEscaping(work) { work in
            let handoff = Handoff(writes: writes, work: work)
            return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Suspended<T>, any Error>) in
                pool.asyncWriteWithoutTransaction { db in
                    continuation.resume(with: handoff.run(db))
                }
            }.value
        }
    }

    /// Whether the task runs on GRDB's writer now (its primitives call SQLite at once).
    package var isOnWriter: Bool { executor.database != nil }

    /// Runs `write` now when on the writer, else keeps it for the next access.
    private func later(_ write: @escaping @Sendable (Database) throws -> Void) throws {
        if let db = executor.database {
            let writes = pending
            pending = []
            for earlier in writes { try earlier(db) }
            try write(db)
        } else {
            pending.append(write)
        }
    }

    /// Runs the pending writes and commits; on failure the transaction is rolled back.
    func commit() async throws {
        try await access { db in
            do {
                try db.commit()
            } catch {
                if db.isInsideTransaction { try? db.rollback() }
                throw error
            }
        }
    }

    /// Drops the pending writes and rolls back (if SQLite has not already).
    func rollBack() async {
        pending = []
        _ = try? await access { db in if db.isInsideTransaction { try db.rollback() } }
    }

    // MARK: Reads

    public func drawing(id: Int64) async throws -> Drawing? {
        try await access { db in try Drawing.fetchOne(db, key: id) }
    }

    public func drawingExists(named name: String) async throws -> Bool {
        try await access { db in try Drawing.filter(Column("name") == name).fetchOne(db) != nil }
    }

    public func drawing(uuidSeed seed: Int64) async throws -> Drawing? {
        try await access { db in try Drawing.filter(Column("uuidSeed") == seed).fetchOne(db) }
    }

    public func marker(_ number: Int, of drawing: Drawing) async throws -> Marker? {
        try await access { db in try SQLiteStore.findMarker(db, drawingID: drawing.id!, number: number) }
    }

    public func markerWith(uuid: MarkerUUID) async throws -> (drawingID: Int64, number: Int)? {
        try await access { db in
            guard let row = try Row.fetchOne(try db.cachedStatement(sql: "SELECT drawingId, number FROM marker WHERE uuid = ?"),
                                             arguments: [uuid.text]) else { return nil }
            return (row[0], row[1])
        }
    }

    public func markers(of drawing: Drawing) async throws -> [Marker] {
        try await access { db in
            try Marker.fetchAll(db, sql: Marker.selectSQL + " WHERE marker.drawingId = ? ORDER BY marker.number", arguments: [drawing.id!])
        }
    }

    public func forEachPlacement(of drawing: Drawing, _ body: (Int, PixelPoint, [String]) -> Void) async throws {
        try await access { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT number, x, y, rooms FROM marker WHERE drawingId = ? ORDER BY number",
                                           arguments: [drawing.id!])
            while let row = try rows.next() {
                body(row[0], PixelPoint(x: row[1], y: row[2]), RoomList.rooms(fromJSON: row[3]))
            }
        }
    }

    public func historyEntries(drawingID: Int64, number: Int) async throws -> [HistoryEntry] {
        try await access { db in try SQLiteStore.historyEntries(db, drawingID: drawingID, number: number) }
    }

    public func regions(drawingID: Int64) async throws -> [Region] {
        try await access { db in try SQLiteStore.fetchRegions(db, drawingID: drawingID) }
    }

    public func attachment(_ id: Int64, drawingID: Int64, number: Int) async throws -> Attachment? {
        try await access { db in
            try Row.fetchOne(db, sql: "SELECT * FROM attachment WHERE id = ? AND drawingId = ? AND number = ?",
                             arguments: [id, drawingID, number]).map(SQLiteStore.attachment(from:))
        }
    }

    public func placements(of drawing: Drawing) async throws -> [Placement] {
        try await access { db in try SQLiteStore.readPlacements(db, drawingID: drawing.id!) }
    }

    public func counts(drawingID: Int64) async throws -> (markers: Int, attachments: Int) {
        try await access { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM marker WHERE drawingId = ?", arguments: [drawingID]) ?? 0,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM attachment WHERE drawingId = ?", arguments: [drawingID]) ?? 0)
        }
    }

    // MARK: Writes

    public func insert(_ drawing: Drawing) async throws -> Int64? {
        try await access { db in
            if try Drawing.filter(Column("name") == drawing.name).fetchCount(db) > 0 { return nil }
            var inserted = drawing
            try inserted.insert(db)
            return inserted.id
        }
    }

    public func storeImage(sha256: String, bytes: [UInt8]) async throws {
        try later { db in
            try db.execute(sql: "INSERT OR IGNORE INTO image (sha256, bytes) VALUES (?, ?)",
                           arguments: [sha256, bytes.withUnsafeBufferPointer { Data(buffer: $0) }])
        }
    }

    public func insert(_ revision: Revision, drawingID: Int64) async throws {
        try later { db in
            let transform = revision.transform
            try db.execute(sql: """
                INSERT INTO revision (drawingId, number, imagePath, imageSHA256, width, height, createdAt, author, a, b, c, d, e, f, maxResidual,
                                      pdfPage, pdfDPI)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [drawingID, revision.number, revision.imagePath, revision.imageSHA256, revision.width, revision.height,
                                 revision.createdAt.milliseconds, revision.author, transform?.a, transform?.b, transform?.c, transform?.d,
                                 transform?.e, transform?.f, revision.maxResidual, revision.pdf?.page, revision.pdf?.dpi])
        }
    }

    public func writePlacements(_ placements: [Placement], drawingID: Int64, at: Timestamp, firstCursor: Int64) async throws {
        try later { db in try SQLiteStore.writePlacements(db, placements, drawingID: drawingID, at: at, firstCursor: firstCursor) }
    }

    // The three writes of every marker POST use cached statements: GRDB's record `update` and `insert` prepare theirs
    // anew each time, and that was a tenth of the writer's work per POST (perf, Benchmarks/server/posts-ab.sh).

    public func update(_ drawing: Drawing) async throws {
        try later { db in
            try db.cachedStatement(sql: """
                UPDATE drawing SET name = ?, nextNumber = ?, regionsRevision = ?, metresPerPixel = ?, calibration = ?, imagePath = ?,
                    imageSHA256 = ?, width = ?, height = ?, revision = ?, pdfPage = ?, pdfDPI = ?
                WHERE id = ?
                """).execute(arguments: [drawing.name, drawing.nextNumber, drawing.regionsRevision, drawing.metresPerPixel,
                                         drawing.calibration.map(CalibrationJSON.object), drawing.imagePath, drawing.imageSHA256,
                                         drawing.width, drawing.height, drawing.revision, drawing.pdf?.page, drawing.pdf?.dpi, drawing.id!])
        }
    }

    public func insert(_ marker: Marker) async throws -> Bool {
        // No other writer runs during the transaction, and the use case looked the uuid up in it: the insert cannot
        // meet another's uuid (if it did, the unique index fails the commit).
        try later { db in try marker.insert(db) }
        return true
    }

    public func update(_ marker: Marker) async throws {
        try later { db in try marker.update(db) }
    }

    public func setRooms(_ changes: [(number: Int, rooms: [String])], drawingID: Int64, at: Timestamp, firstCursor: Int64) async throws {
        let changes = changes.map { ($0.number, RoomList.jsonText($0.rooms)) }
        try later { db in
            // As `Marker.encode`: updatedAt is NULL while it equals createdAt.
            let statement = try db.makeStatement(sql: """
                UPDATE marker SET rooms = ?, updatedAt = NULLIF(?, createdAt), version = version + 1, cursor = ?
                WHERE drawingId = ? AND number = ?
                """)
            for (index, (number, rooms)) in changes.enumerated() {
                try statement.execute(arguments: [rooms, at.milliseconds, firstCursor + Int64(index), drawingID, number])
            }
        }
    }

    public func delete(_ marker: Marker) async throws {
        try later { db in _ = try marker.delete(db) }
    }

    public func historyHead() async throws -> String {
        try await access { db in try SQLiteStore.historyHead(db) }
    }

    public func takeCursors(_ count: Int) async throws -> Int64 {
        try await access { db in try SQLiteStore.takeCursors(db, count) }
    }

    public func append(_ rows: [HistoryRow]) async throws -> Int64 {
        try await access { db in try SQLiteStore.append(db, rows) }
    }

    public func insertAttachment(_ attachment: Attachment, bytes: [UInt8]) async throws -> Int64 {
        try await access { db in
            try db.execute(sql: "INSERT OR IGNORE INTO attachmentBlob (sha256, bytes) VALUES (?, ?)",
                           arguments: [attachment.sha256, bytes.withUnsafeBufferPointer { Data(buffer: $0) }])
            try db.execute(sql: """
                INSERT INTO attachment (drawingId, number, sha256, size, contentType, caption, author, createdAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [attachment.drawingID, attachment.number, attachment.sha256, attachment.size,
                                 attachment.type.contentType, attachment.caption, attachment.author, attachment.createdAt.milliseconds])
            return db.lastInsertedRowID
        }
    }

    public func delete(_ attachment: Attachment) async throws {
        try later { db in
            try db.execute(sql: "DELETE FROM attachment WHERE id = ?", arguments: [attachment.id])
            try SQLiteStore.deleteUnusedBlobs(db)
        }
    }

    public func deleteAttachments(drawingID: Int64, numbers: [Int]) async throws {
        try later { db in try SQLiteStore.deleteAttachments(db, drawingID: drawingID, numbers: numbers) }
    }

    public func replaceRegions(drawingID: Int64, with regions: [Region]) async throws {
        try later { db in try SQLiteStore.replaceRegions(db, drawingID: drawingID, with: regions) }
    }

    public func delete(_ drawing: Drawing) async throws {
        try later { db in
            let drawingID = drawing.id!
            try db.execute(sql: "DELETE FROM attachment WHERE drawingId = ?", arguments: [drawingID])
            try db.execute(sql: "DELETE FROM marker WHERE drawingId = ?", arguments: [drawingID])
            try db.execute(sql: "DELETE FROM region WHERE drawingId = ?", arguments: [drawingID])
            try db.execute(sql: "DELETE FROM importRange WHERE drawingId = ?", arguments: [drawingID])
            // Every revision's image goes with the drawing unless another drawing (any of its revisions) has it.
            let images = Set(try String.fetchAll(db, sql: "SELECT imageSHA256 FROM revision WHERE drawingId = ?", arguments: [drawingID]))
                .union([drawing.imageSHA256])
            try db.execute(sql: "DELETE FROM revision WHERE drawingId = ?", arguments: [drawingID])
            try db.execute(sql: "DELETE FROM drawing WHERE id = ?", arguments: [drawingID])
            for image in images {
                try db.execute(sql: """
                    DELETE FROM image WHERE sha256 = ?1 AND sha256 NOT IN (SELECT imageSHA256 FROM drawing)
                        AND sha256 NOT IN (SELECT imageSHA256 FROM revision)
                    """, arguments: [image])
            }
            try SQLiteStore.deleteUnusedBlobs(db)
        }
    }
}

/// What `SQLiteTransaction.access` hands to GRDB's writer: the pending writes and the work, taken out and dropped
/// before the result goes back (so the work, which need not escape, has not when the task resumes).
private final class Handoff<T>: @unchecked Sendable {
    private var writes: [@Sendable (Database) throws -> Void]
    private var work: ((Database) throws -> T)?

    init(writes: [@Sendable (Database) throws -> Void], work: @escaping (Database) throws -> T) {
        self.writes = writes
        self.work = work
    }

    func run(_ db: Database) -> Result<Suspended<T>, any Error> {
        let writes = self.writes, work = self.work!
        self.writes = []
        self.work = nil
        do {
            for write in writes { try write(db) }
            return .success(Suspended(try work(db)))
        } catch {
            return .failure(error)
        }
    }
}
