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
        if value == value.rounded(.towardZero) && abs(value) < 9_007_199_254_740_992 {
            appendInteger(Int64(value))
        } else if abs(value) < 4_503_599_627_370_496 && (value * 2) == (value * 2).rounded(.towardZero) {
            // A half-integer (common for pixel centres): its shortest form is the integer part and ".5".
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            appendInteger(Int64(abs(value).rounded(.towardZero)))
            append(".5")
        } else if !appendShortDecimal(value) {
            append(JSONNumber.text(value))
        }
    }

    /// Exact powers of ten, 10^0 ... 10^22.
    @usableFromInline static let powersOfTen: [Double] = DecimalParser.powersOfTen

    /// Appends a finite, non-integral `value` with 0.001 <= |value| < 10^15 as Swift's shortest
    /// round-trip text (`value.description`) when that text has at most 15 significant digits, without
    /// making a `String`; returns false, having written nothing, otherwise.
    ///
    /// For d = 1, 2, ... fraction digits, m = round(|value| * 10^d) is the only d-digit candidate (the
    /// product's rounding error is far below 1/2 while m < 10^15), and m / 10^d, one correctly
    /// rounded division of exact doubles, is what parsing that text gives: the first d where it equals
    /// |value| gives the shortest text that reads back as `value`. At 15 significant digits or fewer
    /// that text is the only one of its length (two decimals of at most 15 digits never round to the
    /// same double), so it is the one Swift prints; Swift prints values from 0.001 below 2^53 without an
    /// exponent.
    /// - Complexity: O(1) (at most 18 candidates).
    @inlinable
    public mutating func appendShortDecimal(_ value: Double) -> Bool {
        let magnitude = abs(value)
        guard magnitude >= 0.001 && magnitude < 1e15 else { return false }
        let integer = UInt64(magnitude)
        var integerDigits = 0
        var rest = integer
        while rest > 0 { integerDigits += 1; rest /= 10 }
        // Leading fraction zeros of values below 1 (at most 2 here) do not count as significant.
        let maxFraction = integerDigits > 0 ? 15 - integerDigits : 17
        guard maxFraction >= 1 else { return false }
        let powers = Self.powersOfTen
        for d in 1...maxFraction {
            let p = powers[d]
            let m = (magnitude * p).rounded()
            if m >= 1e15 { return false }
            if m / p == magnitude {
                if value < 0 { bytes.append(UInt8(ascii: "-")) }
                var mantissa = UInt64(m)
                var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 slots: 15 digits, a point, zeros
                var count = 0
                withUnsafeMutableBytes(of: &digits) { slots in
                    for _ in 0..<d {
                        slots[count] = 48 + UInt8(mantissa % 10)
                        mantissa /= 10
                        count += 1
                    }
                    slots[count] = UInt8(ascii: ".")
                    count += 1
                    if mantissa == 0 {
                        slots[count] = 48
                        count += 1
                    }
                    while mantissa > 0 {
                        slots[count] = 48 + UInt8(mantissa % 10)
                        mantissa /= 10
                        count += 1
                    }
                    for k in stride(from: count - 1, through: 0, by: -1) { bytes.append(slots[k]) }
                }
                return true
            }
        }
        return false
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
