import ArgumentParser
import PlanMarkPostgres
import PlanMarkStore

#if canImport(Glibc)
import Glibc
#endif

/// The `--store PATH` option every store command takes (also accepted before the command's name).
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The store file (default: $PLANMARK_STORE, else planmark.sqlite in the current folder).", valueName: "path"))
    var store: String?

    /// The store's path: `--store`, else `$PLANMARK_STORE`, else `planmark.sqlite`.
    var path: String {
        if let store { return store }
        if let value = getenv("PLANMARK_STORE"), value.pointee != 0 { return String(cString: value) }
        return "planmark.sqlite"
    }

    /// Opens the store (creating it only when `create`), or exits with the error's code.
    func open(create: Bool = false) throws -> SQLiteStore {
        do {
            return try SQLiteStore(path: path, create: create)
        } catch {
            throw fail(error)
        }
    }
}

extension StoreOptions {
    /// Opens the store `path` names: a PostgreSQL store for a `postgres://` or `postgresql://` URL, else the SQLite
    /// file (minimal wiring for the commands that take either: `drawing add`, `import`).
    func openAny(create: Bool = false) throws -> any AnnotationStore {
        guard PostgresURL.isPostgres(path) else { return try open(create: create) }
        do {
            return try PostgresStore(urlText: path, create: create)
        } catch {
            throw fail(error)
        }
    }
}

/// Options of commands that change markers.
struct AuthorOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Who makes the change (default: $PLANMARK_AUTHOR, else $USER).", valueName: "who"))
    var author: String?

    /// `--author`, else `$PLANMARK_AUTHOR`, else `$USER`, else nil.
    var resolved: String? {
        if let author { return author }
        for name in ["PLANMARK_AUTHOR", "USER"] {
            if let value = getenv(name), value.pointee != 0 { return String(cString: value) }
        }
        return nil
    }
}
