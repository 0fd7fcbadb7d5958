/// A unit of length a calibration distance is given in.
public enum LengthUnit: String, Sendable, Hashable, CaseIterable, Encodable {
    /// Metres.
    case m
    /// Millimetres (0.001 m).
    case mm
    /// International feet (0.3048 m exactly).
    case ft

    /// One unit in metres.
    public var metres: Double {
        switch self {
        case .m: return 1
        case .mm: return 0.001
        case .ft: return 0.3048
        }
    }
}

/// How a drawing's scale (metres per pixel) was set.
public enum Calibration: Hashable, Sendable {
    /// Two positions on the drawing known to be `distance` `unit`s apart in reality.
    case twoPoints(from: PixelPoint, to: PixelPoint, distance: Double, unit: LengthUnit)
    /// The sheet's paper scale `paper:reality` (1:100 is `paper` 1, `reality` 100) and the resolution it
    /// was scanned or exported at, in dots (pixels) per inch.
    case paperScale(paper: Double, reality: Double, dpi: Double)

    /// Metres in reality per pixel of the drawing, or nil when the calibration cannot give one (the
    /// two points coincide, or a number is not finite and positive).
    ///
    /// Two points: `distance * unit.metres / |to - from|`. Paper scale: a pixel is `0.0254 / dpi` metres
    /// of paper (an inch is 0.0254 m exactly), which stands for `reality / paper` times as much, so
    /// 1:100 at 300 dpi gives `0.0254 / 300 * 100` m.
    ///
    /// The numbers are the decimals people gave (each double's shortest digits), and the quotient is
    /// worked out on them exactly and rounded once to the nearest double (`exactQuotient`): 1:100 at
    /// 254 dpi is 254 * 100 / (10,000 * 254) = 0.01, the double nearest 0.01, where the doubles'
    /// `0.0254 / 254 * 100` would give 0.009999999999999998. Only a product too large for 53 bits (a
    /// two-point distance of irrational length, such as 948.6832980505138 px) falls back to doubles.
    /// - Complexity: O(1).
    public var metresPerPixel: Double? {
        let value: Double
        switch self {
        case let .twoPoints(from, to, distance, unit):
            guard from.isFinite, to.isFinite, distance.isFinite, distance > 0 else { return nil }
            let pixels = from.distance(to: to)
            guard pixels > 0, pixels.isFinite else { return nil }
            value = Self.exactQuotient([distance, unit.metres], over: [pixels]) ?? distance * unit.metres / pixels
        case let .paperScale(paper, reality, dpi):
            guard paper.isFinite, paper > 0, reality.isFinite, reality > 0, dpi.isFinite, dpi > 0 else { return nil }
            value = Self.exactQuotient([0.0254, reality], over: [dpi, paper]) ?? 0.0254 / dpi * (reality / paper)
        }
        return value.isFinite && value > 0 ? value : nil
    }

    /// The product of `numerator` over the product of `denominator`, each number taken as its shortest
    /// decimal (`DecimalDigits`), computed exactly in integers and rounded once (an IEEE division of two
    /// exact integers is correctly rounded); nil when a number is negative or zero in the denominator, or
    /// an integer does not fit in 53 bits.
    /// - Complexity: O(1) (at most 17 digits a number).
    static func exactQuotient(_ numerator: [Double], over denominator: [Double]) -> Double? {
        var top: UInt64 = 1, bottom: UInt64 = 1, power = 0
        func times(_ a: UInt64, _ b: UInt64) -> UInt64? {
            let (product, overflow) = a.multipliedReportingOverflow(by: b)
            return overflow || product >= 1 << 53 ? nil : product
        }
        for (numbers, isTop) in [(numerator, true), (denominator, false)] {
            for number in numbers {
                guard let decimal = DecimalDigits(number), !decimal.isNegative,
                      let mantissa = decimal.integer(scale: decimal.exponent) else { return nil }
                if isTop {
                    guard let product = times(top, mantissa) else { return nil }
                    top = product
                    power += decimal.exponent
                } else {
                    guard let product = times(bottom, mantissa) else { return nil }
                    bottom = product
                    power -= decimal.exponent
                }
            }
        }
        for _ in 0..<abs(power) {
            if power > 0 {
                guard let product = times(top, 10) else { return nil }
                top = product
            } else {
                guard let product = times(bottom, 10) else { return nil }
                bottom = product
            }
        }
        guard bottom > 0 else { return nil }
        return Double(top) / Double(bottom)
    }
}
