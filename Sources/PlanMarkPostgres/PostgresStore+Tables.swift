import Logging
import NIOCore
import PlanMarkStore
import PostgresNIO

/// A connection of its own (outside the pool) that holds one transaction across several calls: what `store migrate`
/// reads a snapshot through, or loads a whole store through.
final class PostgresTableConnection {
    let store: PostgresStore
    private(set) var connection: PostgresConnection?

    /// Opens `url`'s store (applying migrations; a missing schema is created only when `create`), then a connection
    /// of its own that runs `begin`.
    init(url: PostgresURL, create: Bool, begin: [String]) async throws(StoreError) {
        store = try await PostgresStore(url: url, create: create, maximumConnections: 1)
        let configuration: PostgresConnection.Configuration
        do {
            configuration = try Self.configuration(url)
        } catch {
            store.close()
            throw .invalidArgument("\(url): TLS: \(error)")
        }
        let store = self.store
        do {
            // The connection's own `connectTimeout` bounds the connect; `begin` is a few statements that take no locks.
            let connection = try await PostgresConnection.connect(
                on: store.group.next(), configuration: configuration, id: 1, logger: store.logger)
            do {
                for statement in begin { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: store.logger) }
            } catch {
                try? await connection.close()
                throw error
            }
            self.connection = connection
        } catch {
            store.close()
            throw store.storeError(error, writing: false)
        }
    }

    /// The connection's configuration for `url` (as the pool's).
    static func configuration(_ url: PostgresURL) throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        if let folder = url.socketFolder {
            configuration = .init(unixSocketPath: folder + "/.s.PGSQL.\(url.port)", username: url.user, password: url.password, database: url.database)
        } else {
            let tls: PostgresConnection.Configuration.TLS
            switch url.sslMode {
            case .disable:
                tls = .disable
            case .prefer, .require:
                var settings = TLSConfiguration.makeClientConfiguration()
                settings.certificateVerification = .none
                let context = try NIOSSLContext(configuration: settings)
                tls = url.sslMode == .prefer ? .prefer(context) : .require(context)
            case .verifyFull:
                tls = .require(try NIOSSLContext(configuration: TLSConfiguration.makeClientConfiguration()))
            }
            configuration = .init(host: url.host ?? "localhost", port: url.port, username: url.user, password: url.password,
                                  database: url.database, tls: tls)
        }
        configuration.options.connectTimeout = .seconds(url.connectTimeout?.components.seconds ?? 10)
        return configuration
    }

    /// Runs `body` with the connection; errors become `StoreError` (a lost connection `unavailable`).
    func run<T>(writing: Bool, _ body: (PostgresConnection, Logger) async throws -> T) async throws(StoreError) -> T {
        guard let connection else { throw .io("\(store.url): the connection is closed") }
        let logger = store.logger
        do {
            // The same deadline as a pooled operation's (one statement's time): past it without progress, the
            // connection is closed, which fails the statement waiting on it.
            let watchdog = Watchdog(timeout: store.statementTimeout, loop: connection.eventLoop)
            watchdog.arm { connection.closeChannel() }
            defer { watchdog.disarm() }
            do {
                return try await Watchdog.$current.withValue(watchdog) { try await body(connection, logger) }
            } catch {
                if watchdog.hasExpired, !(error is StoreError) { throw PostgresStore.StatementTimeout(underlying: error) }
                throw error
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw store.storeError(error, writing: writing)
        }
    }

    /// Runs `last` (COMMIT or ROLLBACK; errors ignored when `ignoringErrors`) and closes the connection and the pool.
    func finish(_ last: String, ignoringErrors: Bool) async throws(StoreError) {
        guard let connection else { return }
        var failure: StoreError?
        do {
            _ = try await run(writing: true) { connection, logger in
                try await connection.query(PostgresQuery(unsafeSQL: last), logger: logger)
            }
        } catch {
            if !ignoringErrors { failure = error }
        }
        // The transaction has ended (or, when it failed, the server rolls it back when the connection goes).
        self.connection = nil
        do { try await connection.close() } catch { connection.closeChannel() }
        store.close()
        if let failure { throw failure }
    }

    /// A connection not finished is closed (the server rolls its transaction back).
    deinit {
        // The connection is closed by a task that holds it until it is (postgres-nio asserts that a connection is
        // closed before it goes).
        if let connection { Task { try? await connection.close() } }
        store.close()
    }

    /// A row of `table.columns`, each value of its column's kind (`boolean` as 0 or 1).
    static func values(of row: PostgresRow, _ table: StoreTable) throws -> [StoreValue] {
        let cells = row.makeRandomAccess()
        var values: [StoreValue] = []
        values.reserveCapacity(table.columns.count)
        for (index, column) in table.columns.enumerated() {
            let cell = cells[index]
            switch column.kind {
            case .integer: values.append(try cell.decode(Int64?.self).map { .integer($0) } ?? .null)
            case .smallint: values.append(try cell.decode(Int16?.self).map { .integer(Int64($0)) } ?? .null)
            case .boolean: values.append(try cell.decode(Bool?.self).map { .integer($0 ? 1 : 0) } ?? .null)
            case .real: values.append(try cell.decode(Double?.self).map { .real($0) } ?? .null)
            case .text: values.append(try cell.decode(String?.self).map { .text($0) } ?? .null)
            case .blob: values.append(try cell.decode(ByteBuffer?.self).map { .blob(Array($0.readableBytesView)) } ?? .null)
            }
        }
        return values
    }

    /// The bindings of `values`, of `kinds`.
    static func bind(_ values: some Sequence<StoreValue>, kinds: some Sequence<StoreColumnKind>, into bindings: inout PostgresBindings) {
        for (value, kind) in zip(values, kinds) {
            switch (value, kind) {
            case (.null, _): bindings.appendNull()
            case (.integer(let number), .boolean): bindings.append(number != 0)
            case (.integer(let number), .smallint): bindings.append(Int16(truncatingIfNeeded: number))
            case (.integer(let number), .real): bindings.append(Double(number))
            case (.integer(let number), _): bindings.append(number)
            case (.real(let number), _): bindings.append(number)
            case (.text(let text), .blob): bindings.append(ByteBuffer(bytes: Array(text.utf8)))
            case (.text(let text), _): bindings.append(text)
            case (.blob(let bytes), _): bindings.append(ByteBuffer(bytes: bytes))
            }
        }
    }
}

/// A PostgreSQL store's tables read in one `REPEATABLE READ` snapshot for `store migrate`.
package final class PostgresTableReader: StoreTableReader {
    let connection: PostgresTableConnection

    /// Opens the store `url` names; `missingStore` when the database has none.
    package init(url: PostgresURL) async throws(StoreError) {
        connection = try await PostgresTableConnection(url: url, create: false, begin: ["BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"])
    }

    /// - Complexity: O(log n + pageRows) through the primary key.
    package func rows(of table: StoreTable, after: [StoreValue]?) async throws(StoreError) -> [[StoreValue]] {
        let columns = table.columns.map(\.name).joined(separator: ", ")
        let key = table.key
        var condition = ""
        var bindings = PostgresBindings()
        if let after {
            let marks = (1...key.count).map { "$\($0)" }
            condition = key.count == 1 ? " WHERE \(key[0]) > $1" : " WHERE (\(key.joined(separator: ", "))) > (\(marks.joined(separator: ", ")))"
            let keyKinds = table.keyIndexes.map { table.columns[$0].kind }
            PostgresTableConnection.bind(after, kinds: keyKinds, into: &bindings)
        }
        let sql = "SELECT \(columns) FROM \(table.name)\(condition) ORDER BY \(key.joined(separator: ", ")) LIMIT \(table.pageRows)"
        return try await connection.run(writing: false) { connection, logger in
            var result: [[StoreValue]] = []
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger) {
                result.append(try PostgresTableConnection.values(of: row, table))
            }
            return result
        }
    }

    package func close() async { try? await connection.finish("ROLLBACK", ignoringErrors: true) }
}

/// Loads rows into a PostgreSQL store in one transaction; the schema is created first when the database has none.
/// The drawing table is locked (`SHARE ROW EXCLUSIVE`) for the whole load, so no drawing is added meanwhile.
package final class PostgresTableWriter: StoreTableWriter {
    let connection: PostgresTableConnection

    package init(url: PostgresURL) async throws(StoreError) {
        connection = try await PostgresTableConnection(url: url, create: true, begin: ["BEGIN", "LOCK TABLE drawing IN SHARE ROW EXCLUSIVE MODE"])
    }

    package func drawingCount() async throws(StoreError) -> Int {
        try await connection.run(writing: false) { connection, logger in
            var count = 0
            for try await (value) in try await connection.query("SELECT count(*) FROM drawing", logger: logger).decode(Int.self) { count = value }
            return count
        }
    }

    /// - Complexity: one multi-row `INSERT` of `rows.count` rows.
    package func insert(_ rows: [[StoreValue]], into table: StoreTable) async throws(StoreError) {
        if rows.isEmpty { return }
        let width = table.columns.count
        var bindings = PostgresBindings(capacity: rows.count * width)
        var tuples: [String] = []
        tuples.reserveCapacity(rows.count)
        for (index, row) in rows.enumerated() {
            tuples.append("(" + (0..<width).map { "$\(index * width + $0 + 1)" }.joined(separator: ", ") + ")")
            PostgresTableConnection.bind(row, kinds: table.columns.map(\.kind), into: &bindings)
        }
        let sql = "INSERT INTO \(table.name) (\(table.columns.map(\.name).joined(separator: ", "))) VALUES "
            + tuples.joined(separator: ", ") + (table.skipsExistingRows ? " ON CONFLICT DO NOTHING" : "")
            + (table.replacesExistingRows ? " ON CONFLICT (\(table.key.joined(separator: ", "))) DO UPDATE SET "
               + table.valueColumns.map { "\($0) = excluded.\($0)" }.joined(separator: ", ") : "")
        _ = try await connection.run(writing: true) { connection, logger in
            try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger)
        }
    }

    /// Sets each identity sequence past the largest copied id, then commits.
    package func commit() async throws(StoreError) {
        try await connection.run(writing: true) { connection, logger in
            for table in StoreTables.all where table.identity {
                try await connection.query(PostgresQuery(unsafeSQL: """
                    SELECT setval(pg_get_serial_sequence('\(table.name.lowercased())', 'id'), coalesce(max(id), 0) + 1, false) FROM \(table.name)
                    """), logger: logger)
            }
        }
        try await connection.finish("COMMIT", ignoringErrors: false)
    }

    package func rollBack() async { try? await connection.finish("ROLLBACK", ignoringErrors: true) }
}
