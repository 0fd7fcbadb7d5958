/// Parses decimal numbers from bytes, correctly rounded (as `Double(String)` rounds), without making a
/// String.
///
/// Only decimal text is a number: `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`.
/// So `.5`, `5.` and `+3` are accepted (CSV readers built on strtod have always accepted them and
/// spreadsheets write them), while `0x1c2`, `0x1p3`, `inf`, `nan`, `infinity`, `1_000`, spaces and
/// anything else `Double(String)` would also take are not. JSON applies its own, stricter grammar
/// before calling this. Values too large for a double become infinity (callers that need finite
/// values check).
///
/// The fast path is Clinger's: a decimal with at most 15 significant digits and a power of ten up to
/// 22 is converted with one correctly rounded multiplication or division of two exact doubles, which
/// is the correctly rounded result. Anything else (more digits, exponents) is checked against the
/// grammar and then handed to the standard library's parser.
public enum DecimalParser {
    /// Exact powers of ten as doubles (10^0 ... 10^22 are representable exactly).
    @usableFromInline static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// Parses the whole of `bytes` as a number; nil when it is not one.
    /// - Complexity: O(n) for n bytes.
    @inlinable
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        if let fast = parseFast(bytes) { return fast }
        return parseSlow(bytes)
    }

    /// The Clinger fast path; nil when it does not apply (not an error).
    @inlinable
    static func parseFast(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let count = bytes.count
        guard count > 0, count < 40 else { return nil }
        var negative = false
        if bytes[0] == UInt8(ascii: "-") {
            negative = true
            index = 1
        } else if bytes[0] == UInt8(ascii: "+") {
            index = 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var sawDigit = false
        var sawPoint = false
        while index < count {
            let byte = bytes[index]
            if byte >= 48 && byte <= 57 {
                sawDigit = true
                if mantissa == 0 && byte == 48 {
                    if sawPoint { fractionDigits += 1 }
                } else {
                    mantissa = mantissa * 10 + UInt64(byte - 48)
                    digits += 1
                    if sawPoint { fractionDigits += 1 }
                    if digits > 15 { return nil }
                }
            } else if byte == UInt8(ascii: ".") && !sawPoint {
                sawPoint = true
            } else {
                return nil  // exponents, letters, anything else: the general parser decides
            }
            index += 1
        }
        guard sawDigit, fractionDigits <= 22 else { return nil }
        var value = Double(mantissa)
        if fractionDigits > 0 { value /= powersOfTen[fractionDigits] }
        return negative ? -value : value
    }

    /// The general path: the grammar is checked here, then `Double(String)` rounds the text (which
    /// is then plain ASCII decimal, a form it parses exactly).
    /// - Complexity: O(n) for n bytes.
    @usableFromInline
    static func parseSlow(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard isDecimal(bytes) else { return nil }
        return Double(String(decoding: bytes, as: UTF8.self))
    }

    /// True when `bytes` is `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`.
    /// - Complexity: O(n) for n bytes.
    static func isDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        func isDigit(_ i: Int) -> Bool { i < count && bytes[i] >= 48 && bytes[i] <= 57 }
        if index < count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
        var mantissaDigits = 0
        while isDigit(index) { index += 1; mantissaDigits += 1 }
        if index < count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            while isDigit(index) { index += 1; mantissaDigits += 1 }
        }
        guard mantissaDigits > 0 else { return false }
        if index < count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            index += 1
            if index < count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
            guard isDigit(index) else { return false }
            while isDigit(index) { index += 1 }
        }
        return index == count
    }
}
