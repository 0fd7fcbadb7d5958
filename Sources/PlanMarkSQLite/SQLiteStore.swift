import PlanMarkStore
import GRDB
import PlanMarkGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The annotation store in one SQLite file (GRDB `DatabasePool`, WAL), safe for several processes at once.
///
/// Writes run in `BEGIN IMMEDIATE` transactions, so the write lock is taken before anything is read and
/// the per-drawing number counter cannot race; other writers wait up to `busyTimeout`.
public final class SQLiteStore: AnnotationStore, Sendable {
    /// The store file.
    public let path: String
    /// The store file (see `AnnotationStore.file`).
    public var file: String? { path }
    /// The connection pool (one writer, concurrent readers).
    let pool: DatabasePool
    /// Validators by drawing, reused while the drawing's regions are unchanged.
    let validatorCache = ValidatorCache()
    /// Held by each write transaction of this process from its begin to its end (see `SQLiteTransaction`).
    let writerLock = WriterLock()
    /// The calls holding the writer or a reader, and waiting for one.
    let connections: ConnectionGauge

    /// The page size of a store this class creates, in bytes: SQLite's usual 4 KiB, set explicitly. Measured
    /// against 8 KiB after migration v9 (Benchmarks/store/README.md): the import of a million markers was the same
    /// (1.34x against 1.33x `sqlite3 .import`), while marker POSTs fell from 3,070-3,410/s to 1,757-2,343/s (every
    /// small transaction writes whole pages to the WAL).
    public static let newStorePageSize = 4096

    /// How long a writer waits for another process's transaction before giving up, by default.
    public static let busyTimeout: Double = 10
    /// How long this store's writers wait for another process's transaction before giving up.
    public let busyTimeout: Double

    /// Opens the store at `path`, upgrading an older schema. A missing file is created only when
    /// `create`; a store written by a newer PlanMark is refused.
    /// - Parameter migrateUpTo: test hook: apply migrations only up to this identifier.
    /// - Parameter busyTimeout: seconds a writer waits for another process's lock before `StoreError.busy`.
    public init(path: String, create: Bool, busyTimeout: Double = SQLiteStore.busyTimeout,
                migrateUpTo: String? = nil) throws(StoreError) {
        self.path = path
        self.busyTimeout = busyTimeout
        var info = stat()
        var isNew = false
        if stat(path, &info) != 0 {
            guard create, errno == ENOENT else {
                if errno == ENOENT || errno == ENOTDIR { throw .missingStore(path: path) }
                throw .io("\(path): \(String(cString: strerror(errno)))")
            }
            isNew = true
        } else if (info.st_mode & S_IFMT) == S_IFDIR {
            throw .io("\(path): is a directory, not a store")
        }
        let createsFile = isNew
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.foreignKeysEnabled = true
        configuration.label = "PlanMarkStore"
        // A write transaction spans several accesses to the writer (`SQLiteTransaction`), each primitive of the store's
        // use cases one; `writerLock` keeps this process's other writes out of it meanwhile.
        configuration.allowsUnsafeTransactions = true
        configuration.prepareDatabase { db in
            // Statement journals in memory: a multi-row INSERT into the marker table and its uuid index keeps
            // one (the pages it changed, for a rollback of that statement alone), and in a temporary file it
            // was a quarter of a million small writes for an import of a million markers. They are small
            // (one statement's pages); no query of the store sorts into a temporary table.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            // A new store gets 8 KiB pages (before its first write, which fixes the page size; GRDB switches to WAL
            // after this). A bulk import writes fewer, fuller pages (with v9's smaller rows: see
            // Benchmarks/store/README.md), while a marker POST, which changes four to six pages, still meets its
            // goal. Existing stores keep the page size they have (WAL mode cannot change it).
            if createsFile { try db.execute(sql: "PRAGMA page_size = \(SQLiteStore.newStorePageSize)") }
        }
        connections = ConnectionGauge(maximum: 1 + configuration.maximumReaderCount)
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch {
            throw Self.storeError(error, path: path, busyTimeout: busyTimeout)
        }
        try Self.migrate(pool, path: path, upTo: migrateUpTo, busyTimeout: busyTimeout)
    }

    /// Refuses newer stores and foreign databases, then applies the migrations this store lacks.
    static func migrate(_ pool: DatabasePool, path: String, upTo target: String?, busyTimeout: Double) throws(StoreError) {
        let migrator = StoreSchema.migrator
        do {
            let (applied, objectCount) = try pool.read { db in
                (try migrator.appliedIdentifiers(db), try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0)
            }
            let unknown = applied.subtracting(migrator.migrations)
            if !unknown.isEmpty { throw StoreError.newerSchema(path: path, unknownMigrations: unknown.sorted()) }
            if applied.isEmpty && objectCount > 0 {
                throw StoreError.refused(.notAStore(location: path, kind: "an SQLite database"))
            }
            let target = target ?? migrator.migrations.last!
            if applied.contains(target) { return }
            do {
                try migrator.migrate(pool, upTo: target)
                // Readers opened before the migration (the check above) keep statements and column lists
                // of the old schema: a record read next found a new column missing.
                pool.invalidateReadOnlyConnections()
            } catch {
                // Another process may have applied the same migration first: fine if it is now there.
                let nowApplied = try pool.read { try migrator.appliedIdentifiers($0) }
                if !nowApplied.contains(target) { throw error }
            }
        } catch {
            throw storeError(error, path: path, busyTimeout: busyTimeout)
        }
    }

    /// The migrations applied to this store, in order.
    public func appliedMigrations() async throws(StoreError) -> [String] {
        try await read { try StoreSchema.migrator.appliedMigrations($0) }
    }

    // MARK: Transactions

    // The three primitives below run their `body` on GRDB's own queues (the pool's writer, or a reader) through GRDB's
    // async API: the calling task is suspended meanwhile, no thread waits for it. `body` need not be `Sendable`: it is
    // handed over in a `Suspended` box, and GRDB runs it once and returns only after it ended (its async `execute`
    // awaits the block), while the task that owns what it captures is suspended.

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction; a thrown error rolls everything back.
    func write<T>(_ body: (Database) throws -> T) async throws(StoreError) -> T {
        try await writeOrRollBack { db in (try body(db), commit: true) }
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction that commits when `body` says so and rolls back otherwise
    /// (or when it throws).
    ///
    /// `foreignKeys: false` leaves SQLite's foreign key checks off for this transaction: for a writer whose rows
    /// all reference the drawing it read in the same transaction (an import), where checking the parent row for
    /// each of a million rows was a sixth of SQLite's work. They are on again before the connection is used again.
    func writeOrRollBack<T>(foreignKeys: Bool = true, _ body: (Database) throws -> (T, commit: Bool)) async throws(StoreError) -> T {
        do {
            let ticket = connections.enter()
            defer { ticket.end() }
            await writerLock.lock()
            defer { writerLock.unlock() }
            return try await withoutActuallyEscaping(body) { body in
                let work = Suspended(body)
                return try await pool.writeWithoutTransaction { db in
                    ticket.start()
                    // Outside any transaction: SQLite ignores the pragma inside one.
                    if !foreignKeys { try db.execute(sql: "PRAGMA foreign_keys = OFF") }
                    var result: T?
                    var failure: (any Error)?
                    do {
                        try db.inTransaction(.immediate) {
                            let (value, commit) = try work.value(db)
                            result = value
                            return commit ? .commit : .rollback
                        }
                    } catch {
                        failure = error
                    }
                    if !foreignKeys { try db.execute(sql: "PRAGMA foreign_keys = ON") }
                    if let failure { throw failure }
                    return Suspended(result!)
                }.value
            }
        } catch {
            throw Self.storeError(error, path: path, busyTimeout: busyTimeout)
        }
    }

    /// Runs `body` in a read transaction (a consistent snapshot).
    func read<T>(_ body: (Database) throws -> T) async throws(StoreError) -> T {
        do {
            let ticket = connections.enter()
            defer { ticket.end() }
            return try await withoutActuallyEscaping(body) { body in
                let work = Suspended(body)
                return try await pool.read { db in
                    ticket.start()
                    return Suspended(try work.value(db))
                }.value
            }
        } catch {
            throw Self.storeError(error, path: path, busyTimeout: busyTimeout)
        }
    }

    /// How many calls hold the writer or a reader now, and wait for one.
    public var connectionUsage: ConnectionUsage { connections.usage }

    /// Maps GRDB and SQLite errors to `StoreError`.
    static func storeError(_ error: any Error, path: String, busyTimeout: Double) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return .busy(path: path, seconds: Int(busyTimeout.rounded(.up)))
            case .SQLITE_NOTADB:
                return .io("\(path): not an SQLite database")
            case .SQLITE_CANTOPEN:
                return .io("\(path): cannot open or create the store")
            case .SQLITE_READONLY:
                return .io("\(path): the store is read-only")
            case .SQLITE_FULL:
                return .io("\(path): the disk is full")
            default:
                return .io("\(path): \(error.message ?? error.description)")
            }
        }
        return .io("\(path): \(error)")
    }

    // MARK: Shared queries

    /// The drawing named `name`, or `unknownDrawing`.
    static func fetchDrawing(_ db: Database, named name: String) throws -> Drawing {
        guard let drawing = try findDrawing(db, named: name) else { throw StoreError.unknownDrawing(name) }
        return drawing
    }

    /// The drawing named `name`, or nil.
    static func findDrawing(_ db: Database, named name: String) throws -> Drawing? {
        // A name is bound as a C string: text after a NUL would be cut off and find another drawing.
        // A cached statement: preparing the query again for every request was a tenth of a marker POST.
        if name.utf8.contains(0) { return nil }
        return try Drawing.fetchOne(try db.cachedStatement(sql: "SELECT * FROM drawing WHERE name = ?"), arguments: [name])
    }

    /// The drawing's regions, in file order.
    static func fetchRegions(_ db: Database, drawingID: Int64) throws -> [Region] {
        let records = try RegionRecord.filter(Column("drawingId") == drawingID).order(Column("position")).fetchAll(db)
        return try RegionRecord.regions(records)
    }
}
