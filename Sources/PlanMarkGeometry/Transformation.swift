/// An affine transformation `(a*x + b, c*y + d)` scaled by a zoom's scale, as Leaflet's
/// `L.Transformation` and flutter_map's `Transformation`.
///
/// The operations run in the reference order (`scale * (a * x + b)` and `(x / scale - b) / a`), so
/// results are bit-identical, signed zeros included: `scale * (-1 * 0 + 0)` is `+0.0`, not `-0.0`.
public struct Transformation: Hashable, Sendable {
    /// The x factor.
    public var a: Double
    /// The x offset.
    public var b: Double
    /// The y factor.
    public var c: Double
    /// The y offset.
    public var d: Double

    /// Creates a transformation with the four coefficients.
    public init(_ a: Double, _ b: Double, _ c: Double, _ d: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
    }

    /// `CRS.Simple`'s transformation, `(1, 0, -1, 0)`: it flips `y` so that `lat` grows up.
    public static let simple = Transformation(1, 0, -1, 0)

    /// Projected coordinates to pixels at `scale`.
    @inlinable
    public func transform(x: Double, y: Double, scale: Double) -> PixelPoint {
        PixelPoint(x: scale * (a * x + b), y: scale * (c * y + d))
    }

    /// Pixels at `scale` back to projected coordinates.
    @inlinable
    public func untransform(_ point: PixelPoint, scale: Double) -> (x: Double, y: Double) {
        ((point.x / scale - b) / a, (point.y / scale - d) / c)
    }
}
