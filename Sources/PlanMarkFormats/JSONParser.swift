/// A JSON parser over bytes (RFC 8259), with line numbers in its errors and a depth limit.
///
/// What was read is what is kept, or the text is refused: strings and keys must be UTF-8 (never
/// replaced by U+FFFD), `\u` escapes must not leave a surrogate unpaired or encode NUL (`\u0000`),
/// and an object must not name a key twice. These errors name the JSON path of the value
/// (`$.features[3].properties.name`) as well as the line. Numbers follow JSON's grammar and are
/// rounded correctly (`DecimalParser`); the source text of a number under a key `id` can be kept
/// (`parseDocument`), so an id written `1.50` stays `1.50`.
///
/// It can also walk a top-level object's `features` array one element at a time
/// (`parseFeatureCollection`), so a large GeoJSON file never becomes one big tree.
public struct JSONParser {
    /// The error of a parse: the line and what was expected.
    public struct Failure: Error, Sendable {
        /// The 1-based line of the problem.
        public var line: Int
        /// What is wrong.
        public var message: String
        /// The JSON path of the offending value (of the object, for a problem in a key) when the
        /// problem is in text that was read correctly but cannot be kept (`problem`); nil for syntax errors.
        public var path: String?
        /// Which text problem it is, for those errors; nil for syntax errors.
        public var problem: TextProblem?

        /// The same error as a `FormatError` of `source`: `FILE: $.path: what` when a path is known,
        /// else `FILE:LINE: what`.
        public func formatError(source: String) -> FormatError {
            var error = FormatError(.malformed, source: source, line: path == nil ? line : nil, path: path, message: message)
            error.problem = problem
            return error
        }
    }

    /// A parsed document with the source text of its numeric ids.
    public struct Document: Sendable {
        /// The value.
        public var root: JSONValue
        /// The exact source text of every number that is the value of a member named `id`, by the
        /// member's JSON path (`$.features[3].id` -> `1.50`).
        public var idNumberTexts: [String: String]
    }

    /// One step of a JSON path.
    enum PathComponent {
        case key(String)
        case index(Int)
    }

    /// Nesting deeper than this is refused (a hostile file cannot exhaust the stack).
    public static let maxDepth = 256
    /// Objects with more members than this check duplicate keys with a hash set instead of a scan.
    static let linearKeyCheckLimit = 16

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var depth = 0
    /// The path of the value being parsed: the member key or element index at each open level.
    var path: [PathComponent] = []
    /// When non-nil, numbers under a key `id` are recorded here with their source text.
    var idNumberTexts: [String: String]?
    /// The bytes of the last number parsed.
    var lastNumber: Range<Int> = 0..<0

    /// Creates a parser over `bytes`, which must outlive it.
    public init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses one complete JSON document.
    /// - Complexity: O(n) for n bytes.
    public static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        try parse(bytes, keepingIDTexts: false).root
    }

    /// Parses one complete JSON document, keeping the source text of numeric ids.
    /// - Complexity: O(n) for n bytes.
    public static func parseDocument(_ bytes: [UInt8]) throws(Failure) -> Document {
        try parse(bytes, keepingIDTexts: true)
    }

    static func parse(_ bytes: [UInt8], keepingIDTexts: Bool) throws(Failure) -> Document {
        let result: Result<Document, Failure> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            if keepingIDTexts { parser.idNumberTexts = [:] }
            do throws(Failure) {
                parser.skipByteOrderMark()
                let value = try parser.parseValue()
                parser.skipWhitespace()
                if parser.index != buffer.count { throw parser.fail("unexpected text after the JSON value") }
                return .success(Document(root: value, idNumberTexts: parser.idNumberTexts ?? [:]))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses a top-level object, handing each element of its `features` array to `onFeature`
    /// (with its index) as soon as it is parsed; returns the other members.
    /// - Complexity: O(n) for n bytes; memory O(largest feature).
    public static func parseFeatureCollection(
        _ bytes: [UInt8], onFeature: (Int, JSONValue) throws -> Void
    ) throws -> [(String, JSONValue)] {
        try parseFeatureCollection(bytes) { index, feature, _ in try onFeature(index, feature) }
    }

    /// Parses a top-level object, handing each element of its `features` array to `onFeature` as soon
    /// as it is parsed, with its index and the source text of the numeric ids inside it (by JSON path,
    /// as in `Document.idNumberTexts`); returns the other members (`features` with an empty array).
    /// A `Failure` is thrown as is; errors of `onFeature` pass through.
    /// - Complexity: O(n) for n bytes; memory O(largest feature).
    public static func parseFeatureCollection(
        _ bytes: [UInt8], onFeature: (Int, JSONValue, [String: String]) throws -> Void
    ) throws -> [(String, JSONValue)] {
        try bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            parser.idNumberTexts = [:]
            parser.skipByteOrderMark()
            parser.skipWhitespace()
            guard parser.peek() == UInt8(ascii: "{") else { throw parser.fail("expected a JSON object") }
            parser.index += 1
            parser.depth = 1
            var members: [(String, JSONValue)] = []
            var keys: Set<String> = []
            parser.path = [.key("")]
            parser.skipWhitespace()
            if parser.peek() == UInt8(ascii: "}") {
                parser.index += 1
            } else {
                while true {
                    parser.skipWhitespace()
                    let key = try parser.parseString(isKey: true)
                    guard keys.insert(key).inserted else { throw parser.textFailure(.duplicateKey(key), objectPath: true) }
                    parser.path[0] = .key(key)
                    parser.skipWhitespace()
                    try parser.expect(UInt8(ascii: ":"))
                    parser.skipWhitespace()
                    if key == "features" && parser.peek() == UInt8(ascii: "[") {
                        parser.index += 1
                        parser.depth = 2
                        parser.path.append(.index(0))
                        parser.skipWhitespace()
                        var count = 0
                        if parser.peek() == UInt8(ascii: "]") {
                            parser.index += 1
                        } else {
                            while true {
                                parser.skipWhitespace()
                                parser.path[1] = .index(count)
                                let feature = try parser.parseValue()
                                try onFeature(count, feature, parser.idNumberTexts ?? [:])
                                parser.idNumberTexts = [:]
                                count += 1
                                parser.skipWhitespace()
                                if parser.peek() == UInt8(ascii: ",") { parser.index += 1; continue }
                                try parser.expect(UInt8(ascii: "]"))
                                break
                            }
                        }
                        parser.path.removeLast()
                        parser.depth = 1
                        members.append((key, .array([])))
                    } else {
                        members.append((key, try parser.parseValue()))
                    }
                    parser.skipWhitespace()
                    if parser.peek() == UInt8(ascii: ",") { parser.index += 1; continue }
                    try parser.expect(UInt8(ascii: "}"))
                    break
                }
            }
            parser.skipWhitespace()
            if parser.index != buffer.count { throw parser.fail("unexpected text after the JSON value") }
            return members
        }
    }

    /// The current path as text (`$.features[3].properties["a b"]`), or the path of the enclosing
    /// object when `objectPath`.
    /// - Complexity: O(depth).
    func pathText(objectPath: Bool = false) -> String {
        var text = "$"
        for component in objectPath ? path.dropLast() : path[...] {
            switch component {
            case .index(let i): text += "[\(i)]"
            case .key(let key): text += Self.isIdentifier(key) ? "." + key : "[" + JSONString.quoted(key) + "]"
            }
        }
        return text
    }

    static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(first >= 48 && first <= 57) else { return false }
        return key.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || $0 == 95 }
    }

    /// A failure for text that cannot be kept, naming the path.
    func textFailure(_ problem: TextProblem, objectPath: Bool, inKey: Bool = false) -> Failure {
        Failure(line: line(at: index), message: problem.description + (inKey ? " in a key" : ""),
                path: pathText(objectPath: objectPath), problem: problem)
    }

    /// The 1-based line of byte `offset`.
    func line(at offset: Int) -> Int {
        var line = 1
        for i in 0..<min(offset, bytes.count) where bytes[i] == 10 { line += 1 }
        return line
    }

    func fail(_ message: String) -> Failure {
        Failure(line: line(at: index), message: message, path: nil, problem: nil)
    }

    @inline(__always) func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipByteOrderMark() {
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { index = 3 }
    }

    @inline(__always) mutating func skipWhitespace() {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 32 || byte == 10 || byte == 13 || byte == 9 { index += 1 } else { break }
        }
    }

    mutating func expect(_ byte: UInt8) throws(Failure) {
        guard peek() == byte else {
            if let found = peek() {
                throw fail("expected '\(Character(Unicode.Scalar(byte)))', found \(Self.describe(found))")
            }
            throw fail("expected '\(Character(Unicode.Scalar(byte)))', found the end of the file")
        }
        index += 1
    }

    mutating func parseValue() throws(Failure) -> JSONValue {
        skipWhitespace()
        guard let byte = peek() else { throw fail("unexpected end of the file") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString(isKey: false))
        case UInt8(ascii: "t"): try parseLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try parseLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try parseLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw fail("unexpected character \(Self.describe(byte))")
        }
    }

    /// A byte for an error message: `'x'` for printable ASCII, else `byte 0xFF` (a NUL, a control
    /// character or part of a UTF-8 sequence is never copied into a message).
    static func describe(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x" + (hex.count < 2 ? "0" : "") + hex
    }

    mutating func parseLiteral(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw fail("unexpected end of the file") }
        for k in 0..<count where bytes[index + k] != word.utf8Start[k] {
            throw fail("invalid literal")
        }
        index += count
    }

    mutating func parseNumber() throws(Failure) -> Double {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), first >= 48 && first <= 57 else { throw fail("invalid number") }
        if first == 48 {
            index += 1
        } else {
            while let b = peek(), b >= 48 && b <= 57 { index += 1 }
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard let b = peek(), b >= 48 && b <= 57 else { throw fail("invalid number") }
            while let b = peek(), b >= 48 && b <= 57 { index += 1 }
        }
        if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            index += 1
            if let s = peek(), s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { index += 1 }
            guard let b = peek(), b >= 48 && b <= 57 else { throw fail("invalid number") }
            while let b = peek(), b >= 48 && b <= 57 { index += 1 }
        }
        lastNumber = start..<index
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
        guard let value = DecimalParser.parse(slice) else { throw fail("invalid number") }
        return value
    }

    /// Parses a string (a member's key when `isKey`: its errors name the object).
    /// - Complexity: O(n) for the string's n bytes.
    mutating func parseString(isKey: Bool) throws(Failure) -> String {
        guard peek() == UInt8(ascii: "\"") else { throw fail("expected a string") }
        index += 1
        let start = index
        var ascii = true
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
                let text = ascii ? String(decoding: raw, as: UTF8.self) : String(validating: raw, as: UTF8.self)
                guard let text else { throw textFailure(.invalidUTF8, objectPath: isKey, inKey: isKey) }
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        var scalars = Array(bytes[start..<index])
        while true {
            guard let byte = peek() else { throw fail("unterminated string") }
            if byte == UInt8(ascii: "\"") { index += 1; break }
            if byte < 0x20 { throw fail("control character in a string") }
            if byte != UInt8(ascii: "\\") {
                scalars.append(byte)
                index += 1
                continue
            }
            index += 1
            guard let escape = peek() else { throw fail("unterminated string") }
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append(0x22)
            case UInt8(ascii: "\\"): scalars.append(0x5C)
            case UInt8(ascii: "/"): scalars.append(0x2F)
            case UInt8(ascii: "b"): scalars.append(0x08)
            case UInt8(ascii: "f"): scalars.append(0x0C)
            case UInt8(ascii: "n"): scalars.append(0x0A)
            case UInt8(ascii: "r"): scalars.append(0x0D)
            case UInt8(ascii: "t"): scalars.append(0x09)
            case UInt8(ascii: "u"):
                var code = try parseHex4()
                if code == 0 { throw textFailure(.nulCharacter, objectPath: isKey, inKey: isKey) }
                if code >= 0xDC00 && code < 0xE000 {
                    throw textFailure(.loneSurrogate(UInt16(code)), objectPath: isKey, inKey: isKey)
                }
                if code >= 0xD800 && code < 0xDC00 {
                    // A high surrogate must be followed at once by an escaped low one.
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw textFailure(.loneSurrogate(UInt16(code)), objectPath: isKey, inKey: isKey)
                    }
                    index += 2
                    let low = try parseHex4()
                    guard low >= 0xDC00 && low < 0xE000 else {
                        throw textFailure(.loneSurrogate(UInt16(code)), objectPath: isKey, inKey: isKey)
                    }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                // Not a surrogate, so a valid scalar.
                guard let scalar = Unicode.Scalar(code) else { throw fail("invalid \\u escape") }
                scalars.append(contentsOf: UTF8.encode(scalar)!)
            default:
                throw fail("invalid escape in a string")
            }
        }
        // Raw bytes and escapes together: an escape always gives a whole UTF-8 sequence, so a broken
        // raw sequence next to one stays broken and is caught here.
        guard let text = String(validating: scalars, as: UTF8.self) else {
            throw textFailure(.invalidUTF8, objectPath: isKey, inKey: isKey)
        }
        return text
    }

    mutating func parseHex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("invalid \\u escape") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let digit: UInt32
            switch b {
            case 48...57: digit = UInt32(b - 48)
            case 65...70: digit = UInt32(b - 55)
            case 97...102: digit = UInt32(b - 87)
            default: throw fail("invalid \\u escape")
            }
            code = code * 16 + digit
            index += 1
        }
        return code
    }

    mutating func parseArray() throws(Failure) -> JSONValue {
        index += 1
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maxDepth { throw fail("nesting deeper than \(Self.maxDepth) levels") }
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { index += 1; return .array(elements) }
        path.append(.index(0))
        defer { path.removeLast() }
        while true {
            path[path.count - 1] = .index(elements.count)
            elements.append(try parseValue())
            skipWhitespace()
            if peek() == UInt8(ascii: ",") { index += 1; continue }
            try expect(UInt8(ascii: "]"))
            return .array(elements)
        }
    }

    mutating func parseObject() throws(Failure) -> JSONValue {
        index += 1
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maxDepth { throw fail("nesting deeper than \(Self.maxDepth) levels") }
        var members: [(String, JSONValue)] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { index += 1; return .object(members) }
        path.append(.key(""))
        defer { path.removeLast() }
        var keys: Set<String> = []
        while true {
            skipWhitespace()
            let key = try parseString(isKey: true)
            // Duplicate keys: a scan while the object is small, a hash set beyond.
            if members.count < Self.linearKeyCheckLimit {
                if members.contains(where: { $0.0 == key }) { throw textFailure(.duplicateKey(key), objectPath: true) }
            } else {
                if keys.isEmpty { keys = Set(members.map(\.0)) }
                guard keys.insert(key).inserted else { throw textFailure(.duplicateKey(key), objectPath: true) }
            }
            path[path.count - 1] = .key(key)
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            let value = try parseValue()
            if idNumberTexts != nil && key == "id", case .number = value {
                let memberPath = pathText()
                idNumberTexts?[memberPath] = String(decoding: UnsafeBufferPointer(rebasing: bytes[lastNumber]), as: UTF8.self)
            }
            members.append((key, value))
            skipWhitespace()
            if peek() == UInt8(ascii: ",") { index += 1; continue }
            try expect(UInt8(ascii: "}"))
            return .object(members)
        }
    }
}
