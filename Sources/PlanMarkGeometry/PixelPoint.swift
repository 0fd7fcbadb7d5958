/// A position in pixels of the full-resolution drawing: origin at the image's top-left, `y` grows down.
public struct PixelPoint: Hashable, Sendable {
    /// Pixels to the right of the image's left edge.
    public var x: Double
    /// Pixels below the image's top edge.
    public var y: Double

    /// Creates a pixel position.
    @inlinable
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// True when both coordinates are finite (neither NaN nor infinite).
    @inlinable
    public var isFinite: Bool { x.isFinite && y.isFinite }
}

extension PixelPoint: CustomStringConvertible {
    /// `(x, y)` with each coordinate as Swift prints a `Double`.
    public var description: String { "(\(x), \(y))" }
}
