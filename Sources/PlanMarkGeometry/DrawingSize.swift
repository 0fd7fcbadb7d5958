/// The size of a drawing's full-resolution image in pixels.
public struct DrawingSize: Hashable, Sendable {
    /// Width in pixels.
    public var width: Double
    /// Height in pixels.
    public var height: Double

    /// Creates a size.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// True when `point` lies on the drawing, edges included: `0 <= x <= width`, `0 <= y <= height`.
    @inlinable
    public func contains(_ point: PixelPoint) -> Bool {
        point.x >= 0 && point.x <= width && point.y >= 0 && point.y <= height
    }
}
