/// The side of a directed line a point lies on.
public enum Orientation: Int8, Sendable {
    /// Clockwise in a y-up frame: the point is to the right of `a -> b`.
    case clockwise = -1
    /// The three points lie on one line.
    case collinear = 0
    /// Counter-clockwise in a y-up frame: the point is to the left of `a -> b`.
    case counterClockwise = 1
}

/// Exact orientation of three points, after Shewchuk's `orient2d`: a floating-point filter with a
/// proven error bound answers almost every call; when it cannot, the determinant is evaluated exactly
/// as a floating-point expansion.
///
/// The result is the exact sign of `(a.x - c.x) * (b.y - c.y) - (a.y - c.y) * (b.x - c.x)` for all
/// finite inputs whose pairwise products neither overflow nor underflow (magnitudes between about
/// 1e-140 and 1e150, or zero), which covers every pixel coordinate.
/// - Complexity: O(1).
@inlinable
public func orientation(_ a: PixelPoint, _ b: PixelPoint, _ c: PixelPoint) -> Orientation {
    let detLeft = (a.x - c.x) * (b.y - c.y)
    let detRight = (a.y - c.y) * (b.x - c.x)
    let det = detLeft - detRight
    let detSum: Double
    if detLeft > 0 {
        if detRight <= 0 { return sign(of: det) }
        detSum = detLeft + detRight
    } else if detLeft < 0 {
        if detRight >= 0 { return sign(of: det) }
        detSum = -detLeft - detRight
    } else {
        return sign(of: det)
    }
    // Shewchuk's ccwerrboundA = (3 + 16 eps) eps, with eps = 2^-53.
    let errorBound = 3.3306690738754716e-16 * detSum
    if det >= errorBound || -det >= errorBound { return sign(of: det) }
    return exactOrientation(a, b, c)
}

@inlinable
func sign(of value: Double) -> Orientation {
    value > 0 ? .counterClockwise : (value < 0 ? .clockwise : .collinear)
}

/// The exact sign of the orientation determinant, expanded so that every term is one product of
/// input coordinates: `ax*by - ax*cy - cx*by - ay*bx + ay*cx + cy*bx` (the `cx*cy` terms cancel).
/// Each product is split exactly into a high and a low double with a fused multiply-add, and the
/// twelve parts are summed into a non-overlapping expansion whose largest component has the sign.
@usableFromInline
func exactOrientation(_ a: PixelPoint, _ b: PixelPoint, _ c: PixelPoint) -> Orientation {
    var expansion = Expansion()
    expansion.addProduct(a.x, b.y)
    expansion.addProduct(-a.x, c.y)
    expansion.addProduct(-c.x, b.y)
    expansion.addProduct(-a.y, b.x)
    expansion.addProduct(a.y, c.x)
    expansion.addProduct(c.y, b.x)
    return sign(of: expansion.signValue)
}

/// A sum of doubles kept exactly, as a sequence of non-overlapping components in increasing
/// magnitude (Shewchuk's expansions, grown with `Two-Sum`).
@usableFromInline
struct Expansion {
    // Twelve parts at most are added; an expansion of n inputs has at most n components.
    @usableFromInline var components: [Double] = []

    @usableFromInline init() { components.reserveCapacity(12) }

    /// Adds `x * y` exactly: the rounded product and its rounding error.
    @usableFromInline
    mutating func addProduct(_ x: Double, _ y: Double) {
        let product = x * y
        let error = (-product).addingProduct(x, y)  // fma(x, y, -product), exact
        add(error)
        add(product)
    }

    /// Grow-Expansion with zero elimination: adds `value` exactly.
    @usableFromInline
    mutating func add(_ value: Double) {
        var q = value
        var index = 0
        for component in components {
            let sum = q + component
            let bVirtual = sum - q
            let aVirtual = sum - bVirtual
            let error = (q - aVirtual) + (component - bVirtual)
            q = sum
            if error != 0 {
                components[index] = error
                index += 1
            }
        }
        components.removeSubrange(index...)
        if q != 0 { components.append(q) }
    }

    /// A double with the sign of the exact sum (its largest component).
    @usableFromInline
    var signValue: Double { components.last ?? 0 }
}
