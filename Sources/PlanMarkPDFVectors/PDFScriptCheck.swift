import PlanMarkPDFCore

/// What `PDFScriptCheck` learnt of a script it let through.
public struct PDFScriptSummary: Hashable, Sendable {
    /// The page's width in points (its surface's `/width`).
    public var width: Double
    /// The page's height in points.
    public var height: Double
    /// The bytes the replay will decode at most: 4 a pixel of each image, and each compressed string's declared
    /// decompressed length.
    public var decodedBytes: Int

    /// A summary.
    public init(width: Double, height: Double, decodedBytes: Int) {
        self.width = width
        self.height = height
        self.decodedBytes = decodedBytes
    }
}

/// The check a page's CairoScript passes before it is replayed (in `planmark-pdf` before it answers, and in the
/// report before it interprets the child's answer): the script must be what cairo 1.16's script surface writes for a
/// page poppler draws, and no more.
///
/// The check reads the script as the interpreter's scanner does (`util/cairo-script/cairo-script-scanner.c`), but
/// stricter, so that both see the same tokens:
/// - ASCII only outside string literals (no binary tokens, no `#` escapes, no NUL), strings balanced as the scanner
///   balances them, base85 data (`<~ ~>`, `<| ~>`) of base85 characters only; no hex or base64 strings.
/// - Operators only from the list the script surface writes (`operators`): no file, loop, procedure or dictionary
///   operators (`run`, `write-to-png`, `loop`, `repeat`, `exec`, `{ }`, `dict`, `set` ...); names it calls otherwise
///   only the ones it defines (`s12`, `f3`, `sf3`); literal names only its keys (`literalNames`); `//` constants only
///   its enum names (`constants`).
/// - Fonts only of type 42 (a TrueType or OpenType font's bytes): cairo writes other fonts as type 3, glyph pictures
///   or procedures (`PDFScriptError.glyphFonts`).
/// - Arrays and dictionaries nested at most `maxDepth` deep; no operator inside them. `index` and `roll` only as cairo
///   writes them (`N index`, `N -1 roll`, N a whole number up to `maxStackDepth`).
/// - Exactly one page surface, of a positive finite size; every image's dictionary (written just before `image`) with
///   whole `/width` and `/height` of at most 32767; similar surfaces at most 32767 a side; MIME data only JPEG and
///   JPEG 2000. The images' pixels (4 bytes each) and the compressed strings' declared lengths add up to at most
///   `limits.maxDecodedBytes`.
public enum PDFScriptCheck {
    /// The operators cairo 1.16's script surface writes for a page (its type 3 font operators left out).
    public static let operators: Set<String> = [
        "a", "add-color-stop", "begin-patch", "c", "clip+", "context", "def", "dup", "end-patch", "exch", "fill+", "font",
        "g", "get", "h", "identity", "image", "index", "l", "linear", "m", "mask", "mesh", "n", "paint", "pattern", "pop",
        "radial", "record", "rectangle", "reset-clip", "rgb", "rgba", "roll", "scale", "set-antialias", "set-control-point",
        "set-corner-color", "set-dash", "set-extend", "set-fill-rule", "set-filter", "set-font-face", "set-font-matrix",
        "set-font-options", "set-line-cap", "set-line-join", "set-line-width", "set-matrix", "set-mime-data",
        "set-miter-limit", "set-operator", "set-scaled-font", "set-source", "set-tolerance", "show-glyphs",
        "show-text-glyphs", "similar", "stroke+", "subsurface", "surface", "transform", "undef",
    ]

    /// The literal names (dictionary keys and `get` keys) it writes, besides the names it defines.
    public static let literalNames: Set<String> = [
        "antialias", "content", "fallback-resolution", "flags", "format", "height", "hint-metrics", "hint-style", "index",
        "scaled-font", "source", "subpixel-order", "target", "type", "width",
    ]

    /// The `//` constants it writes: contents, operators, fill rules, antialiasing, line caps and joins, image
    /// formats, filters, extends, text directions and font options.
    public static let constants: Set<String> = [
        "COLOR", "ALPHA", "COLOR_ALPHA",
        "CLEAR", "SOURCE", "OVER", "IN", "OUT", "ATOP", "DEST", "DEST_OVER", "DEST_IN", "DEST_OUT", "DEST_ATOP", "XOR", "ADD",
        "SATURATE", "MULTIPLY", "SCREEN", "OVERLAY", "DARKEN", "LIGHTEN", "DODGE", "BURN", "HARD_LIGHT", "SOFT_LIGHT",
        "DIFFERENCE", "EXCLUSION", "HSL_HUE", "HSL_SATURATION", "HSL_COLOR", "HSL_LUMINOSITY",
        "WINDING", "EVEN_ODD",
        "ANTIALIAS_DEFAULT", "ANTIALIAS_NONE", "ANTIALIAS_GRAY", "ANTIALIAS_SUBPIXEL", "ANTIALIAS_FAST", "ANTIALIAS_GOOD",
        "ANTIALIAS_BEST",
        "LINE_CAP_BUTT", "LINE_CAP_ROUND", "LINE_CAP_SQUARE", "LINE_JOIN_MITER", "LINE_JOIN_ROUND", "LINE_JOIN_BEVEL",
        "ARGB32", "RGB24", "RGB30", "RGB16_565", "A8", "A1",
        "FILTER_FAST", "FILTER_GOOD", "FILTER_BEST", "FILTER_NEAREST", "FILTER_BILINEAR", "FILTER_GAUSSIAN",
        "EXTEND_NONE", "EXTEND_REPEAT", "EXTEND_REFLECT", "EXTEND_PAD",
        "FORWARD", "BACKWARD",
        "SUBPIXEL_ORDER_DEFAULT", "SUBPIXEL_ORDER_RGB", "SUBPIXEL_ORDER_BGR", "SUBPIXEL_ORDER_VRGB", "SUBPIXEL_ORDER_VBGR",
        "HINT_STYLE_DEFAULT", "HINT_STYLE_NONE", "HINT_STYLE_SLIGHT", "HINT_STYLE_MEDIUM", "HINT_STYLE_FULL",
        "HINT_METRICS_DEFAULT", "HINT_METRICS_OFF", "HINT_METRICS_ON",
    ]

    /// The longest side of an image or similar surface cairo makes.
    public static let maxSide = 32_767.0

    /// The deepest arrays and dictionaries may nest: cairo writes 2 levels (a glyph array in a text array), and the
    /// interpreter frees nested arrays recursively, so a deeper nesting could only be meant to run its stack out.
    public static let maxDepth = 8

    /// The MIME types the script surface attaches to images.
    static let mimeTypes: Set<[UInt8]> = [Array("image/jpeg".utf8), Array("image/jp2".utf8)]

    /// Checks `script` (see the type's documentation).
    /// - Throws: `PDFScriptError`: `tooLarge`, `unexpected`, `glyphFonts`, `tooMuchDecoded`, `pageSurfaces`, `pageSize`.
    /// - Complexity: O(n) for n bytes; memory O(nesting depth).
    public static func check(_ script: [UInt8], limits: PDFScriptLimits) throws(PDFScriptError) -> PDFScriptSummary {
        guard script.count <= limits.maxBytes else { throw .tooLarge(bytes: script.count, max: limits.maxBytes) }
        var scanner = Scanner(bytes: script)
        var state = State(maxDecoded: limits.maxDecodedBytes)
        while let token = try scanner.next() {
            try state.accept(token, line: scanner.line)
        }
        guard state.frames.isEmpty else { throw .unexpected(line: scanner.line, what: "an array or dictionary left open") }
        guard state.surfaces == 1, let page = state.page else { throw .pageSurfaces(count: state.surfaces) }
        return PDFScriptSummary(width: page.width, height: page.height, decodedBytes: state.decoded)
    }

    /// One token as the interpreter's scanner makes it.
    enum Token: Equatable {
        /// A number.
        case number(Double)
        /// `/name`.
        case literal(String)
        /// `//NAME`.
        case constant(String)
        /// An executable name: an operator or a defined name.
        case name(String)
        /// `( ... )`: its first bytes (up to 32).
        case string([UInt8])
        /// `<~ ~>` or `<| ~>` data; `declared` is the decompressed length of `<|` data.
        case data(declared: Int?)
        /// `[`.
        case arrayOpen
        /// `]`.
        case arrayClose
        /// `<<`.
        case dictOpen
        /// `>>`.
        case dictClose
    }

    /// The bytes to tokens.
    struct Scanner {
        let bytes: [UInt8]
        var index = 0
        /// The line of the current token, from 1.
        var line = 1

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        /// Bytes that end a name or number (the scanner's), besides those refused outside strings.
        /// - Complexity: O(1).
        static func isDelimiter(_ byte: UInt8) -> Bool {
            switch byte {
            case 0x00, 0x09, 0x0A, 0x0C, 0x0D, 0x20, UInt8(ascii: "%"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "/"),
                 UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: "<"):
                true
            default:
                false
            }
        }

        /// The next token, nil at the end.
        /// - Complexity: O(the token's bytes and the white space and comments before it).
        mutating func next() throws(PDFScriptError) -> Token? {
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case 0x0A:
                    line += 1
                    index += 1
                case 0x09, 0x0C, 0x0D, 0x20:
                    index += 1
                case UInt8(ascii: "%"):
                    while index < bytes.count && bytes[index] != 0x0A && bytes[index] != 0x0C { index += 1 }
                case UInt8(ascii: "("):
                    return try string()
                case UInt8(ascii: "["):
                    index += 1
                    return .arrayOpen
                case UInt8(ascii: "]"):
                    index += 1
                    return .arrayClose
                case UInt8(ascii: "<"):
                    return try angle()
                case 0x21...0x7E where byte != UInt8(ascii: "#") && byte != UInt8(ascii: "{") && byte != UInt8(ascii: "}")
                    && byte != UInt8(ascii: ")"):
                    return try word()
                default:
                    let what = byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}") ? "a procedure"
                        : "the byte 0x" + String(byte, radix: 16)
                    throw .unexpected(line: line, what: what)
                }
            }
            return nil
        }

        /// A string literal: nested parentheses balance, a backslash takes the byte after it (as the scanner's
        /// escapes do: none of them changes the nesting).
        /// - Complexity: O(the string's bytes).
        private mutating func string() throws(PDFScriptError) -> Token {
            let start = line
            var depth = 1
            var kept: [UInt8] = []
            index += 1
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == 0x0A { line += 1 }
                if byte == UInt8(ascii: "\\") {
                    guard index < bytes.count else { break }
                    if bytes[index] == 0x0A { line += 1 }
                    if kept.count < 32 { kept.append(bytes[index]) }
                    index += 1
                    continue
                }
                if byte == UInt8(ascii: "(") { depth += 1 }
                if byte == UInt8(ascii: ")") {
                    depth -= 1
                    if depth == 0 { return .string(kept) }
                }
                if kept.count < 32 { kept.append(byte) }
            }
            throw .unexpected(line: start, what: "a string that does not end")
        }

        /// `<<`, or base85 data.
        /// - Complexity: O(the data's bytes).
        private mutating func angle() throws(PDFScriptError) -> Token {
            guard index + 1 < bytes.count else { throw .unexpected(line: line, what: "a lone <") }
            switch bytes[index + 1] {
            case UInt8(ascii: "<"):
                index += 2
                return .dictOpen
            case UInt8(ascii: "~"), UInt8(ascii: "|"):
                let deflated = bytes[index + 1] == UInt8(ascii: "|")
                index += 2
                let start = index
                while index < bytes.count && bytes[index] != UInt8(ascii: "~") {
                    let byte = bytes[index]
                    guard (0x21...0x75).contains(byte) || byte == UInt8(ascii: "z") else {
                        throw .unexpected(line: line, what: "base85 data with the byte 0x" + String(byte, radix: 16))
                    }
                    index += 1
                }
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ">") else {
                    throw .unexpected(line: line, what: "base85 data that does not end with ~>")
                }
                let data = bytes[start..<index]
                index += 2
                guard deflated else { return .data(declared: nil) }
                guard let length = Self.leadingWord(data) else {
                    throw .unexpected(line: line, what: "compressed data without its length")
                }
                return .data(declared: length)
            default:
                throw .unexpected(line: line, what: "a hex or base64 string")
            }
        }

        /// The first 4 bytes of base85 `data`, big-endian (the decompressed length cairo writes before `<|` data); nil
        /// when there are not 4.
        /// - Complexity: O(1).
        static func leadingWord(_ data: ArraySlice<UInt8>) -> Int? {
            guard let first = data.first else { return nil }
            if first == UInt8(ascii: "z") { return 0 }
            guard data.count >= 5 else { return nil }
            var value = 0
            for byte in data.prefix(5) {
                guard byte != UInt8(ascii: "z") else { return nil }
                value = value * 85 + Int(byte - 0x21)
            }
            return value <= 0xFFFF_FFFF ? value : nil
        }

        /// A name, a literal, a constant or a number: bytes up to a delimiter (`//` at the start kept together).
        /// - Complexity: O(the word's bytes).
        private mutating func word() throws(PDFScriptError) -> Token {
            let start = index
            index += 1
            if bytes[start] == UInt8(ascii: "/"), index < bytes.count, bytes[index] == UInt8(ascii: "/") { index += 1 }
            while index < bytes.count && !Self.isDelimiter(bytes[index]) {
                let byte = bytes[index]
                guard (0x21...0x7E).contains(byte), byte != UInt8(ascii: "#") else {
                    throw .unexpected(line: line, what: "the byte 0x" + String(byte, radix: 16) + " in a name")
                }
                index += 1
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            if text.hasPrefix("//") { return .constant(String(text.dropFirst(2))) }
            if text.hasPrefix("/") { return .literal(String(text.dropFirst())) }
            if text == ">>" { return .dictClose }
            if let number = Self.number(text) { return .number(number) }
            return .name(text)
        }

        /// `text` as a number when it is one cairo writes: an optional sign, at most 12 digits, an optional point and
        /// at most 12 digits after it (no exponent, no radix); nil otherwise.
        /// - Complexity: O(length of `text`).
        static func number(_ text: String) -> Double? {
            var digits = Substring(text)
            if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
            let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            let whole = parts[0], fraction = parts.count > 1 ? parts[1] : nil
            guard whole.count <= 12, (fraction?.count ?? 0) <= 12, !(whole.isEmpty && (fraction?.isEmpty ?? true)),
                  fraction.map({ !$0.isEmpty }) ?? true,
                  whole.allSatisfy({ $0.isASCII && $0.isNumber }), fraction?.allSatisfy({ $0.isASCII && $0.isNumber }) ?? true else {
                return nil
            }
            return Double(text)
        }
    }

    /// An array or dictionary being read.
    struct Frame {
        /// A dictionary (`<<`), else an array (`[`).
        var isDictionary: Bool
        /// The key whose value comes next (dictionaries); nil when a key comes next.
        var key: String?
        /// Numbers given to the keys that matter.
        var width: Double?, height: Double?, type: Double?
    }

    /// What a closed dictionary said, for the operator after it.
    struct Closed: Equatable {
        var width: Double?, height: Double?, type: Double?
    }

    /// The tokens read so far, as far as the checks need them.
    struct State {
        let maxDecoded: Int
        var frames: [Frame] = []
        /// The last few tokens at the top level (not inside arrays or dictionaries), newest last.
        var recent: [Token] = []
        /// The dictionary closed just before the newest top-level token, when it was one.
        var closed: Closed?
        var decoded = 0
        var surfaces = 0
        var page: (width: Double, height: Double)?

        /// Adds `bytes` to what the replay decodes, or throws once it is over the limit.
        /// - Complexity: O(1).
        mutating func decode(_ bytes: Int) throws(PDFScriptError) {
            let (sum, overflow) = decoded.addingReportingOverflow(bytes)
            guard !overflow, sum <= maxDecoded else { throw .tooMuchDecoded(bytes: overflow ? Int.max : sum, max: maxDecoded) }
            decoded = sum
        }

        /// Takes one token.
        /// - Complexity: O(1) (a name's length).
        mutating func accept(_ token: Token, line: Int) throws(PDFScriptError) {
            if case .data(let declared?) = token { try decode(declared) }
            switch token {
            case .literal(let name):
                guard PDFScriptCheck.literalNames.contains(name) || PDFScriptCheck.isDefined(name) else {
                    throw .unexpected(line: line, what: "the name /\(name)")
                }
            case .constant(let name):
                guard PDFScriptCheck.constants.contains(name) else { throw .unexpected(line: line, what: "the constant //\(name)") }
            case .name(let name) where name == "dict" || name == "set":
                // cairo writes a type 3 font as `dict /type 3 set ...`.
                throw .glyphFonts
            case .name(let name):
                guard PDFScriptCheck.operators.contains(name) || PDFScriptCheck.isDefined(name) else {
                    throw .unexpected(line: line, what: "the operator \(name)")
                }
            default:
                break
            }
            if !frames.isEmpty {
                try acceptInside(token, line: line)
                return
            }
            switch token {
            case .arrayOpen:
                frames.append(Frame(isDictionary: false))
            case .dictOpen:
                frames.append(Frame(isDictionary: true))
            case .arrayClose, .dictClose:
                throw .unexpected(line: line, what: "a closing bracket without its opening one")
            case .name(let name):
                try operate(name, line: line)
                note(token)
            default:
                note(token)
            }
        }

        /// A token inside an array or dictionary: values only (no operators), dictionaries as key and value pairs.
        /// - Complexity: O(1).
        private mutating func acceptInside(_ token: Token, line: Int) throws(PDFScriptError) {
            switch token {
            case .arrayOpen, .dictOpen:
                guard frames.count < PDFScriptCheck.maxDepth else {
                    throw .unexpected(line: line, what: "arrays or dictionaries nested more than \(PDFScriptCheck.maxDepth) deep")
                }
                try value(nil, line: line)
                frames.append(Frame(isDictionary: token == .dictOpen))
                return
            case .arrayClose:
                guard let frame = frames.popLast(), !frame.isDictionary else { throw .unexpected(line: line, what: "] closing a dictionary") }
                if frames.isEmpty { note(.arrayClose) }
                return
            case .dictClose:
                guard let frame = frames.popLast(), frame.isDictionary else { throw .unexpected(line: line, what: ">> closing an array") }
                guard frame.key == nil else { throw .unexpected(line: line, what: "a dictionary key without a value") }
                if frames.isEmpty {
                    note(.dictClose)
                    closed = Closed(width: frame.width, height: frame.height, type: frame.type)
                }
                return
            case .name(let name) where !PDFScriptCheck.isDefined(name):
                throw .unexpected(line: line, what: "the operator \(name) inside an array or dictionary")
            default:
                break
            }
            guard frames[frames.count - 1].isDictionary else { return }
            if frames[frames.count - 1].key == nil {
                guard case .literal(let key) = token else { throw .unexpected(line: line, what: "a dictionary key that is not a name") }
                frames[frames.count - 1].key = key
                return
            }
            try value(token, line: line)
        }

        /// A value of the innermost dictionary's pending key (`token` nil for an array or dictionary value).
        /// - Complexity: O(1).
        private mutating func value(_ token: Token?, line: Int) throws(PDFScriptError) {
            guard let last = frames.indices.last, frames[last].isDictionary else { return }
            guard let key = frames[last].key else { throw .unexpected(line: line, what: "an array or dictionary as a dictionary key") }
            frames[last].key = nil
            guard case .number(let number)? = token else {
                if key == "width" || key == "height" || key == "type" { throw .unexpected(line: line, what: "a /\(key) that is not a number") }
                return
            }
            switch key {
            case "width": frames[last].width = number
            case "height": frames[last].height = number
            case "type":
                guard number == 42 else { throw .glyphFonts }
                frames[last].type = number
            default: break
            }
        }

        /// Keeps the last three top-level tokens; forgets the dictionary closed before them once another comes.
        /// - Complexity: O(1).
        private mutating func note(_ token: Token) {
            if token != .dictClose { closed = nil }
            recent.append(token)
            if recent.count > 3 { recent.removeFirst() }
        }

        /// The checks of the operators that make things: what they are given just before them.
        /// - Complexity: O(1).
        private mutating func operate(_ name: String, line: Int) throws(PDFScriptError) {
            func previous(_ back: Int) -> Token? { recent.count >= back ? recent[recent.count - back] : nil }
            switch name {
            case "surface":
                guard previous(1) == .dictClose, let closed, let width = closed.width, let height = closed.height else {
                    throw .unexpected(line: line, what: "a surface without its dictionary")
                }
                surfaces += 1
                guard width.isFinite, height.isFinite, width > 0, height > 0, width <= PDFScriptCheck.maxSide, height <= PDFScriptCheck.maxSide else {
                    throw .pageSize(width: width, height: height)
                }
                if page == nil { page = (width, height) }
            case "image":
                guard previous(1) == .dictClose, let closed, let width = closed.width, let height = closed.height,
                      PDFScriptCheck.isSide(width), PDFScriptCheck.isSide(height) else {
                    throw .unexpected(line: line, what: "an image without a whole /width and /height of at most 32767")
                }
                try decode(Int(width) * Int(height) * 4)
            case "similar":
                guard case .number(let width)? = previous(3), case .number(let height)? = previous(2), case .constant? = previous(1),
                      PDFScriptCheck.isSide(width), PDFScriptCheck.isSide(height) else {
                    throw .unexpected(line: line, what: "a similar surface without a whole size of at most 32767")
                }
            case "font":
                guard previous(1) == .dictClose, closed?.type == 42 else { throw .glyphFonts }
            case "index":
                // cairo writes `N index` and `N -1 roll` (N its own count of surfaces on the stack); the interpreter
                // checks neither a negative N nor one that reaches a slot past the stack.
                guard case .number(let depth)? = previous(1), PDFScriptCheck.isStackDepth(depth) else {
                    throw .unexpected(line: line, what: "an index without a whole depth of at most \(PDFScriptCheck.maxStackDepth)")
                }
            case "roll":
                guard case .number(-1)? = previous(1), case .number(let depth)? = previous(2), PDFScriptCheck.isStackDepth(depth) else {
                    throw .unexpected(line: line, what: "a roll other than N -1 roll with N a whole depth of at most \(PDFScriptCheck.maxStackDepth)")
                }
            case "set-mime-data":
                guard case .data? = previous(1), case .string(let type)? = previous(2), PDFScriptCheck.mimeTypes.contains(type) else {
                    throw .unexpected(line: line, what: "MIME data that is not JPEG or JPEG 2000")
                }
            default:
                break
            }
        }
    }

    /// True for the names the script surface defines: `s12` (surfaces), `f3` (fonts), `sf3` (scaled fonts).
    /// - Complexity: O(length of `name`).
    static func isDefined(_ name: String) -> Bool {
        let digits = name.hasPrefix("sf") ? name.dropFirst(2) : name.hasPrefix("s") || name.hasPrefix("f") ? name.dropFirst() : ""
        return !digits.isEmpty && digits.count <= 10 && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// The deepest `index` and `roll` reach: cairo's own count of the surfaces it has pushed, a few in practice.
    public static let maxStackDepth = 256.0

    /// True for a whole number from 0 to `maxStackDepth`.
    /// - Complexity: O(1).
    static func isStackDepth(_ value: Double) -> Bool {
        value >= 0 && value <= maxStackDepth && value == value.rounded()
    }

    /// True for a whole number from 0 to `maxSide`.
    /// - Complexity: O(1).
    static func isSide(_ value: Double) -> Bool {
        value >= 0 && value <= maxSide && value == value.rounded()
    }
}
