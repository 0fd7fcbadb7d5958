/// Why a BCF file could not be read or written. Each case has a stable `code`; the front doors map them (the CLI to exit
/// 65 for a file it cannot take, the service to 422 or 500).
public enum BCFError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not a zip, or a zip without `bcf.version`.
    case notBCF(String)
    /// A `bcf.version` naming a version PlanMark does not read.
    case unsupportedVersion(String)
    /// Over a limit of `BCFLimits` (bytes, entries, expanded size, compression ratio): a zip bomb, or far more than
    /// a punch list.
    case tooLarge(String)
    /// An entry whose path leaves the zip's folder (`..`, an absolute path, a backslash, a drive) or is not UTF-8.
    case unsafePath(String)
    /// XML with a document type declaration (where entities are declared: entity expansion, external entities), or
    /// not in UTF-8.
    case unsafeXML(file: String, detail: String)
    /// XML that does not parse, or misses what the schema requires.
    case invalidXML(file: String, detail: String)
    /// A topic PlanMark cannot store (a bad Guid, a field it refuses).
    case invalidTopic(guid: String, detail: String)
    /// The file could not be made.
    case writeFailed(String)

    /// The stable code.
    public var code: String {
        switch self {
        case .notBCF: return "not-bcf"
        case .unsupportedVersion: return "unsupported-bcf-version"
        case .tooLarge: return "bcf-too-large"
        case .unsafePath: return "bcf-unsafe-path"
        case .unsafeXML: return "bcf-unsafe-xml"
        case .invalidXML: return "bcf-invalid-xml"
        case .invalidTopic: return "bcf-invalid-topic"
        case .writeFailed: return "bcf-write-failed"
        }
    }

    /// One line, without the place.
    public var description: String {
        switch self {
        case .notBCF(let detail): return "not a BCF file: \(detail)"
        case .unsupportedVersion(let version): return "BCF version \"\(version)\" is not read (2.0, 2.1 and 3.0 are)"
        case .tooLarge(let detail): return "refused: \(detail)"
        case .unsafePath(let path): return "refused: the zip entry \"\(path)\" leaves the file's folder"
        case .unsafeXML(let file, let detail): return "refused: \(file): \(detail)"
        case .invalidXML(let file, let detail): return "\(file): \(detail)"
        case .invalidTopic(let guid, let detail): return "topic \(guid): \(detail)"
        case .writeFailed(let detail): return "the BCF file could not be made: \(detail)"
        }
    }
}
