/// A problem with an input file: missing, unreadable, or not in the expected format.
public struct FormatError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What sort of problem it is; the CLI maps it to an exit code.
    public enum Kind: Hashable, Sendable {
        /// The file does not exist.
        case missingInput
        /// The file exists but could not be read.
        case unreadable
        /// The file was read but is not in the expected format.
        case malformed
        /// The file is fine but needs an option the user did not give (e.g. `--zoom` for latLng).
        case usage
    }

    /// What sort of problem it is.
    public var kind: Kind
    /// The file name as the user gave it (`-` for stdin).
    public var source: String
    /// The 1-based line, when known.
    public var line: Int?
    /// The JSON path of the offending value (`$.features[3].geometry`), when known.
    public var path: String?
    /// What is wrong, in the user's words.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, source: String, line: Int? = nil, path: String? = nil, message: String) {
        self.kind = kind
        self.source = source
        self.line = line
        self.path = path
        self.message = message
    }

    /// `FILE:LINE: message`, `FILE: $.path: message`, or `FILE: message`.
    public var description: String {
        var text = source
        if let line { text += ":\(line)" }
        text += ": "
        if let path { text += "\(path): " }
        return text + message
    }
}
