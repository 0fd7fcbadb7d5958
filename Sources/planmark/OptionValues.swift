import ArgumentParser
import PlanMarkFormats
import PlanMarkGeometry

/// A finite decimal number (`12`, `-3.5`, `1e3`), parsed as the markers readers parse coordinates:
/// no hexadecimal, `inf` or `nan`. Nil for anything else.
func decimalNumber(_ text: some StringProtocol) -> Double? {
    var string = String(text)
    let value = string.withUTF8 { DecimalParser.parse($0) }
    guard let value, value.isFinite else { return nil }
    return value
}

extension Zoom: ExpressibleByArgument {
    /// Parses a zoom in `Zoom.supported`, such as `8`, `-2` or `2.5`.
    public init?(argument: String) {
        guard let value = decimalNumber(argument), Zoom(value).isSupported else { return nil }
        self.init(value)
    }
}

/// A finite decimal number given as an option's value (`--lat -250`).
struct DecimalArgument: ExpressibleByArgument, Hashable, Sendable {
    /// The number.
    var value: Double

    init?(argument: String) {
        guard let value = decimalNumber(argument) else { return nil }
        self.value = value
    }
}

extension CRSFlavour: ExpressibleByArgument {}
extension BoundaryRule: ExpressibleByArgument {}

extension DrawingSize: ExpressibleByArgument {
    /// Parses `WxH` in pixels, e.g. `2400x1600`.
    public init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = decimalNumber(parts[0]), let height = decimalNumber(parts[1]),
              width > 0, height > 0
        else { return nil }
        self.init(width: width, height: height)
    }
}
