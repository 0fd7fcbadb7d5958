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
        } else {
            append(JSONNumber.text(value))
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
