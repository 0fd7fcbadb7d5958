import PlanMarkGeometry

/// A drawing's calibration as a JSON object, the one shape of the store's `drawing.calibration` column,
/// `planmark drawing show --format json` and `GET /drawings/{name}`:
/// `{"method":"two-points","from":[x,y],"to":[x,y],"distance":D,"unit":"m"}` or
/// `{"method":"paper-scale","scale":"1:100","dpi":300}` (`CalibrationShape`).
public enum CalibrationJSON {
    /// The calibration as a JSON object (no line break): `CalibrationShape`'s.
    /// - Complexity: O(1).
    public static func object(_ calibration: Calibration) -> String {
        JSONDocument.text(CalibrationShape(calibration))
    }

    /// `paper:reality` as written on a sheet, e.g. `1:100`.
    /// - Complexity: O(1).
    public static func scaleText(paper: Double, reality: Double) -> String {
        JSONNumber.text(paper) + ":" + JSONNumber.text(reality)
    }

    /// Parses `A:B` (two finite positive decimal numbers, e.g. `1:100` or `1:12.5`) into (paper, reality);
    /// nil for anything else.
    /// - Complexity: O(length of text).
    public static func parseScale(_ text: String) -> (paper: Double, reality: Double)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let paper = decimal(parts[0]), let reality = decimal(parts[1]), paper > 0, reality > 0 else { return nil }
        return (paper, reality)
    }

    /// Reads back what `object(_:)` wrote; nil when `text` is not such an object.
    /// - Complexity: O(length of text).
    public static func parse(_ text: String) -> Calibration? {
        guard let root = try? JSONParser.parse(Array(text.utf8)) else { return nil }
        func point(_ value: JSONValue?) -> PixelPoint? {
            guard case .array(let pair)? = value, pair.count == 2, case .number(let x) = pair[0], case .number(let y) = pair[1] else { return nil }
            return PixelPoint(x: x, y: y)
        }
        switch root["method"] {
        case .string("two-points")?:
            guard let from = point(root["from"]), let to = point(root["to"]), case .number(let distance)? = root["distance"],
                  case .string(let unitText)? = root["unit"], let unit = LengthUnit(rawValue: unitText) else { return nil }
            return .twoPoints(from: from, to: to, distance: distance, unit: unit)
        case .string("paper-scale")?:
            guard case .string(let scale)? = root["scale"], let (paper, reality) = parseScale(scale),
                  case .number(let dpi)? = root["dpi"] else { return nil }
            return .paperScale(paper: paper, reality: reality, dpi: dpi)
        default:
            return nil
        }
    }

    /// A finite decimal number as the readers parse one, or nil.
    static func decimal(_ text: Substring) -> Double? {
        var string = String(text)
        guard let value = string.withUTF8({ DecimalParser.parse($0) }), value.isFinite else { return nil }
        return value
    }
}

/// A calibration's JSON shape: `method`, and the members of that method (the others absent).
public struct CalibrationShape: Encodable, Sendable {
    public var method: String
    public var from: [Double]?
    public var to: [Double]?
    public var distance: Double?
    public var unit: LengthUnit?
    public var scale: String?
    public var dpi: Double?

    /// The shape of `calibration`.
    public init(_ calibration: Calibration) {
        switch calibration {
        case let .twoPoints(from, to, distance, unit):
            method = "two-points"
            self.from = [from.x, from.y]
            self.to = [to.x, to.y]
            self.distance = distance
            self.unit = unit
        case let .paperScale(paper, reality, dpi):
            method = "paper-scale"
            scale = CalibrationJSON.scaleText(paper: paper, reality: reality)
            self.dpi = dpi
        }
    }
}
