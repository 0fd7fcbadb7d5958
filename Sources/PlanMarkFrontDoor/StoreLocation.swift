#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the store is, as both front doors are told it: `--store`, else `$PLANMARK_STORE`, else `planmark.sqlite` in the
/// current folder; an SQLite file, or a PostgreSQL database as `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE` (or
/// `postgresql://`). No postgres-nio here: a build without PostgreSQL still tells a URL from a path.
public struct StoreLocation: Hashable, Sendable {
    /// The path or URL.
    public var text: String
    /// Where it was given (`--store`, `$PLANMARK_STORE`), for messages.
    public var source: String

    /// The store when none is given.
    public static let defaultPath = "planmark.sqlite"

    /// `option` (`--store`), else `$PLANMARK_STORE` when set and not empty, else `defaultPath`.
    public init(option: String?) {
        if let option {
            self.init(text: option, source: "--store")
        } else if let value = getenv("PLANMARK_STORE"), value.pointee != 0 {
            self.init(text: String(cString: value), source: "$PLANMARK_STORE")
        } else {
            self.init(text: Self.defaultPath, source: "--store")
        }
    }

    /// A location given as `text` by `source`.
    public init(text: String, source: String) {
        self.text = text
        self.source = source
    }

    /// Whether it names a PostgreSQL database.
    public var isPostgres: Bool { Self.isPostgres(text) }

    /// Whether `text` names a PostgreSQL database: `postgres://` or `postgresql://`.
    public static func isPostgres(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }
}
