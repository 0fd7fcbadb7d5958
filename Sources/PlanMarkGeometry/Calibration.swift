/// A unit of length a calibration distance is given in.
public enum LengthUnit: String, Sendable, Hashable, CaseIterable {
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
    /// - Complexity: O(1).
    public var metresPerPixel: Double? {
        let value: Double
        switch self {
        case let .twoPoints(from, to, distance, unit):
            guard from.isFinite, to.isFinite, distance.isFinite, distance > 0 else { return nil }
            let pixels = from.distance(to: to)
            guard pixels > 0, pixels.isFinite else { return nil }
            value = distance * unit.metres / pixels
        case let .paperScale(paper, reality, dpi):
            guard paper.isFinite, paper > 0, reality.isFinite, reality > 0, dpi.isFinite, dpi > 0 else { return nil }
            value = 0.0254 / dpi * (reality / paper)
        }
        return value.isFinite && value > 0 ? value : nil
    }
}
