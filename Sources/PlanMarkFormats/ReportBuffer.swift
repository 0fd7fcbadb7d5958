/// Output bytes under construction; cheaper than growing a `String` piece by piece.
public struct ReportBuffer: Sendable {
    /// The UTF-8 bytes written so far.
    public var bytes: [UInt8] = []

    /// Creates an empty buffer with room for `capacity` bytes.
    public init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// The bytes as a string.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends literal text.
    @inlinable
    public mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends bytes prepared in advance.
    @inlinable
    public mutating func append(bytes more: [UInt8]) {
        bytes.append(contentsOf: more)
    }

    /// Appends bytes.
    @inlinable
    public mutating func append(bytes more: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: more)
    }

    /// Appends `text` (UTF-8) as a CSV field: as is, or quoted with its quotes doubled when it holds a
    /// comma, a quote or a line break.
    /// - Complexity: O(n) for n bytes.
    @inlinable
    public mutating func appendCSVField(_ text: UnsafeBufferPointer<UInt8>) {
        var needsQuotes = false
        for byte in text where byte == 44 || byte == 34 || byte == 10 || byte == 13 {
            needsQuotes = true
            break
        }
        guard needsQuotes else {
            bytes.append(contentsOf: text)
            return
        }
        bytes.append(34)
        for byte in text {
            bytes.append(byte)
            if byte == 34 { bytes.append(34) }
        }
        bytes.append(34)
    }

    /// Appends `text` (UTF-8) as a JSON string literal, quotes included, escaped as
    /// `JSONString.append` escapes it.
    /// - Complexity: O(n) for n bytes.
    @inlinable
    public mutating func appendJSONString(_ text: UnsafeBufferPointer<UInt8>) {
        bytes.append(34)
        var needsEscape = false
        for byte in text where byte < 0x20 || byte == 0x22 || byte == 0x5C {
            needsEscape = true
            break
        }
        guard needsEscape else {
            bytes.append(contentsOf: text)
            bytes.append(34)
            return
        }
        for byte in text {
            switch byte {
            case 0x22: append("\\\"")
            case 0x5C: append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0..<0x20:
                append("\\u00")
                bytes.append(byte < 0x10 ? 48 : 49)
                let low = byte & 0x0F
                bytes.append(low < 10 ? 48 + low : 87 + low)
            default:
                bytes.append(byte)
            }
        }
        bytes.append(34)
    }

    /// Appends text.
    @inlinable
    public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends a number as JSON text, exactly as `JSONNumber.text` spells it.
    @inlinable
    public mutating func appendNumber(_ value: Double) {
        var slots: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &slots) { slots in
            let n = NumberText.write(value, to: slots.baseAddress!.assumingMemoryBound(to: UInt8.self))
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: slots[0..<n]))
        }
    }

    /// Appends a finite, non-integral `value` with 0.001 <= |value| < 10^15 as Swift's shortest
    /// round-trip text (`value.description`) when that text has at most 15 significant digits, without
    /// making a `String`; returns false, having written nothing, otherwise (see
    /// `NumberText.writeShortDecimal`).
    /// - Complexity: O(1).
    @inlinable
    public mutating func appendShortDecimal(_ value: Double) -> Bool {
        var slots: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &slots) { slots in
            let n = NumberText.writeShortDecimal(value, to: slots.baseAddress!.assumingMemoryBound(to: UInt8.self))
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: slots[0..<n]))
            return n > 0
        }
    }

    /// Appends an integer in decimal.
    @inlinable
    public mutating func appendInteger(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        if magnitude < 10 {
            bytes.append(48 + UInt8(magnitude))
            return
        }
        var digits: (UInt64, UInt64) = (0, 0)  // 16 digit slots, enough below 2^53
        var count = 0
        withUnsafeMutableBytes(of: &digits) { slots in
            while magnitude > 0 {
                slots[count] = 48 + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            }
            for k in stride(from: count - 1, through: 0, by: -1) { bytes.append(slots[k]) }
        }
    }

    /// Appends `text` as a JSON string literal, quotes included.
    @inlinable
    public mutating func appendJSONString(_ text: String) {
        bytes.append(34)
        var needsEscape = false
        for byte in text.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C {
            needsEscape = true
            break
        }
        if needsEscape {
            var escaped = ""
            JSONString.append(text, to: &escaped)
            append(escaped)
        } else {
            append(text)
        }
        bytes.append(34)
    }
}

/// Receives a number's text from `Double.write(to:)` into 32 bytes on the stack: the standard library
/// hands its digits to `_writeASCII` without making a String (and to `write` in any other case).
/// `description` of a finite double is at most 24 bytes (`-2.2250738585072014e-308`).
@usableFromInline
struct ByteStream: TextOutputStream {
    @usableFromInline var slots: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    @usableFromInline var count = 0

    @inlinable init() {}

    @inlinable
    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        let n = min(buffer.count, 32 - count)
        let start = count
        withUnsafeMutableBytes(of: &slots) { slots in
            for k in 0..<n { slots[start + k] = buffer[k] }
        }
        count += n
    }

    @inlinable
    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { _writeASCII($0) }
    }
}

/// Report bytes written through a pointer: room for a whole entry is made once (`reserve`), then
/// bytes are stored without a capacity or uniqueness check each. Owns its memory until `take()`.
struct ByteSink {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 256)
        base = .allocate(capacity: self.capacity)
    }

    /// Makes room for `n` more bytes.
    /// - Complexity: amortized O(1) a byte.
    @inline(__always)
    mutating func reserve(_ n: Int) {
        if count + n > capacity { grow(count + n) }
    }

    private mutating func grow(_ needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Stores one byte (room reserved).
    @inline(__always)
    mutating func put(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    /// Stores bytes (room reserved). Up to 16 bytes are copied with two overlapping loads and stores
    /// within the source (no call); longer runs with `memcpy`.
    @inline(__always)
    mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        let n = bytes.count
        guard let source = bytes.baseAddress else { return }
        let target = UnsafeMutableRawPointer(base + count)
        let from = UnsafeRawPointer(source)
        if n >= 8 && n <= 16 {
            let head = from.loadUnaligned(as: UInt64.self)
            let tail = from.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
            target.storeBytes(of: head, as: UInt64.self)
            target.storeBytes(of: tail, toByteOffset: n - 8, as: UInt64.self)
        } else if n >= 4 && n < 8 {
            let head = from.loadUnaligned(as: UInt32.self)
            let tail = from.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
            target.storeBytes(of: head, as: UInt32.self)
            target.storeBytes(of: tail, toByteOffset: n - 4, as: UInt32.self)
        } else if n < 4 {
            for k in 0..<n { base[count + k] = source[k] }
        } else {
            (base + count).initialize(from: source, count: n)
        }
        count += n
    }

    /// Stores literal text (room reserved).
    @inline(__always)
    mutating func put(_ text: StaticString) {
        put(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Stores an integer in decimal (room reserved: 20 bytes).
    @inline(__always)
    mutating func putInteger(_ value: Int) {
        count += NumberText.writeInteger(Int64(value), to: base + count)
    }

    /// Stores a number as `ReportBuffer.appendNumber` writes it (room reserved: 32 bytes).
    @inline(__always)
    mutating func putNumber(_ value: Double) {
        count += NumberText.write(value, to: base + count)
    }

    /// The bytes written, as an array; frees the sink's memory (the sink is empty afterwards).
    mutating func take() -> [UInt8] {
        let n = count
        let source = base
        let result = [UInt8](unsafeUninitializedCapacity: n) { buffer, initialized in
            if n > 0 { buffer.baseAddress!.initialize(from: source, count: n) }
            initialized = n
        }
        count = 0
        return result
    }

    /// Frees the memory; the sink must not be used afterwards.
    func release() { base.deallocate() }
}

/// Numbers as report text, written through a pointer (no `String`, no array).
@usableFromInline
enum NumberText {
    /// Exact powers of ten, 10^0 ... 10^22.
    @usableFromInline static let powersOfTen: [Double] = DecimalParser.powersOfTen

    /// Writes `value` as `JSONNumber.text` spells it (integral values below 2^53 without a fraction,
    /// others as Swift's shortest round-trip text, `null` for infinities and NaN) at `out`, which has room for 32 bytes; returns the
    /// number of bytes written.
    /// - Complexity: O(1).
    @inlinable
    static func write(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
        if value == value.rounded(.towardZero) && abs(value) < 9_007_199_254_740_992 {
            return writeInteger(Int64(value), to: out)
        }
        if abs(value) < 4_503_599_627_370_496 && (value * 2) == (value * 2).rounded(.towardZero) {
            // A half-integer (common for pixel centres): its shortest form is the integer part and ".5".
            var n = 0
            if value < 0 { out[0] = UInt8(ascii: "-"); n = 1 }
            n += writeInteger(Int64(abs(value).rounded(.towardZero)), to: out + n)
            out[n] = UInt8(ascii: ".")
            out[n + 1] = UInt8(ascii: "5")
            return n + 2
        }
        let short = writeShortDecimal(value, to: out)
        if short > 0 { return short }
        guard value.isFinite else {
            // As `JSONNumber.text`: JSON has no spelling for infinities and NaN.
            for (k, byte) in "null".utf8.enumerated() { out[k] = byte }
            return 4
        }
        // Swift's shortest round-trip text, as `description` has it, without making a String.
        var stream = ByteStream()
        value.write(to: &stream)
        let n = stream.count
        withUnsafeBytes(of: &stream.slots) { slots in
            for k in 0..<n { out[k] = slots[k] }
        }
        return n
    }

    /// Writes an integer in decimal at `out` (room for 20 bytes); returns the number of bytes.
    /// - Complexity: O(1).
    @inlinable
    static func writeInteger(_ value: Int64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 0
        if value < 0 { out[0] = UInt8(ascii: "-"); n = 1 }
        var magnitude = value.magnitude
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 { digits += 1; rest /= 10 }
        var k = n + digits
        repeat {
            k -= 1
            out[k] = 48 + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        return n + digits
    }

    /// Writes a finite, non-integral `value` with 0.001 <= |value| < 10^15 as Swift's shortest
    /// round-trip text (`value.description`) when that text has at most 15 significant digits, at
    /// `out` (room for 32 bytes); returns the number of bytes, or 0 (nothing meaningful written)
    /// otherwise.
    ///
    /// With d the fraction digits of 15 significant digits at the value's scale, M = round(|value| *
    /// 10^d) is the only candidate (the product is within 0.2 of the decimal it stands for while
    /// M < 10^15), and M / 10^d, one correctly rounded division of exact doubles, is what parsing that
    /// text gives. When it reads back as `value`, the shortest text is M without its trailing zeros:
    /// two decimals of at most 15 significant digits never read as the same double, so any shorter
    /// text that reads back is M's value. That text is the only one of its length, so it is the one
    /// Swift prints; Swift prints values from 0.001 below 2^53 without an exponent. When it does not
    /// read back, no text of at most 15 digits does.
    /// - Complexity: O(1).
    @inlinable
    static func writeShortDecimal(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let magnitude = abs(value)
        guard magnitude >= 0.001 && magnitude < 1e15 else { return 0 }
        var integerDigits = 0
        var rest = UInt64(magnitude)
        while rest > 0 { integerDigits += 1; rest /= 10 }
        // Leading fraction zeros of values below 1 (at most 2 here) do not count as significant.
        var d = integerDigits > 0 ? 15 - integerDigits : (magnitude < 0.01 ? 17 : magnitude < 0.1 ? 16 : 15)
        guard d >= 1 else { return 0 }
        let p = powersOfTen[d]
        // The nearest integer, without a call to libm's `round`: the product is within 0.2 of an
        // integer whenever the check below can pass, and then truncating product + 1/2 finds it.
        let product = magnitude * p
        guard product < 1e15 else { return 0 }
        var mantissa = UInt64(product + 0.5)
        guard mantissa < 1_000_000_000_000_000, Double(mantissa) / p == magnitude else { return 0 }  // 10^15
        while d > 1 && mantissa % 10 == 0 {
            mantissa /= 10
            d -= 1
        }
        var n = 0
        if value < 0 { out[0] = UInt8(ascii: "-"); n = 1 }
        // Digits: the integer part (at least "0"), the point, d fraction digits.
        var integerPart = mantissa
        for _ in 0..<d { integerPart /= 10 }
        var length = d + 1
        repeat { length += 1; integerPart /= 10 } while integerPart > 0
        var k = n + length
        for _ in 0..<d {
            k -= 1
            out[k] = 48 + UInt8(mantissa % 10)
            mantissa /= 10
        }
        k -= 1
        out[k] = UInt8(ascii: ".")
        repeat {
            k -= 1
            out[k] = 48 + UInt8(mantissa % 10)
            mantissa /= 10
        } while mantissa > 0
        return n + length
    }
}
