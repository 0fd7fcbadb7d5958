import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore
import PostgresNIO
// postgres-nio's pool error (`connectionCreationCircuitBreakerTripped`), which `PostgresNIO` does not re-export.
import _ConnectionPoolModule

/// The annotation store in a PostgreSQL database, for several `planmark serve` processes on several machines.
///
/// The contract `AnnotationStore`: every write is validated by the geometry core and runs in one transaction;
/// marker numbers come from the drawing row's counter (`UPDATE ... RETURNING` under its row lock), so two servers
/// never give one number twice. Each write transaction first locks its drawing's row (`SELECT ... FOR UPDATE`),
/// which serialises writers of one drawing as SQLite's `BEGIN IMMEDIATE` serialises all of them.
///
/// Connections come from postgres-nio's `PostgresClient`, a bounded pool (`maximumConnections`). A read whose
/// connection is lost is run again on a new one; a write is not (unless the connection was lost before its
/// transaction began): it is reported as `StoreError.unavailable` (the transaction was rolled back by the server, or
/// committed whole).
///
/// No wait is unbounded: a connection is waited for at most `connectTimeout`, and an operation that holds one ends
/// once the database has shown no progress for `statementTimeout` (`Watchdog`: its connection is closed, and the
/// operation is `unavailable`). No thread waits for an operation: the caller's task awaits it.
///
/// The store remembers its database's identity at open (the `pg_database` oid of `current_database()`) and checks it
/// on each new pooled connection: a database dropped and created again under the same name (whose connections were
/// all ended by the drop) is noticed on the first connection to the new one, and every write is refused from then on
/// with `StoreError.storeReplaced`.
public final class PostgresStore: AnnotationStore, @unchecked Sendable {
    /// Where the store is (its `description` has no password).
    public let url: PostgresURL
    /// The pool.
    let client: PostgresClient
    /// The event loops the pool's connections and this store's tasks run on.
    let group: any EventLoopGroup
    /// The task running `client.run()`; cancelled when the store goes.
    private let runTask: Task<Void, Never>
    /// Validators by drawing, reused while the drawing's regions revision is unchanged.
    let validatorCache = ValidatorCache()
    /// Marker additions waiting for their drawing's next batch (`addMarker`).
    let additions = GroupCommit<MarkerAddition, Result<MarkerCreation, StoreError>>()
    /// How long an operation waits for a connection from the pool (or for the server) before `unavailable`.
    public let connectTimeout: Duration
    /// How long an operation holding a connection may see no progress from the database before it is `unavailable`
    /// (its connection closed): one statement's time, or one COPY buffer's.
    public let statementTimeout: Duration
    /// The database's identity (`pg_database.oid`) at open, the connections checked against it, and whether a
    /// connection found another one (guarded by the box).
    let identity = NIOLockedValueBox(DatabaseIdentity())
    let logger: Logger
    /// The calls holding a pooled connection, and waiting for one.
    let connections: ConnectionGauge

    /// The default pool size: connections this process keeps open at most.
    public static let defaultMaximumConnections = 16
    /// The default `statementTimeout`.
    public static let defaultStatementTimeout: Duration = .seconds(60)

    /// Opens the store in the database `url` names, applying the migrations it lacks (a database without PlanMark's
    /// tables gets them only when `create`, as a missing SQLite file is created only then); a store written by a newer
    /// PlanMark is refused.
    /// - Parameter maximumConnections: the pool's bound.
    /// - Parameter connectTimeout: how long to wait for a connection, unless `url` says (`connect_timeout`).
    /// - Parameter statementTimeout: how long an operation may wait for the database without progress, unless `url`
    ///   says (`statement_timeout`).
    /// - Parameter migrateUpTo: test hook: apply migrations only up to this identifier.
    public init(url: PostgresURL, create: Bool, maximumConnections: Int = PostgresStore.defaultMaximumConnections,
                connectTimeout: Duration = .seconds(10), statementTimeout: Duration = PostgresStore.defaultStatementTimeout,
                migrateUpTo: String? = nil, logger: Logger? = nil) async throws(StoreError) {
        self.url = url
        self.connectTimeout = url.connectTimeout ?? connectTimeout
        self.statementTimeout = url.statementTimeout ?? statementTimeout
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
        connections = ConnectionGauge(maximum: max(1, maximumConnections))
        configuration.options.connectTimeout = self.connectTimeout
        configuration.options.additionalStartupParameters = [("application_name", "planmark")]
        let client = PostgresClient(configuration: configuration, eventLoopGroup: group, backgroundLogger: Logger(label: "planmark.postgres.pool", factory: { _ in SwiftLogNoOpLogHandler() }))
        self.client = client
        runTask = Task(executorPreference: EventLoopExecutor(group.next())) { await client.run() }
        do {
            try await migrate(create: create, upTo: migrateUpTo)
        } catch {
            runTask.cancel()
            throw error
        }
    }

    /// Opens the store at `text` (a postgres:// URL).
    public convenience init(urlText text: String, create: Bool) async throws(StoreError) {
        let url: PostgresURL
        do { url = try PostgresURL(text) } catch { throw .invalidArgument("--store: \(error.message)") }
        try await self.init(url: url, create: create)
    }

    deinit { runTask.cancel() }

    /// Closes the pool's connections.
    public func close() { runTask.cancel() }

    // MARK: Migrations

    /// Creates or upgrades the schema in one transaction, under an advisory lock so several servers starting at once
    /// apply each migration once.
    private func migrate(create: Bool, upTo target: String?) async throws(StoreError) {
        let known = PostgresSchema.identifiers
        let target = target ?? known.last!
        guard let targetIndex = known.firstIndex(of: target) else { throw .invalidArgument("unknown migration \(target)") }
        let url = self.url
        let oid = try await write(lockDrawing: nil) { connection, logger in
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
            return try await Self.databaseOID(connection, logger: logger)
        }
        identity.withLockedValue { $0.oid = oid }
    }

    /// The `pg_database` oid of the database `connection` is to.
    static func databaseOID(_ connection: PostgresConnection, logger: Logger) async throws -> Int64 {
        var oid: Int64 = 0
        for try await (value) in try await connection.query(
            "SELECT oid::int8 FROM pg_database WHERE datname = current_database()", logger: logger
        ).decode(Int64.self) {
            oid = value
        }
        return oid
    }

    /// How many calls hold a pooled connection now, and wait for one.
    public var connectionUsage: ConnectionUsage { connections.usage }

    /// Whether a connection found the store's database replaced (dropped and made again) since it was opened.
    public var isReplaced: Bool { identity.withLockedValue { $0.replaced } }

    /// The migrations applied to this store, in order.
    public func appliedMigrations() async throws(StoreError) -> [String] {
        try await read { connection, logger in
            var result: [String] = []
            for try await (identifier) in try await connection.query(
                "SELECT identifier FROM planmark_migrations ORDER BY position", logger: logger
            ).decode(String.self) {
                result.append(identifier)
            }
            return result
        }
    }

    /// Whether the database has PostGIS geometry (migration `pg2-postgis` found PostGIS): `region.geom` and the view
    /// `marker_geometry`.
    public func hasGeometryColumns() async throws(StoreError) -> Bool {
        try await read { connection, logger in try await PostgresGIS.hasGeometry(connection, logger: logger) }
    }

    // MARK: Transactions

    /// Runs `body` on a pooled connection outside any explicit transaction (each statement its own). A lost
    /// connection is retried (twice) on a new one: use it for reads only.
    func read<T>(_ body: (PostgresConnection, Logger) async throws -> T) async throws(StoreError) -> T {
        var attempt = 0
        while true {
            do {
                return try await run(writing: false) { connection in try await body(connection, self.logger) }
            } catch let error as StoreError {
                throw error
            } catch {
                attempt += 1
                if attempt <= 2, Self.isConnectionLoss(error) { continue }
                throw storeError(error, writing: false)
            }
        }
    }

    /// Runs `body` in a read-only `REPEATABLE READ` transaction (one snapshot for several queries); retried like `read`.
    func readSnapshot<T>(_ body: (PostgresConnection, Logger) async throws -> T) async throws(StoreError) -> T {
        try await read { connection, logger in
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
    /// (nothing was applied) runs the whole transaction again; so does a connection lost before the transaction began
    /// (a pooled connection the database ended meanwhile); a connection lost later is `unavailable`.
    func write<T>(lockDrawing name: String?, _ body: (PostgresConnection, Logger, Drawing?) async throws -> T) async throws(StoreError) -> T {
        try await writeOrRollBack(lockDrawing: name) { connection, logger, drawing in (try await body(connection, logger, drawing), true) }
    }

    /// `write` without a drawing to lock.
    func write<T>(lockDrawing name: String?, _ body: (PostgresConnection, Logger) async throws -> T) async throws(StoreError) -> T {
        try await writeOrRollBack(lockDrawing: name) { connection, logger, _ in (try await body(connection, logger), true) }
    }

    /// Like `write`, but commits only when `body` says so (a dry run, an import with invalid rows).
    ///
    /// With `releaseLocksBeforeFlush` (a batch of marker additions, `addMarkers`), the transaction commits without
    /// waiting for its commit record to reach the disk (`body`'s first statement turns `synchronous_commit` off for the
    /// transaction: `LockForBatchStatement`, one round trip less than a `SET LOCAL` of its own), so its row locks (the
    /// drawing's counter, the history's head) go to the next writer at once, and then waits for the disk outside them: a
    /// durable one-statement transaction on the same connection (`SELECT txid_current()`), whose flush covers the
    /// batch's commit record (the log is written in order). It returns only after that flush, so what the caller
    /// answers is on disk, as with a plain `COMMIT`; meanwhile other sessions can already read the batch (a crash in
    /// that window loses it, unanswered). While one writer's commit is flushed, the next one's statements run, and the
    /// flushes of several writers (several servers) can share one write of the log. When the flush cannot be confirmed
    /// (the connection is lost after `COMMIT`) the error is `unavailable`: the client sends again, and a marker's uuid
    /// makes that harmless.
    /// - Complexity: as `write`, and one round trip after the locks are released.
    func writeOrRollBack<T>(lockDrawing name: String?, releaseLocksBeforeFlush: Bool = false,
                            _ body: (PostgresConnection, Logger, Drawing?) async throws -> (T, commit: Bool)) async throws(StoreError) -> T {
        var attempt = 0
        var lostBeforeBegin = 0
        while true {
            do {
                return try await run(writing: true) { connection in
                    let logger = self.logger
                    do {
                        try await connection.query("BEGIN", logger: logger)
                    } catch {
                        if Self.isConnectionLoss(error) { throw NotBegun(underlying: error) }
                        throw error
                    }
                    do {
                        var drawing: Drawing? = nil
                        if let name { drawing = try await Self.lockDrawing(connection, named: name, logger: logger) }
                        let (value, commit) = try await body(connection, logger, drawing)
                        try await connection.query(commit ? "COMMIT" : "ROLLBACK", logger: logger)
                        if commit && releaseLocksBeforeFlush {
                            do {
                                try await connection.query("SELECT txid_current()", logger: logger)
                            } catch {
                                throw StoreError.unavailable("the batch was committed, but its flush to disk could not be confirmed: \(error)")
                            }
                        }
                        return value
                    } catch {
                        if !connection.isClosed { _ = try? await connection.query("ROLLBACK", logger: logger) }
                        throw error
                    }
                }
            } catch let error as StoreError {
                throw error
            } catch let error as NotBegun {
                lostBeforeBegin += 1
                if lostBeforeBegin <= 2 { continue }
                throw storeError(error.underlying, writing: false)
            } catch {
                attempt += 1
                if attempt <= 3, let state = Self.sqlState(error), state == "40001" || state == "40P01" { continue }
                throw storeError(error, writing: true)
            }
        }
    }

    /// Leases a connection (waiting at most `connectTimeout` for one) and runs `body` with it, as a task on an event loop
    /// of the pool's group; the caller awaits its end (no thread waits for it).
    ///
    /// The wait for a connection is raced against a timer on the event loop rather than cancelled: while the database
    /// is down the pool keeps trying to connect, and a lease request need not end when cancelled. Whichever comes first
    /// wins (`state`); a lease that arrives after the timer hands its connection straight back, without running `body`.
    ///
    /// A connection new to this store is first checked to be to the database the store opened (`identity`); one to
    /// another (the database was dropped and made again) marks the store replaced, and a `writing` operation is then
    /// refused (`storeReplaced`), as every later one is, before any connection is leased.
    ///
    /// While `body` runs, a `Watchdog` closes the connection once the database has shown no progress for
    /// `statementTimeout`, and `body` then fails with `StatementTimeout`.
    func run<T>(writing: Bool, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        if writing, isReplaced { throw StoreError.storeReplaced(path: url.description) }
        let client = self.client
        let timeout = connectTimeout
        let loop = group.next()
        let watchdog = Watchdog(timeout: statementTimeout, loop: loop)
        let ticket = connections.enter()
        defer { ticket.end() }
        return try await withoutActuallyEscaping(body) { body in
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
            let promise = loop.makePromise(of: Handoff<T>.self)
            let work = Task(executorPreference: EventLoopExecutor(loop)) {
                do {
                    let value = try await client.withConnection { connection -> Handoff<T> in
                        guard move(from: [0], to: 1), let body = box.take() else { throw ConnectTimeout() }
                        ticket.start()
                        watchdog.arm { connection.closeChannel() }
                        defer { watchdog.disarm() }
                        do {
                            try await self.checkIdentity(connection, writing: writing)
                            return Handoff(value: try await Watchdog.$current.withValue(watchdog) { try await body(connection) })
                        } catch {
                            if watchdog.hasExpired, !(error is StoreError) { throw StatementTimeout(underlying: error) }
                            throw error
                        }
                    }
                    if move(from: [1], to: 3) { promise.succeed(value) }
                } catch {
                    box.clear()
                    if move(from: [0, 1], to: 3) { promise.fail(error) }
                }
            }
            let nanoseconds = Watchdog.nanoseconds(timeout)
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

    /// Checks that `connection` (when new to this store) is to the database the store opened; marks the store
    /// replaced when not, and then refuses a `writing` operation. A connection lost meanwhile is `NotBegun` (nothing
    /// was done on it).
    /// - Complexity: one query for each new pooled connection; none for a connection checked before.
    private func checkIdentity(_ connection: PostgresConnection, writing: Bool) async throws {
        let (expected, checked, replaced) = identity.withLockedValue { ($0.oid, $0.checked.contains(connection.id), $0.replaced) }
        if replaced {
            if writing { throw StoreError.storeReplaced(path: url.description) }
            return
        }
        guard let expected, !checked else { return }
        let oid: Int64
        do {
            oid = try await Self.databaseOID(connection, logger: logger)
        } catch {
            if Self.isConnectionLoss(error) { throw NotBegun(underlying: error) }
            throw error
        }
        let same = oid == expected
        identity.withLockedValue { value in
            if same {
                // Ids only grow; forgetting them all now and then costs one query per connection.
                if value.checked.count >= 4096 { value.checked.removeAll(keepingCapacity: true) }
                value.checked.insert(connection.id)
            } else {
                value.replaced = true
            }
        }
        if !same {
            logger.error("\(url): the database was dropped and made again since this store was opened (oid \(expected), now \(oid)); writes are refused until the store is opened again")
            if writing { throw StoreError.storeReplaced(path: url.description) }
        }
    }

    /// No connection within `connectTimeout`.
    struct ConnectTimeout: Error {}

    /// The database showed no progress for `statementTimeout`; the connection was closed.
    struct StatementTimeout: Error {
        var underlying: any Error
    }

    /// The connection was lost before the operation did anything on it: it may run again on another.
    struct NotBegun: Error {
        var underlying: any Error
    }

    // MARK: Errors

    /// The SQLSTATE of a server error, if `error` is one.
    static func sqlState(_ error: any Error) -> String? {
        if let error = error as? PSQLError { return error.serverInfo?[.sqlState] }
        return nil
    }

    /// Whether `error` means the connection went away (the server restarted or was killed, the network failed).
    static func isConnectionLoss(_ error: any Error) -> Bool {
        if error is ConnectTimeout || error is StatementTimeout { return false }
        if error is NotBegun || error is CopyConnectionLost { return true }
        if let error = error as? PostgresError, case .connectionClosed = error { return true }
        if let error = error as? PSQLError {
            switch error.code {
            case .serverClosedConnection, .uncleanShutdown, .connectionError, .queryCancelled, .clientClosedConnection:
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

    /// Maps a postgres-nio or NIO error to `StoreError`, naming the store by its URL without the password. Every
    /// error that says the database cannot be reached now (a lost or refused connection, the pool's circuit breaker,
    /// a database that did not answer in time) is `unavailable`.
    func storeError(_ error: any Error, writing: Bool) -> StoreError {
        Self.storeError(error, writing: writing, url: url, connectTimeout: connectTimeout, statementTimeout: statementTimeout)
    }

    /// `storeError` for a store at `url` with these timeouts.
    static func storeError(_ error: any Error, writing: Bool, url: PostgresURL, connectTimeout: Duration, statementTimeout: Duration) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? NotBegun {
            return storeError(error.underlying, writing: false, url: url, connectTimeout: connectTimeout, statementTimeout: statementTimeout)
        }
        if error is ConnectTimeout {
            return .unavailable("\(url): no connection to the database within \(Self.seconds(connectTimeout)) s")
        }
        if error is StatementTimeout {
            return .unavailable("\(url): the database did not answer within \(Self.seconds(statementTimeout)) s"
                                + (writing ? " (a transaction is applied whole or not at all)" : ""))
        }
        if let error = error as? ConnectionPoolError {
            if error == .connectionCreationCircuitBreakerTripped {
                return .unavailable("\(url): the database has been unreachable for a while (no new connection could be made)")
            }
            return .unavailable("\(url): the connection pool is closed")
        }
        if Self.isConnectionLoss(error) {
            return .unavailable(writing
                ? "\(url): the connection was lost before the change was confirmed (a transaction is applied whole or not at all)"
                : "\(url): the connection was lost")
        }
        if let error = error as? PSQLError {
            if error.code == .poolClosed { return .unavailable("\(url): the connection pool is closed") }
            if let message = error.serverInfo?[.message] {
                let state = error.serverInfo?[.sqlState] ?? "?"
                if state == "28P01" || state == "28000" { return .unavailable("\(url): the server refused the login (\(message))") }
                if state == "3D000" { return .missingStore(path: url.description) }
                // query_canceled (an administrator's pg_cancel_backend, a server-side statement_timeout).
                if state == "57014" { return .unavailable("\(url): \(message)") }
                return .io("\(url): \(message) (SQLSTATE \(state))")
            }
            return .unavailable("\(url): \(error.code.description)")
        }
        return .io("\(url): \(error)")
    }

    /// Whole seconds of `duration`, at least 1 when it is positive.
    static func seconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds == 0 && attoseconds > 0 ? 1 : seconds
    }

    // MARK: Shared queries

    /// The columns of `drawing`, in the order `decodeDrawing` reads them.
    static let drawingColumns = """
        id, name, imagePath, imageSHA256, width, height, zoom, crs, singleMarker, nextNumber, regionsRevision, createdAt, \
        uuidSeed, metresPerPixel, calibration, revision, projectId, pdfPage, pdfDPI
        """

    /// How many columns `drawingColumns` names (where the columns a query selects after them begin).
    static let drawingColumnCount = drawingColumns.split(separator: ",").count

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
        let projectID = try cells[16].decode(Int64.self)
        let pdfPage = try cells[17].decode(Int?.self)
        let pdfDPI = try cells[18].decode(Int?.self)
        guard let crs = CRSFlavour(rawValue: crsText) else { throw StoreError.io("drawing \"\(name)\" has an unknown crs \"\(crsText)\"") }
        var drawing = Drawing(id: id, name: name, imagePath: imagePath, imageSHA256: imageSHA256, width: width, height: height,
                              zoom: Zoom(zoom), crs: crs, singleMarker: singleMarker, nextNumber: nextNumber,
                              regionsRevision: regionsRevision, createdAt: Timestamp(milliseconds: createdAt), uuidSeed: uuidSeed)
        drawing.revision = revision
        drawing.projectID = projectID
        if let pdfPage, let pdfDPI { drawing.pdf = PDFSource(page: pdfPage, dpi: pdfDPI) }
        // The scale derived again from the calibration kept as given (`Calibration.metresPerPixel`, exact).
        if let metresPerPixel, let calibrationText, let calibration = CalibrationJSON.parse(calibrationText) {
            drawing.metresPerPixel = calibration.metresPerPixel ?? metresPerPixel
            drawing.calibration = calibration
        }
        return drawing
    }

    /// The drawing's regions, in file order.
    static func fetchRegions(_ connection: PostgresConnection, drawingID: Int64, logger: Logger) async throws -> [Region] {
        var records: [RegionRecord] = []
        for try await (position, regionID, kindText, name, geometry, minX, minY, maxX, maxY, labelBox) in try await connection.query(
            "SELECT position, regionId, kind, name, geometry, minX, minY, maxX, maxY, labelBox FROM region WHERE drawingId = \(drawingID) ORDER BY position",
            logger: logger
        ).decode((Int, String, String, String?, String, Double, Double, Double, Double, String?).self) {
            guard let kind = RegionKind(rawValue: kindText) else { throw StoreError.io("region has an unknown kind \"\(kindText)\"") }
            records.append(RegionRecord(drawingID: drawingID, position: position, regionID: regionID, kind: kind, name: name,
                                        geometry: geometry, bounds: BoundingBox(minX: minX, minY: minY, maxX: maxX, maxY: maxY),
                                        labelBox: labelBox))
        }
        return try RegionRecord.regions(records)
    }
}

extension PostgresConnection {
    /// Closes the connection's channel now (without a `Terminate` round trip): every operation waiting on it fails.
    func closeChannel() {
        _ = close() as EventLoopFuture<Void>
    }
}

/// What the store knows of its database's identity (see `PostgresStore.checkIdentity`).
struct DatabaseIdentity: Sendable {
    /// The `pg_database` oid at open; nil until the migrations ran.
    var oid: Int64?
    /// Pooled connections (by id) found to be to that database.
    var checked: Set<Int> = []
    /// Whether a connection found another database under the name.
    var replaced = false
}

/// Holds a closure until it is taken or cleared (so that it has not escaped when the awaiting task goes on).
final class ClosureHolder<T>: @unchecked Sendable {
    private let lock = NIOLock()
    private var body: ((PostgresConnection) async throws -> T)?
    init(_ body: @escaping (PostgresConnection) async throws -> T) { self.body = body }
    func take() -> ((PostgresConnection) async throws -> T)? { lock.withLock { defer { body = nil }; return body } }
    func clear() { lock.withLock { body = nil } }
}
