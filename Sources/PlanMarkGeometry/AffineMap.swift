/// A plane affine transform of pixel positions: `x' = a x + b y + c`, `y' = d x + e y + f`.
///
/// Carries a drawing's markers and regions from one revision of its sheet to the next (`Alignment`).
public struct AffineMap: Encodable, Hashable, Sendable {
    /// Coefficient of `x` in `x'`.
    public var a: Double
    /// Coefficient of `y` in `x'`.
    public var b: Double
    /// Constant of `x'`.
    public var c: Double
    /// Coefficient of `x` in `y'`.
    public var d: Double
    /// Coefficient of `y` in `y'`.
    public var e: Double
    /// Constant of `y'`.
    public var f: Double

    /// Creates the transform `x' = a x + b y + c`, `y' = d x + e y + f`.
    @inlinable
    public init(a: Double, b: Double, c: Double, d: Double, e: Double, f: Double) {
        self.a = a; self.b = b; self.c = c
        self.d = d; self.e = e; self.f = f
    }

    /// The transform that leaves every point where it is.
    public static let identity = AffineMap(a: 1, b: 0, c: 0, d: 0, e: 1, f: 0)

    /// A pure translation by `(dx, dy)`.
    public static func translation(dx: Double, dy: Double) -> AffineMap {
        AffineMap(a: 1, b: 0, c: dx, d: 0, e: 1, f: dy)
    }

    /// True for the identity (every coefficient exactly the identity's).
    public var isIdentity: Bool { self == .identity }

    /// `a e - b d`: the factor areas are scaled by; negative when the transform mirrors, zero when it
    /// flattens the plane onto a line.
    public var determinant: Double { a * e - b * d }

    /// The six coefficients in the order `a, b, c, d, e, f`.
    public var coefficients: [Double] { [a, b, c, d, e, f] }

    /// `point` transformed.
    /// - Complexity: O(1).
    @inlinable
    public func apply(_ point: PixelPoint) -> PixelPoint {
        PixelPoint(x: a * point.x + b * point.y + c, y: d * point.x + e * point.y + f)
    }

    /// `point` transformed, or nil when the result is not a pair of finite numbers (a huge scale overflows).
    /// - Complexity: O(1).
    @inlinable
    public func carried(_ point: PixelPoint) -> PixelPoint? {
        let result = apply(point)
        return result.isFinite ? result : nil
    }

    /// Checks that the transform is usable for `points` (a fit's control points): every coefficient finite, the
    /// determinant not zero, every point carried to a finite position, and distinct
    /// points to distinct positions.
    /// - Complexity: O(n) expected for n points (one hash set).
    public func checkCarries(_ points: [PixelPoint]) throws(AlignmentError) {
        // The determinant may overflow (a scale of 1e308 is absurd but carries the control points): only NaN
        // and zero are refused.
        guard coefficients.allSatisfy(\.isFinite), !determinant.isNaN else { throw .notFinite }
        guard determinant != 0 else { throw .collapses }
        var images: [PixelPoint: PixelPoint] = [:]
        for point in points {
            guard let image = carried(point) else { throw .notFinite }
            if let other = images[image], other != point { throw .collapses }
            images[image] = point
        }
    }

    /// The transform that applies `self` first, then `next`.
    /// - Complexity: O(1).
    public func followed(by next: AffineMap) -> AffineMap {
        AffineMap(a: next.a * a + next.b * d, b: next.a * b + next.b * e, c: next.a * c + next.b * f + next.c,
                        d: next.d * a + next.e * d, e: next.d * b + next.e * e, f: next.d * c + next.e * f + next.f)
    }
}
