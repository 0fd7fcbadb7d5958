import ArgumentParser
import PlanMarkStore
import PlanMarkSQLite
#if PostgreSQL
import Logging
import PlanMarkPostgres
#endif

#if canImport(Glibc)
import Glibc
#endif

/// The `--store STORE` option every store command takes (also accepted before the command's name): an SQLite file,
/// or a PostgreSQL database as `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE` (or `postgresql://`).
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The store: an SQLite file, or postgres://USER@HOST[:PORT]/DATABASE (password from $PGPASSWORD or the URL; never printed) "
            + "(default: $PLANMARK_STORE, else planmark.sqlite in the current folder).",
        valueName: "store"))
    var store: String?

    /// The store's path or URL: `--store`, else `$PLANMARK_STORE`, else `planmark.sqlite`.
    var path: String { location.text }

    /// The store's path or URL and where it was given (`--store` or `$PLANMARK_STORE`), for messages.
    var location: (text: String, source: String) {
        if let store { return (store, "--store") }
        if let value = getenv("PLANMARK_STORE"), value.pointee != 0 { return (String(cString: value), "$PLANMARK_STORE") }
        return ("planmark.sqlite", "--store")
    }

    /// Opens the store (creating it only when `create`), or exits with the error's code.
    func open(create: Bool = false) async throws -> any AnnotationStore {
        let (text, source) = location
        do {
            return try await Self.open(text, source: source, create: create)
        } catch {
            throw fail(error)
        }
    }

    /// Opens the store `text` names: a PostgreSQL store for a `postgres://` or `postgresql://` URL (a URL that cannot
    /// be used is `invalidArgument` naming `source` and the part, never the password), else the SQLite file.
    static func open(_ text: String, source: String, create: Bool) async throws(StoreError) -> any AnnotationStore {
        if isPostgres(text) {
            #if PostgreSQL
            return try await PostgresStore(url: try postgresURL(text, source: source), create: create, logger: logger)
            #else
            throw .invalidArgument("\(source): this planmark was built without PostgreSQL support (the PostgreSQL package trait)")
            #endif
        }
        return try SQLiteStore(path: text, create: create)
    }

    #if PostgreSQL
    /// The PostgreSQL store's log (stderr): `$PLANMARK_LOG_LEVEL` (`debug`, `info`, `notice`, ...) when it names a level,
    /// else the store's default (notice and above).
    static var logger: Logger {
        var logger = Logger(label: "planmark.postgres")
        logger.logLevel = .notice
        if let value = getenv("PLANMARK_LOG_LEVEL"), let level = Logger.Level(rawValue: String(cString: value)) { logger.logLevel = level }
        return logger
    }

    /// `text` parsed, or `invalidArgument` naming `source` and the part that is wrong.
    static func postgresURL(_ text: String, source: String) throws(StoreError) -> PostgresURL {
        do {
            return try PostgresURL(text)
        } catch {
            throw .invalidArgument("\(source): \(error.message)")
        }
    }
    #endif

    /// Whether `text` names a PostgreSQL store (as `PostgresURL.isPostgres`, which a build without PostgreSQL lacks).
    static func isPostgres(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }
}

/// Options of commands that change markers.
struct AuthorOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Who makes the change (default: $PLANMARK_AUTHOR, else $USER).", valueName: "who"))
    var author: String?

    @Option(name: .customLong("as"), help: ArgumentHelp(
        "The user (planmark user add) who makes the change, recorded as its author (default: $PLANMARK_USER); an unknown user is refused.",
        valueName: "user"))
    var user: String?

    /// The author to record in `store`: the user `--as` (else `$PLANMARK_USER`) names, who must be one of the store's
    /// users (`unknownUser`, exit 66), and whom `--author` may not contradict (exit 64); without either, `resolved`.
    func resolved(in store: any AnnotationStore) async throws -> String? {
        var name = user
        if name == nil, let value = getenv("PLANMARK_USER"), value.pointee != 0 { name = String(cString: value) }
        guard let name else { return resolved }
        if let author, author != name {
            throw CommandFailure(place: "--author", message: "\"\(author)\" is not the user \"\(name)\" of --as or $PLANMARK_USER; give one of them",
                                 code: Exit.usage)
        }
        return try await store.user(named: name).name
    }

    /// `--author`, else `$PLANMARK_AUTHOR`, else `$USER`, else nil.
    var resolved: String? {
        if let author { return author }
        for name in ["PLANMARK_AUTHOR", "USER"] {
            if let value = getenv(name), value.pointee != 0 { return String(cString: value) }
        }
        return nil
    }
}
