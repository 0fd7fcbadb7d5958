/// A double as the decimal people read: its shortest round-trip digits (Swift's `description`, e.g.
/// `2.675` for the double 2.67499999999999982236431605997495353221893310546875), as an integer
/// `digits` times `10^exponent`.
struct DecimalDigits: Hashable, Sendable {
    /// True for a value below zero (not for -0.0).
    var isNegative: Bool
    /// The decimal digits, most significant first, without leading zeros; empty for zero.
    var digits: [UInt8]
    /// The power of ten of the last digit.
    var exponent: Int

    /// The shortest decimal that reads back as `value`; nil when `value` is not finite.
    /// - Complexity: O(1) (at most 17 significant digits).
    init?(_ value: Double) {
        guard value.isFinite else { return nil }
        var digits: [UInt8] = []
        var exponent = 0
        var afterPoint = 0
        var seenPoint = false
        var explicit = 0
        var explicitNegative = false
        var inExponent = false
        for byte in value.magnitude.description.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9") where inExponent:
                explicit = explicit * 10 + Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if !(digits.isEmpty && byte == UInt8(ascii: "0")) { digits.append(byte - UInt8(ascii: "0")) }
                if seenPoint { afterPoint += 1 }
            case UInt8(ascii: "."): seenPoint = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"): inExponent = true
            case UInt8(ascii: "-") where inExponent: explicitNegative = true
            default: break  // "+" of an exponent
            }
        }
        exponent = (explicitNegative ? -explicit : explicit) - afterPoint
        // Leading zeros were skipped; trailing ones (the "0" of "25.0") carry no value.
        while let last = digits.last, last == 0 {
            digits.removeLast()
            exponent += 1
        }
        if digits.isEmpty { exponent = 0 }
        self.isNegative = value < 0 && !digits.isEmpty
        self.digits = digits
        self.exponent = exponent
    }

    /// The magnitude as an integer with `10^scale` taken out, `digits * 10^(exponent - scale)`, when that is a
    /// whole number below 2^53 (so a double holds it exactly); nil otherwise.
    /// - Complexity: O(digits).
    func integer(scale: Int) -> UInt64? {
        guard exponent >= scale else { return nil }
        var result: UInt64 = 0
        for digit in digits {
            let (times, o1) = result.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(UInt64(digit))
            guard !o1, !o2 else { return nil }
            result = sum
        }
        for _ in 0..<(exponent - scale) {
            let (times, overflow) = result.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            result = times
        }
        return result < 1 << 53 ? result : nil
    }
}

/// A number rounded for people, half away from zero on the decimal they read: the double's shortest
/// round-trip digits (`DecimalDigits`) are rounded, never its binary value, so 2.675 (stored as
/// 2.674999...) rounds to 2.68 and 27.75 to 27.8 at one decimal. What each measurement is rounded to is
/// `Quantity`'s rule; this type only rounds and writes.
public struct RoundedNumber: Hashable, Sendable, CustomStringConvertible {
    /// True when the rounded value is below zero (a value that rounds to zero is never negative).
    public let isNegative: Bool
    /// The rounded magnitude times `10^decimals`, in decimal digits without leading zeros ("0" for zero).
    public let units: String
    /// How many decimals `text` shows (0 or more).
    public let decimals: Int
    /// `nan`, `inf` or `-inf` for a value that is not finite; nil otherwise.
    private let notFinite: String?

    /// `value` rounded half away from zero to `decimals` decimal places (0 or more).
    /// - Complexity: O(digits of the result).
    public init(_ value: Double, decimals: Int) {
        precondition(decimals >= 0, "decimals must be 0 or more")
        guard let decimal = DecimalDigits(value) else {
            self.init(notFinite: value)
            return
        }
        self.init(decimal, place: -decimals, decimals: decimals)
    }

    /// `value` rounded half away from zero to `significantDigits` (1 or more) significant digits, showing
    /// the decimals that leaves (none for a value of `10^significantDigits` or more): 0.0084666... to 4 is
    /// 0.008467, 12,345.6 to 4 is 12350.
    /// - Complexity: O(digits of the result).
    public init(_ value: Double, significantDigits: Int) {
        precondition(significantDigits >= 1, "significantDigits must be 1 or more")
        guard let decimal = DecimalDigits(value) else {
            self.init(notFinite: value)
            return
        }
        // The leading digit's power of ten; the last kept digit's is significantDigits - 1 below it.
        let leading = decimal.exponent + decimal.digits.count - 1
        let place = leading - (significantDigits - 1)
        self.init(decimal, place: decimal.digits.isEmpty ? 0 : place, decimals: decimal.digits.isEmpty ? 0 : max(0, -place))
    }

    private init(notFinite value: Double) {
        isNegative = false
        units = "0"
        decimals = 0
        notFinite = value.isNaN ? "nan" : value < 0 ? "-inf" : "inf"
    }

    /// Rounds `decimal` to a multiple of `10^place`, half away from zero, and keeps `decimals` decimals.
    private init(_ decimal: DecimalDigits, place: Int, decimals: Int) {
        var kept: [UInt8]
        let dropped = place - decimal.exponent  // how many of the last digits fall below the place
        if dropped <= 0 {
            kept = decimal.digits + Array(repeating: 0, count: -dropped)
        } else if dropped > decimal.digits.count {
            kept = []  // below half a unit: even the leading digit is beyond the first dropped place
        } else {
            kept = Array(decimal.digits.prefix(decimal.digits.count - dropped))
            if decimal.digits[decimal.digits.count - dropped] >= 5 {  // half or more: away from zero
                var index = kept.count - 1
                while index >= 0 && kept[index] == 9 {
                    kept[index] = 0
                    index -= 1
                }
                if index >= 0 { kept[index] += 1 } else { kept.insert(1, at: 0) }
            }
        }
        // Now a multiple of 10^place; written with `decimals` decimals (place may be above the units).
        if !kept.isEmpty { kept += Array(repeating: 0, count: max(0, place + decimals)) }
        while kept.first == 0 { kept.removeFirst() }
        isNegative = decimal.isNegative && !kept.isEmpty
        units = kept.isEmpty ? "0" : String(decoding: kept.map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
        self.decimals = decimals
        notFinite = nil
    }

    /// Every decimal shown: `25.00` for 24.999999999999993 at two decimals, `-2.68` for -2.675.
    /// - Complexity: O(digits).
    public var text: String {
        if let notFinite { return notFinite }
        var digits = units
        if digits.count <= decimals { digits = String(repeating: "0", count: decimals + 1 - digits.count) + digits }
        if decimals > 0 { digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -decimals)) }
        return (isNegative ? "-" : "") + digits
    }

    /// Trailing zeros of the fraction dropped, and the point with them: `25`, `27.75`, `0.01`. The same
    /// number as `text`; also its JSON spelling (but see `json`).
    /// - Complexity: O(digits).
    public var shortText: String {
        var out = text
        guard notFinite == nil, decimals > 0 else { return out }
        while out.hasSuffix("0") { out.removeLast() }
        if out.hasSuffix(".") { out.removeLast() }
        return out
    }

    /// As a JSON number (`shortText`), or `null` for a value that is not finite (JSON has no spelling for it).
    /// - Complexity: O(digits).
    public var json: String { notFinite == nil ? shortText : "null" }

    /// The double nearest the rounded decimal.
    public var value: Double { notFinite == nil ? Double(shortText)! : Double(notFinite!)! }

    public var description: String { text }
}

/// What a number measures, and so what it is rounded to for people: the rules, defined once, of every
/// measurement PlanMark shows (the CLI's text and JSON, the HTTP API, the review image's legend and
/// the report). Rounding is `RoundedNumber`'s, half away from zero on the decimal people read.
///
/// - `metres` (distances, perimeters): to the millimetre, 3 decimals (`4.250`).
/// - `squareMetres` (areas): to 0.01 m², 2 decimals (`27.75`, `25.00`).
/// - `pixels` (distances in the image): to 0.1 px, 1 decimal (`948.7`).
/// - `metresPerPixel` (a drawing's scale): 4 significant digits, trailing zeros dropped (`0.01`,
///   `0.008467`): a factor spans many magnitudes (0.000847 m at 1:10 and 300 dpi), so a fixed number
///   of decimals would lose it.
public enum Quantity: String, Sendable, Hashable, CaseIterable {
    case metres, squareMetres, pixels, metresPerPixel

    /// `value` rounded by this quantity's rule.
    /// - Complexity: O(digits).
    public func rounded(_ value: Double) -> RoundedNumber {
        switch self {
        case .metres: return RoundedNumber(value, decimals: 3)
        case .squareMetres: return RoundedNumber(value, decimals: 2)
        case .pixels: return RoundedNumber(value, decimals: 1)
        case .metresPerPixel: return RoundedNumber(value, significantDigits: 4)
        }
    }

    /// What people read, without the unit: every decimal of the rule (`25.00`), but a scale without its
    /// trailing zeros (`0.01`).
    /// - Complexity: O(digits).
    public func text(_ value: Double) -> String {
        self == .metresPerPixel ? rounded(value).shortText : rounded(value).text
    }

    /// The rounded value as a JSON number, trailing zeros dropped (`25`, `27.75`); `null` when not finite.
    /// - Complexity: O(digits).
    public func json(_ value: Double) -> String { rounded(value).json }
}
