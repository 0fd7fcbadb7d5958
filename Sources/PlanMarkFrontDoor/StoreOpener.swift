#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlanMarkSQLite
import PlanMarkStore
#if PostgreSQL
import Logging
import PlanMarkPostgres
#endif

/// Opens the store a `StoreLocation` names, for both front doors: a PostgreSQL store for a URL (one that cannot be used
/// is `invalidArgument` naming its source and the part, never the password), else the SQLite file.
public enum StoreOpener {
    /// How long an SQLite store waits for another writer by default, in seconds (`--busy-timeout`'s default).
    public static let defaultBusyTimeout = SQLiteStore.busyTimeout

    /// The store, and its name for messages and logs (a URL without its password).
    /// - Parameters:
    ///   - create: create the store when it is missing (SQLite) or empty (PostgreSQL).
    ///   - busyTimeout: how long an SQLite store waits for another writer, in seconds.
    ///   - logsToStderr: a PostgreSQL store logs to stderr at `$PLANMARK_LOG_LEVEL` (the CLI); the service keeps its own log.
    public static func open(_ location: StoreLocation, create: Bool, busyTimeout: Double = defaultBusyTimeout, logsToStderr: Bool = true)
        async throws(StoreError) -> (store: any AnnotationStore, name: String) {
        if location.isPostgres {
            #if PostgreSQL
            let url = try url(location)
            return (try await PostgresStore(url: url, create: create, logger: logsToStderr ? logger : nil), url.description)
            #else
            throw unsupported(location)
            #endif
        }
        return (try SQLiteStore(path: location.text, create: create, busyTimeout: busyTimeout), location.text)
    }

    /// The store's name for messages: a URL without its password.
    public static func name(_ location: StoreLocation) -> String {
        #if PostgreSQL
        if location.isPostgres, let url = try? PostgresURL(location.text) { return url.description }
        #endif
        return location.text
    }

    /// The store's tables as `store migrate` and `history verify` read them, row by row.
    package static func tableReader(_ location: StoreLocation) async throws(StoreError) -> any StoreTableReader {
        if location.isPostgres {
            #if PostgreSQL
            return try await PostgresTableReader(url: try url(location))
            #else
            throw unsupported(location)
            #endif
        }
        return try SQLiteTableReader(path: location.text)
    }

    /// An empty store's tables as `store migrate` writes them.
    package static func tableWriter(_ location: StoreLocation) async throws(StoreError) -> any StoreTableWriter {
        if location.isPostgres {
            #if PostgreSQL
            return try await PostgresTableWriter(url: try url(location))
            #else
            throw unsupported(location)
            #endif
        }
        return try SQLiteTableWriter(path: location.text)
    }

    /// A URL in a build without PostgreSQL.
    static func unsupported(_ location: StoreLocation) -> StoreError {
        .invalidArgument("\(location.source): this program was built without PostgreSQL support (the PostgreSQL package trait)")
    }

    #if PostgreSQL
    /// The location's URL, or `invalidArgument` naming its source and the part that is wrong (never the password).
    static func url(_ location: StoreLocation) throws(StoreError) -> PostgresURL {
        do { return try PostgresURL(location.text) } catch { throw .invalidArgument("\(location.source): \(error.message)") }
    }

    /// The PostgreSQL store's log (stderr): `$PLANMARK_LOG_LEVEL` (`debug`, `info`, `notice`, ...) when it names a level,
    /// else the store's default (notice and above).
    public static var logger: Logger {
        var logger = Logger(label: "planmark.postgres")
        logger.logLevel = .notice
        if let value = getenv("PLANMARK_LOG_LEVEL"), let level = Logger.Level(rawValue: String(cString: value)) { logger.logLevel = level }
        return logger
    }
    #endif
}
