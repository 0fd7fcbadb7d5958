/// A JSON parser over bytes (RFC 8259), with line numbers in its errors and a depth limit.
///
/// It can also walk a top-level object's `features` array one element at a time
/// (`parseFeatureCollection`), so a large GeoJSON file never becomes one big tree.
public struct JSONParser {
    /// The error of a parse: the byte offset and what was expected.
    public struct Failure: Error, Sendable {
        /// The 1-based line of the problem.
        public var line: Int
        /// What is wrong.
        public var message: String
    }

    /// Nesting deeper than this is refused (a hostile file cannot exhaust the stack).
    public static let maxDepth = 256

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var depth = 0

    /// Creates a parser over `bytes`, which must outlive it.
    public init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses one complete JSON document.
    /// - Complexity: O(n) for n bytes.
    public static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        let result: Result<JSONValue, Failure> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            do throws(Failure) {
                parser.skipByteOrderMark()
                let value = try parser.parseValue()
                parser.skipWhitespace()
                if parser.index != buffer.count { throw parser.fail("unexpected text after the JSON value") }
                return .success(value)
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
        try bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            parser.skipByteOrderMark()
            parser.skipWhitespace()
            guard parser.peek() == UInt8(ascii: "{") else { throw parser.fail("expected a JSON object") }
            parser.index += 1
            var members: [(String, JSONValue)] = []
            var sawFeatures = false
            parser.skipWhitespace()
            if parser.peek() == UInt8(ascii: "}") {
                parser.index += 1
            } else {
                while true {
                    parser.skipWhitespace()
                    let key = try parser.parseString()
                    parser.skipWhitespace()
                    try parser.expect(UInt8(ascii: ":"))
                    parser.skipWhitespace()
                    if key == "features" && parser.peek() == UInt8(ascii: "[") && !sawFeatures {
                        sawFeatures = true
                        parser.index += 1
                        parser.depth = 2
                        parser.skipWhitespace()
                        var count = 0
                        if parser.peek() == UInt8(ascii: "]") {
                            parser.index += 1
                        } else {
                            while true {
                                parser.skipWhitespace()
                                let feature = try parser.parseValue()
                                try onFeature(count, feature)
                                count += 1
                                parser.skipWhitespace()
                                if parser.peek() == UInt8(ascii: ",") { parser.index += 1; continue }
                                try parser.expect(UInt8(ascii: "]"))
                                break
                            }
                        }
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

    /// The 1-based line of byte `offset`.
    func line(at offset: Int) -> Int {
        var line = 1
        for i in 0..<min(offset, bytes.count) where bytes[i] == 10 { line += 1 }
        return line
    }

    func fail(_ message: String) -> Failure {
        Failure(line: line(at: index), message: message)
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
                throw fail("expected '\(Character(Unicode.Scalar(byte)))', found '\(Character(Unicode.Scalar(found)))'")
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
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try parseLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try parseLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try parseLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw fail("unexpected character '\(Character(Unicode.Scalar(byte)))'")
        }
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
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
        guard let value = DecimalParser.parse(slice) else { throw fail("invalid number") }
        return value
    }

    mutating func parseString() throws(Failure) -> String {
        guard peek() == UInt8(ascii: "\"") else { throw fail("expected a string") }
        index += 1
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
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
                if code >= 0xD800 && code < 0xDC00,
                   index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                    index += 2
                    let low = try parseHex4()
                    if low >= 0xDC00 && low < 0xE000 {
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        code = 0xFFFD
                    }
                }
                let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                throw fail("invalid escape in a string")
            }
        }
        return String(decoding: scalars, as: UTF8.self)
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
        while true {
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
        while true {
            skipWhitespace()
            let key = try parseString()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            members.append((key, try parseValue()))
            skipWhitespace()
            if peek() == UInt8(ascii: ",") { index += 1; continue }
            try expect(UInt8(ascii: "}"))
            return .object(members)
        }
    }
}
