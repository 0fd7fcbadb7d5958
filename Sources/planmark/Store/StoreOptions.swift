import ArgumentParser
import PlanMarkFrontDoor
import PlanMarkStore

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
    var location: StoreLocation { StoreLocation(option: store) }

    /// Opens the store (creating it only when `create`), or exits with the error's code.
    func open(create: Bool = false) async throws -> any AnnotationStore {
        do {
            return try await StoreOpener.open(location, create: create).store
        } catch {
            throw fail(error)
        }
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
