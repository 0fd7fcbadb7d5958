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
/// Fast paths, both exact: Clinger's, for a decimal with at most 15 significant digits and a power of ten
/// up to 22, is one correctly rounded multiplication or division of two exact doubles, which is the
/// correctly rounded result; Eisel and Lemire's, for 16 to 19 significant digits and up to 40 fraction
/// digits, multiplies the digits by a 128-bit truncation of the power of ten and returns a value only
/// when that product proves how the exact value rounds (it gives up on the rare near-halfway cases).
/// Anything else (more digits, exponents, what a fast path gives up on) is checked against the grammar
/// and then handed to the standard library's parser.
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

    /// The fast paths, for `[+-]? (digits [. digits?] | . digits)` with at most 19 significant
    /// digits; nil when they do not apply (not an error: the general parser decides).
    /// - Complexity: O(n) for n bytes.
    @inlinable
    static func parseFast(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let count = bytes.count
        guard count > 0, count < 48, let base = bytes.baseAddress else { return nil }
        var index = 0
        var negative = false
        if base[0] == UInt8(ascii: "-") {
            negative = true
            index = 1
        } else if base[0] == UInt8(ascii: "+") {
            index = 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var sawDigit = false
        var sawPoint = false
        while index < count {
            let byte = base[index]
            let digit = byte &- 48
            if digit < 10 {
                sawDigit = true
                if sawPoint { fractionDigits += 1 }
                if mantissa != 0 || digit != 0 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    digits += 1
                    if digits > 19 { return nil }
                }
            } else if byte == UInt8(ascii: ".") && !sawPoint {
                sawPoint = true
            } else {
                return nil  // exponents, letters, anything else: the general parser decides
            }
            index += 1
        }
        guard sawDigit else { return nil }
        return value(mantissa: mantissa, digits: digits, fractionDigits: fractionDigits, negative: negative)
    }

    /// The double nearest to `mantissa` / 10^`fractionDigits` (negated when `negative`), where
    /// `mantissa` holds the `digits` significant digits of a decimal, exactly; nil when neither fast
    /// path can prove the rounding (the caller then parses the text in full).
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    public static func value(mantissa: UInt64, digits: Int, fractionDigits: Int, negative: Bool) -> Double? {
        if digits <= 15 && fractionDigits <= 22 {
            var value = Double(mantissa)
            if fractionDigits > 0 { value /= powersOfTen[fractionDigits] }
            return negative ? -value : value
        }
        if digits > 19 { return nil }
        if fractionDigits == 0 {
            // An integer of at most 19 digits: converting a UInt64 rounds correctly.
            let value = Double(mantissa)
            return negative ? -value : value
        }
        return eiselLemire(mantissa, fractionDigits: fractionDigits, negative: negative)
    }

    /// Eisel and Lemire's algorithm (as Go's `strconv.eiselLemire64`) for `mantissa` x 10^-`fractionDigits`,
    /// 1 <= `fractionDigits` <= 40, `mantissa` > 0: the correctly rounded double, or nil when the
    /// 128-bit product cannot decide it.
    /// - Complexity: O(1).
    @inlinable
    static func eiselLemire(_ mantissa: UInt64, fractionDigits: Int, negative: Bool) -> Double? {
        guard mantissa != 0, fractionDigits >= 1, fractionDigits <= 40 else { return nil }
        let exp10 = -fractionDigits
        let clz = mantissa.leadingZeroBitCount
        let man = mantissa << UInt64(clz)
        // floor(exp10 * log2(10)) is (217706 * exp10) >> 16 over this range.
        var retExp2 = UInt64(bitPattern: Int64((217706 * exp10) >> 16 + 64 + 1023)) &- UInt64(clz)
        let power = negativePowersOfTen[40 - fractionDigits]
        var (xHi, xLo) = man.multipliedFullWidth(by: power.hi)
        if xHi & 0x1FF == 0x1FF && xLo &+ man < man {
            let (yHi, yLo) = man.multipliedFullWidth(by: power.lo)
            var mergedHi = xHi
            let mergedLo = xLo &+ yHi
            if mergedLo < xLo { mergedHi &+= 1 }
            if mergedHi & 0x1FF == 0x1FF && mergedLo &+ 1 == 0 && yLo &+ man < man { return nil }
            xHi = mergedHi
            xLo = mergedLo
        }
        let msb = xHi >> 63
        var retMantissa = xHi >> (msb + 9)
        retExp2 &-= 1 ^ msb
        // Halfway between two doubles, as far as the product can tell.
        if xLo == 0 && xHi & 0x1FF == 0 && retMantissa & 3 == 1 { return nil }
        retMantissa &+= retMantissa & 1
        retMantissa >>= 1
        if retMantissa >> 53 > 0 {
            retMantissa >>= 1
            retExp2 &+= 1
        }
        // Subnormal or out of range: the general parser.
        if retExp2 &- 1 >= 0x7FF - 1 { return nil }
        var bits = retExp2 << 52 | retMantissa & 0x000F_FFFF_FFFF_FFFF
        if negative { bits |= 0x8000_0000_0000_0000 }
        return Double(bitPattern: bits)
    }

    /// 10^-40 ... 10^-1 as 128-bit mantissas rounded down (truncated), normalized so the top bit is
    /// set: entry k is 10^(k - 40) = (hi * 2^64 + lo) * 2^(floor((k - 40) * log2(10)) - 127).
    /// Generated with exact integers: floor(2^(128 + b) / 10^n) for b the bit length of 10^n, shifted
    /// right to 128 bits.
    @usableFromInline static let negativePowersOfTen: [(hi: UInt64, lo: UInt64)] = [
        (0x8B61313BBABCE2C6, 0x2323AC4B3B3DA015),  // 1e-40
        (0xAE397D8AA96C1B77, 0xABEC975E0A0D081A),  // 1e-39
        (0xD9C7DCED53C72255, 0x96E7BD358C904A21),  // 1e-38
        (0x881CEA14545C7575, 0x7E50D64177DA2E54),  // 1e-37
        (0xAA242499697392D2, 0xDDE50BD1D5D0B9E9),  // 1e-36
        (0xD4AD2DBFC3D07787, 0x955E4EC64B44E864),  // 1e-35
        (0x84EC3C97DA624AB4, 0xBD5AF13BEF0B113E),  // 1e-34
        (0xA6274BBDD0FADD61, 0xECB1AD8AEACDD58E),  // 1e-33
        (0xCFB11EAD453994BA, 0x67DE18EDA5814AF2),  // 1e-32
        (0x81CEB32C4B43FCF4, 0x80EACF948770CED7),  // 1e-31
        (0xA2425FF75E14FC31, 0xA1258379A94D028D),  // 1e-30
        (0xCAD2F7F5359A3B3E, 0x096EE45813A04330),  // 1e-29
        (0xFD87B5F28300CA0D, 0x8BCA9D6E188853FC),  // 1e-28
        (0x9E74D1B791E07E48, 0x775EA264CF55347D),  // 1e-27
        (0xC612062576589DDA, 0x95364AFE032A819D),  // 1e-26
        (0xF79687AED3EEC551, 0x3A83DDBD83F52204),  // 1e-25
        (0x9ABE14CD44753B52, 0xC4926A9672793542),  // 1e-24
        (0xC16D9A0095928A27, 0x75B7053C0F178293),  // 1e-23
        (0xF1C90080BAF72CB1, 0x5324C68B12DD6338),  // 1e-22
        (0x971DA05074DA7BEE, 0xD3F6FC16EBCA5E03),  // 1e-21
        (0xBCE5086492111AEA, 0x88F4BB1CA6BCF584),  // 1e-20
        (0xEC1E4A7DB69561A5, 0x2B31E9E3D06C32E5),  // 1e-19
        (0x9392EE8E921D5D07, 0x3AFF322E62439FCF),  // 1e-18
        (0xB877AA3236A4B449, 0x09BEFEB9FAD487C2),  // 1e-17
        (0xE69594BEC44DE15B, 0x4C2EBE687989A9B3),  // 1e-16
        (0x901D7CF73AB0ACD9, 0x0F9D37014BF60A10),  // 1e-15
        (0xB424DC35095CD80F, 0x538484C19EF38C94),  // 1e-14
        (0xE12E13424BB40E13, 0x2865A5F206B06FB9),  // 1e-13
        (0x8CBCCC096F5088CB, 0xF93F87B7442E45D3),  // 1e-12
        (0xAFEBFF0BCB24AAFE, 0xF78F69A51539D748),  // 1e-11
        (0xDBE6FECEBDEDD5BE, 0xB573440E5A884D1B),  // 1e-10
        (0x89705F4136B4A597, 0x31680A88F8953030),  // 1e-9
        (0xABCC77118461CEFC, 0xFDC20D2B36BA7C3D),  // 1e-8
        (0xD6BF94D5E57A42BC, 0x3D32907604691B4C),  // 1e-7
        (0x8637BD05AF6C69B5, 0xA63F9A49C2C1B10F),  // 1e-6
        (0xA7C5AC471B478423, 0x0FCF80DC33721D53),  // 1e-5
        (0xD1B71758E219652B, 0xD3C36113404EA4A8),  // 1e-4
        (0x83126E978D4FDF3B, 0x645A1CAC083126E9),  // 1e-3
        (0xA3D70A3D70A3D70A, 0x3D70A3D70A3D70A3),  // 1e-2
        (0xCCCCCCCCCCCCCCCC, 0xCCCCCCCCCCCCCCCC),  // 1e-1
    ]

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
