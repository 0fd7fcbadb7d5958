import ArgumentParser
import PlanMarkGeometry

extension Zoom: ExpressibleByArgument {
    /// Parses a finite zoom such as `8`, `-2` or `2.5`.
    public init?(argument: String) {
        guard let value = Double(argument), value.isFinite else { return nil }
        self.init(value)
    }
}

extension CRSFlavour: ExpressibleByArgument {}
extension BoundaryRule: ExpressibleByArgument {}

extension DrawingSize: ExpressibleByArgument {
    /// Parses `WxH` in pixels, e.g. `2400x1600`.
    public init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]),
              width.isFinite, height.isFinite, width > 0, height > 0
        else { return nil }
        self.init(width: width, height: height)
    }
}
