import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore
import PostgresNIO

/// The annotation store in a PostgreSQL database, for several `planmark serve` processes on several machines.
///
/// The same contract as `SQLiteStore`: every write is validated by the geometry core and runs in one transaction;
/// marker numbers come from the drawing row's counter (`UPDATE ... RETURNING` under its row lock), so two servers
/// never give one number twice. Each write transaction first locks its drawing's row (`SELECT ... FOR UPDATE`),
/// which serialises writers of one drawing as SQLite's `BEGIN IMMEDIATE` serialises all of them.
///
/// Connections come from postgres-nio's `PostgresClient`, a bounded pool (`maximumConnections`). A read whose
/// connection is lost is run again on a new one; a write is not: it is reported as `StoreError.unavailable` (the
/// transaction was rolled back by the server, or committed whole).
public final class PostgresStore: AnnotationStore, @unchecked Sendable {
    /// Where the store is (its `description` has no password).
    public let url: PostgresURL
    /// The pool.
    let client: PostgresClient
    /// The event loops the pool's connections and this store's tasks run on.
    let group: any EventLoopGroup
    /// The task running `client.run()`; cancelled when the store goes.
    private let runTask: Task<Void, Never>
    /// Validators by drawing, reused while the drawing's regions revision is unchanged (guarded by `validatorLock`).
    let validatorCache = ValidatorCache()
    let validatorLock = NIOLock()
    /// How long an operation waits for a connection from the pool (or for the server) before `unavailable`.
    public let connectTimeout: Duration
    let logger: Logger

    /// The default pool size: connections this process keeps open at most.
    public static let defaultMaximumConnections = 16

    /// Opens the store in the database `url` names, applying the migrations it lacks (a database without PlanMark's
    /// tables gets them only when `create`, as a missing SQLite file is created only then); a store written by a newer
    /// PlanMark is refused.
    /// - Parameter maximumConnections: the pool's bound.
    /// - Parameter connectTimeout: how long to wait for a connection, unless `url` says (`connect_timeout`).
    /// - Parameter migrateUpTo: test hook: apply migrations only up to this identifier.
    public init(url: PostgresURL, create: Bool, maximumConnections: Int = PostgresStore.defaultMaximumConnections,
                connectTimeout: Duration = .seconds(10), migrateUpTo: String? = nil, logger: Logger? = nil) throws(StoreError) {
        self.url = url
        self.connectTimeout = url.connectTimeout ?? connectTimeout
        var logger = logger ?? Logger(label: "planmark.postgres")
        if logger.logLevel > .notice { logger.logLevel = .notice }
        self.logger = logger
        group = MultiThreadedEventLoopGroup.singleton
        let tls: PostgresClient.Configuration.TLS
        do {
            switch url.sslMode {
            case .disable:
                tls = .disable
            case .prefer:
                var configuration = TLSConfiguration.makeClientConfiguration()
                configuration.certificateVerification = .none
                tls = .prefer(configuration)
            case .require:
                var configuration = TLSConfiguration.makeClientConfiguration()
                configuration.certificateVerification = .none
                tls = .require(configuration)
            case .verifyFull:
                tls = .require(TLSConfiguration.makeClientConfiguration())
            }
        }
        var configuration: PostgresClient.Configuration
        if let folder = url.socketFolder {
            configuration = PostgresClient.Configuration(
                unixSocketPath: folder + "/.s.PGSQL.\(url.port)", username: url.user, password: url.password, database: url.database)
        } else {
            configuration = PostgresClient.Configuration(
                host: url.host ?? "localhost", port: url.port, username: url.user, password: url.password, database: url.database, tls: tls)
        }
        configuration.options.maximumConnections = max(1, maximumConnections)
        configuration.options.connectTimeout = connectTimeout
        configuration.options.additionalStartupParameters = [("application_name", "planmark")]
        let client = PostgresClient(configuration: configuration, eventLoopGroup: group, backgroundLogger: Logger(label: "planmark.postgres.pool", factory: { _ in SwiftLogNoOpLogHandler() }))
        self.client = client
        runTask = Task(executorPreference: EventLoopExecutor(group.next())) { await client.run() }
        do {
            try migrate(create: create, upTo: migrateUpTo)
        } catch {
            runTask.cancel()
            throw error
        }
    }

    /// Opens the store at `text` (a postgres:// URL).
    public convenience init(urlText text: String, create: Bool) throws(StoreError) {
        let url: PostgresURL
        do { url = try PostgresURL(text) } catch { throw .invalidArgument("--store: \(error.message)") }
        try self.init(url: url, create: create)
    }

    deinit { runTask.cancel() }

    /// Closes the pool's connections.
    public func close() { runTask.cancel() }

    // MARK: Migrations

    /// Creates or upgrades the schema in one transaction, under an advisory lock so several servers starting at once
    /// apply each migration once.
    private func migrate(create: Bool, upTo target: String?) throws(StoreError) {
        let known = PostgresSchema.identifiers
        let target = target ?? known.last!
        guard let targetIndex = known.firstIndex(of: target) else { throw .invalidArgument("unknown migration \(target)") }
        let url = self.url
        try write(lockDrawing: nil) { connection, logger in
            try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresSchema.migrationLockKey))", logger: logger)
            var hasMigrations = false
            var hasDrawing = false
            for try await (name) in try await connection.query(
                "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema() AND table_name IN ('planmark_migrations', 'drawing')",
                logger: logger
            ).decode(String.self) {
                if name == "planmark_migrations" { hasMigrations = true } else { hasDrawing = true }
            }
            var applied: [String] = []
            if hasMigrations {
                for try await (identifier) in try await connection.query(
                    "SELECT identifier FROM planmark_migrations ORDER BY position", logger: logger
                ).decode(String.self) {
                    applied.append(identifier)
                }
            } else if hasDrawing {
                throw StoreError.refused(.notAStore(location: "\(url)", kind: "a database with a \"drawing\" table"))
            }
            let unknown = applied.filter { !known.contains($0) }
            if !unknown.isEmpty { throw StoreError.newerSchema(path: url.description, unknownMigrations: unknown) }
            if applied.isEmpty && !create { throw StoreError.missingStore(path: url.description) }
            if !hasMigrations {
                try await connection.query(
                    "CREATE TABLE planmark_migrations (position bigint PRIMARY KEY, identifier text NOT NULL UNIQUE, appliedAt bigint NOT NULL)",
                    logger: logger)
            }
            for (index, migration) in PostgresSchema.migrations.enumerated() where index <= targetIndex && !applied.contains(migration.identifier) {
                try await migration.apply(connection, logger)
                let now = Timestamp.now().milliseconds
                try await connection.query(
                    "INSERT INTO planmark_migrations (position, identifier, appliedAt) VALUES (\(index + 1), \(migration.identifier), \(now))",
                    logger: logger)
            }
        }
    }

    /// The migrations applied to this store, in order.
    public func appliedMigrations() throws(StoreError) -> [String] {
        try read { connection, logger in
            var result: [String] = []
            for try await (identifier) in try await connection.query(
                "SELECT identifier FROM planmark_migrations ORDER BY position", logger: logger
            ).decode(String.self) {
                result.append(identifier)
            }
            return result
        }
    }

    /// Whether the database has PostGIS geometry columns (migration `pg2-postgis` found PostGIS).
    public func hasGeometryColumns() throws(StoreError) -> Bool {
        try read { connection, logger in
            var found = false
            for try await (count) in try await connection.query(
                "SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'marker' AND column_name = 'geom'",
                logger: logger
            ).decode(Int.self) {
                found = count > 0
            }
            return found
        }
    }

    // MARK: Transactions

    /// Runs `body` on a pooled connection outside any explicit transaction (each statement its own). A lost
    /// connection is retried once on a new one: use it for reads only.
    func read<T>(_ body: (PostgresConnection, Logger) async throws -> T) throws(StoreError) -> T {
        var attempt = 0
        while true {
            do {
                return try run { connection in try await body(connection, self.logger) }
            } catch let error as StoreError {
                throw error
            } catch {
                attempt += 1
                if attempt <= 1, Self.isConnectionLoss(error) { continue }
                throw storeError(error, writing: false)
            }
        }
    }

    /// Runs `body` in a read-only `REPEATABLE READ` transaction (one snapshot for several queries); retried like `read`.
    func readSnapshot<T>(_ body: (PostgresConnection, Logger) async throws -> T) throws(StoreError) -> T {
        try read { connection, logger in
            try await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
            do {
                let value = try await body(connection, logger)
                try await connection.query("COMMIT", logger: logger)
                return value
            } catch {
                if !connection.isClosed { _ = try? await connection.query("ROLLBACK", logger: logger) }
                throw error
            }
        }
    }

    /// Runs `body` in a transaction that commits when it returns and rolls back when it throws. With `lockDrawing`,
    /// the transaction first locks that drawing's row (`SELECT ... FOR UPDATE`, `unknownDrawing` when there is none)
    /// and passes it to `body`, so writers of one drawing run one at a time. A deadlock or serialisation failure
    /// (nothing was applied) runs the whole transaction again; a lost connection is `unavailable`.
    func write<T>(lockDrawing name: String?, _ body: (PostgresConnection, Logger, Drawing?) async throws -> T) throws(StoreError) -> T {
        try writeOrRollBack(lockDrawing: name) { connection, logger, drawing in (try await body(connection, logger, drawing), true) }
    }

    /// `write` without a drawing to lock.
    func write<T>(lockDrawing name: String?, _ body: (PostgresConnection, Logger) async throws -> T) throws(StoreError) -> T {
        try writeOrRollBack(lockDrawing: name) { connection, logger, _ in (try await body(connection, logger), true) }
    }

    /// Like `write`, but commits only when `body` says so (a dry run, an import with invalid rows).
    func writeOrRollBack<T>(lockDrawing name: String?, _ body: (PostgresConnection, Logger, Drawing?) async throws -> (T, commit: Bool)) throws(StoreError) -> T {
        var attempt = 0
        while true {
            do {
                return try run { connection in
                    let logger = self.logger
                    try await connection.query("BEGIN", logger: logger)
                    do {
                        var drawing: Drawing? = nil
                        if let name { drawing = try await Self.lockDrawing(connection, named: name, logger: logger) }
                        let (value, commit) = try await body(connection, logger, drawing)
                        try await connection.query(commit ? "COMMIT" : "ROLLBACK", logger: logger)
                        return value
                    } catch {
                        if !connection.isClosed { _ = try? await connection.query("ROLLBACK", logger: logger) }
                        throw error
                    }
                }
            } catch let error as StoreError {
                throw error
            } catch {
                attempt += 1
                if attempt <= 3, let state = Self.sqlState(error), state == "40001" || state == "40P01" { continue }
                throw storeError(error, writing: true)
            }
        }
    }

    /// Leases a connection (waiting at most `connectTimeout` for one) and runs `body` with it, blocking this thread.
    ///
    /// The wait for a connection is raced against a timer on the event loop rather than cancelled: while the database
    /// is down the pool keeps trying to connect, and a lease request need not end when cancelled. Whichever comes first
    /// wins (`state`); a lease that arrives after the timer hands its connection straight back, without running `body`.
    func run<T>(_ body: (PostgresConnection) async throws -> T) throws -> T {
        let client = self.client
        let timeout = connectTimeout
        let group = self.group
        return try Blocking.run(on: group) {
            try await withoutActuallyEscaping(body) { body in
                let box = ClosureHolder(body)
                // 0 waiting for a connection, 1 running body, 2 timed out, 3 finished.
                let state = NIOLockedValueBox(0)
                @Sendable func move(from: Set<Int>, to: Int) -> Bool {
                    state.withLockedValue { value in
                        guard from.contains(value) else { return false }
                        value = to
                        return true
                    }
                }
                let loop = group.next()
                let promise = loop.makePromise(of: Handoff<T>.self)
                let work = Task(executorPreference: EventLoopExecutor(loop)) {
                    do {
                        let value = try await client.withConnection { connection -> Handoff<T> in
                            guard move(from: [0], to: 1), let body = box.take() else { throw ConnectTimeout() }
                            return Handoff(value: try await body(connection))
                        }
                        if move(from: [1], to: 3) { promise.succeed(value) }
                    } catch {
                        box.clear()
                        if move(from: [0, 1], to: 3) { promise.fail(error) }
                    }
                }
                let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
                loop.scheduleTask(in: .nanoseconds(nanoseconds)) {
                    if move(from: [0], to: 2) {
                        box.clear()
                        promise.fail(ConnectTimeout())
                        work.cancel()
                    }
                }
                return try await promise.futureResult.get().value
            }
        }
    }

    /// No connection within `connectTimeout`.
    struct ConnectTimeout: Error {}

    // MARK: Errors

    /// The SQLSTATE of a server error, if `error` is one.
    static func sqlState(_ error: any Error) -> String? {
        if let error = error as? PSQLError { return error.serverInfo?[.sqlState] }
        return nil
    }

    /// Whether `error` means the connection went away (the server restarted or was killed, the network failed).
    static func isConnectionLoss(_ error: any Error) -> Bool {
        if error is ConnectTimeout { return false }
        if let error = error as? PSQLError {
            switch error.code {
            case .serverClosedConnection, .uncleanShutdown, .connectionError, .queryCancelled:
                return true
            case .server:
                // admin_shutdown, crash_shutdown, cannot_connect_now: the server is going away.
                return ["57P01", "57P02", "57P03", "08000", "08003", "08006"].contains(error.serverInfo?[.sqlState] ?? "")
            default:
                return false
            }
        }
        return error is ChannelError || error is IOError
    }

    /// Maps a postgres-nio or NIO error to `StoreError`, naming the store by its URL without the password.
    func storeError(_ error: any Error, writing: Bool) -> StoreError {
        if let error = error as? StoreError { return error }
        if error is ConnectTimeout {
            return .unavailable("\(url): no connection to the database within \(connectTimeout.components.seconds) s")
        }
        if Self.isConnectionLoss(error) {
            return .unavailable(writing
                ? "\(url): the connection was lost before the change was confirmed (a transaction is applied whole or not at all)"
                : "\(url): the connection was lost")
        }
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                let state = error.serverInfo?[.sqlState] ?? "?"
                if state == "28P01" || state == "28000" { return .unavailable("\(url): the server refused the login (\(message))") }
                if state == "3D000" { return .missingStore(path: url.description) }
                return .io("\(url): \(message) (SQLSTATE \(state))")
            }
            return .unavailable("\(url): \(error.code.description)")
        }
        return .io("\(url): \(error)")
    }

    // MARK: Shared queries

    /// The columns of `drawing`, in the order `decodeDrawing` reads them.
    static let drawingColumns = """
        id, name, imagePath, imageSHA256, width, height, zoom, crs, singleMarker, nextNumber, regionsRevision, createdAt, \
        uuidSeed, metresPerPixel, calibration, revision
        """

    /// The drawing named `name`, its row locked until the transaction ends; `unknownDrawing` when there is none.
    static func lockDrawing(_ connection: PostgresConnection, named name: String, logger: Logger) async throws -> Drawing {
        guard let drawing = try await fetchDrawing(connection, named: name, forUpdate: true, logger: logger) else {
            throw StoreError.unknownDrawing(name)
        }
        return drawing
    }

    /// The drawing named `name`, or nil.
    static func fetchDrawing(_ connection: PostgresConnection, named name: String, forUpdate: Bool = false, logger: Logger) async throws -> Drawing? {
        // A NUL cannot be in a PostgreSQL text value; no drawing has such a name.
        if name.utf8.contains(0) { return nil }
        let sql = "SELECT \(drawingColumns) FROM drawing WHERE name = $1" + (forUpdate ? " FOR UPDATE" : "")
        var bindings = PostgresBindings()
        bindings.append(name)
        let rows = try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger)
        for try await row in rows { return try decodeDrawing(row) }
        return nil
    }

    /// A drawing from a row of `drawingColumns`.
    static func decodeDrawing(_ row: PostgresRow) throws -> Drawing {
        let (id, name, imagePath, imageSHA256, width, height, zoom, crsText) =
            try row.decode((Int64, String, String, String, Int, Int, Double, String).self)
        let cells = row.makeRandomAccess()
        let singleMarker = try cells[8].decode(Bool.self)
        let nextNumber = try cells[9].decode(Int.self)
        let regionsRevision = try cells[10].decode(Int.self)
        let createdAt = try cells[11].decode(Int64.self)
        let uuidSeed = try cells[12].decode(Int64.self)
        let metresPerPixel = try cells[13].decode(Double?.self)
        let calibrationText = try cells[14].decode(String?.self)
        let revision = try cells[15].decode(Int.self)
        guard let crs = CRSFlavour(rawValue: crsText) else { throw StoreError.io("drawing \"\(name)\" has an unknown crs \"\(crsText)\"") }
        var drawing = Drawing(id: id, name: name, imagePath: imagePath, imageSHA256: imageSHA256, width: width, height: height,
                              zoom: Zoom(zoom), crs: crs, singleMarker: singleMarker, nextNumber: nextNumber,
                              regionsRevision: regionsRevision, createdAt: Timestamp(milliseconds: createdAt), uuidSeed: uuidSeed)
        drawing.revision = revision
        if let metresPerPixel, let calibrationText, let calibration = CalibrationJSON.parse(calibrationText) {
            drawing.metresPerPixel = metresPerPixel
            drawing.calibration = calibration
        }
        return drawing
    }

    /// The drawing's regions, in file order.
    static func fetchRegions(_ connection: PostgresConnection, drawingID: Int64, logger: Logger) async throws -> [Region] {
        var records: [RegionRecord] = []
        for try await (position, regionID, kindText, name, geometry, minX, minY, maxX, maxY) in try await connection.query(
            "SELECT position, regionId, kind, name, geometry, minX, minY, maxX, maxY FROM region WHERE drawingId = \(drawingID) ORDER BY position",
            logger: logger
        ).decode((Int, String, String, String?, String, Double, Double, Double, Double).self) {
            guard let kind = RegionKind(rawValue: kindText) else { throw StoreError.io("region has an unknown kind \"\(kindText)\"") }
            records.append(RegionRecord(drawingID: drawingID, position: position, regionID: regionID, kind: kind, name: name,
                                        geometry: geometry, bounds: BoundingBox(minX: minX, minY: minY, maxX: maxX, maxY: maxY)))
        }
        return try RegionRecord.regions(records)
    }

    /// The validator for `drawing`: cached while its regions revision is unchanged, else built from the stored regions.
    /// - Complexity: O(1) on a hit; O(region vertices) to rebuild.
    func currentValidator(_ connection: PostgresConnection, for drawing: Drawing, logger: Logger) async throws -> MarkerValidator {
        if let cached = validatorLock.withLock({ validatorCache.validator(for: drawing) }) { return cached }
        let validator = SQLiteStore.validator(for: drawing, regions: try await Self.fetchRegions(connection, drawingID: drawing.id!, logger: logger))
        validatorLock.withLock { validatorCache.store(validator, for: drawing) }
        return validator
    }
}

/// Holds a closure until it is taken or cleared (so that it has not escaped when the waiting thread goes on).
final class ClosureHolder<T>: @unchecked Sendable {
    private let lock = NIOLock()
    private var body: ((PostgresConnection) async throws -> T)?
    init(_ body: @escaping (PostgresConnection) async throws -> T) { self.body = body }
    func take() -> ((PostgresConnection) async throws -> T)? { lock.withLock { defer { body = nil }; return body } }
    func clear() { lock.withLock { body = nil } }
}
