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
    /// For text that cannot be kept exactly as read (invalid UTF-8, a NUL, a duplicate key, ...): which
    /// problem it is, so callers can tell these apart without reading the message. Nil for other errors.
    public var problem: TextProblem?

    /// Creates an error.
    public init(_ kind: Kind, source: String, line: Int? = nil, path: String? = nil, message: String) {
        self.kind = kind
        self.source = source
        self.line = line
        self.path = path
        self.message = message
        problem = nil
    }

    /// A `.malformed` error for text that cannot be kept as read. In CSV, `field` names the column
    /// (`FILE:LINE: invalid UTF-8 in field "note"`); in JSON, `path` names the value
    /// (`FILE: $.features[3].properties.name: invalid UTF-8`).
    public init(_ problem: TextProblem, source: String, line: Int? = nil, path: String? = nil, field: String? = nil) {
        kind = .malformed
        self.source = source
        self.line = line
        self.path = path
        self.problem = problem
        message = field.map { problem.description + " in field \"\($0)\"" } ?? problem.description
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

/// Text that PlanMark cannot keep exactly as it was read, so it refuses it instead of altering it.
public enum TextProblem: Hashable, Sendable, CustomStringConvertible {
    /// Bytes that are not UTF-8 (never replaced by U+FFFD).
    case invalidUTF8
    /// A JSON `\u` escape of a UTF-16 surrogate without its partner (the code unit given).
    case loneSurrogate(UInt16)
    /// A NUL character (U+0000): the store and the logs cannot carry it.
    case nulCharacter
    /// A control character in an id (C0 other than tab, or DEL).
    case controlCharacter(UInt8)
    /// A JSON object names the same key twice (the key given).
    case duplicateKey(String)

    /// The problem in a few words: `invalid UTF-8`, `lone surrogate \uD800`, `NUL character`,
    /// `control character U+0007`, `duplicate key "name"`.
    public var description: String {
        switch self {
        case .invalidUTF8: return "invalid UTF-8"
        case .loneSurrogate(let unit): return "lone surrogate \\u" + hex(UInt32(unit))
        case .nulCharacter: return "NUL character"
        case .controlCharacter(let byte): return "control character U+" + hex(UInt32(byte))
        case .duplicateKey(let key): return "duplicate key " + JSONString.quoted(key)
        }
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// Checks on text fields, shared by the CSV and JSON readers.
enum TextCheck {
    /// The first problem of `bytes` as a text field: invalid UTF-8, a NUL, or (with `isID`) a control
    /// character other than tab; nil when the bytes can be kept as they are.
    /// - Complexity: O(n) for n bytes.
    static func problem(_ bytes: UnsafeBufferPointer<UInt8>, isID: Bool) -> TextProblem? {
        var ascii = true
        for byte in bytes {
            if byte == 0 { return .nulCharacter }
            if isID && ((byte < 0x20 && byte != 0x09) || byte == 0x7F) { return .controlCharacter(byte) }
            if byte >= 0x80 { ascii = false }
        }
        if !ascii && String(validating: bytes, as: UTF8.self) == nil { return .invalidUTF8 }
        return nil
    }

    /// The first problem of an already decoded id: a NUL or another control character but tab.
    /// - Complexity: O(n) for n bytes.
    static func idProblem(_ text: String) -> TextProblem? {
        for byte in text.utf8 {
            if byte == 0 { return .nulCharacter }
            if (byte < 0x20 && byte != 0x09) || byte == 0x7F { return .controlCharacter(byte) }
        }
        return nil
    }
}
