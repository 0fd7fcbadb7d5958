/// One point of an alignment: where a feature is on the previous sheet and where it is on the new one.
public struct AlignmentPair: Hashable, Sendable {
    /// The position on the previous revision's image.
    public var from: PixelPoint
    /// The same feature's position on the new revision's image.
    public var to: PixelPoint

    /// Creates a pair.
    public init(from: PixelPoint, to: PixelPoint) {
        self.from = from
        self.to = to
    }
}

/// Why pairs of points do not determine a transform.
public enum AlignmentError: Error, Hashable, Sendable, CustomStringConvertible {
    /// One pair, or more than two pairs whose count is below what the fit needs.
    case tooFewPairs(count: Int)
    /// A coordinate is NaN or infinite (pair index, 0-based).
    case nonFinite(pair: Int)
    /// The two pairs of a similarity share their previous (`to == false`) or new (`to == true`) position.
    case coincidentPoints(to: Bool)
    /// The previous positions of three or more pairs lie on one line: the affine is not determined.
    case collinearPoints
    /// The fitted transform flattens the sheet onto a line (the new positions lie on one line).
    case singularTransform
    /// The fitted transform's coefficients, or a pair's carried position, are not finite numbers (positions too
    /// far apart or too close together for a double).
    case notFinite
    /// The fitted transform carries two distinct previous positions to one place (a scale that underflows).
    case collapses

    /// One line for the user.
    public var description: String {
        switch self {
        case .tooFewPairs(let count):
            return "\(count) point pair\(count == 1 ? "" : "s"): give none (the identity), two (a similarity) or three or more (an affine)"
        case .nonFinite(let pair):
            return "point pair \(pair + 1) has a coordinate that is not a finite number"
        case .coincidentPoints(let to):
            return "the two pairs' \(to ? "new" : "previous") positions coincide: they do not fix a scale and rotation"
        case .collinearPoints:
            return "the previous positions all lie on one line: they do not fix an affine transform"
        case .singularTransform:
            return "the new positions all lie on one line: the transform would flatten the sheet"
        case .notFinite:
            return "the transform these pairs give is not made of finite numbers (positions too far apart or too close together)"
        case .collapses:
            return "the transform these pairs give carries distinct previous positions to the same place"
        }
    }
}

/// A transform fitted to point pairs, with how far each pair's previous position lands from its new one.
public struct Alignment: Hashable, Sendable {
    /// The fitted transform (previous sheet to new sheet).
    public var transform: AffineMap
    /// For each pair, in order, the distance in new-sheet pixels between the transformed previous position
    /// and the given new position (zero for the identity and, up to rounding, for a similarity).
    public var residuals: [Double]

    /// Creates an alignment.
    public init(transform: AffineMap, residuals: [Double]) {
        self.transform = transform
        self.residuals = residuals
    }

    /// The largest residual (0 without pairs).
    public var maxResidual: Double { residuals.max() ?? 0 }

    /// The identity (no pairs).
    public static let identity = Alignment(transform: .identity, residuals: [])

    /// The transform `pairs` determine: none, the identity; two, the similarity (`similarity(_:_:)`); three or
    /// more, the least-squares affine (`leastSquaresAffine(_:)`).
    /// - Complexity: O(n) for n pairs.
    public static func fit(_ pairs: [AlignmentPair]) throws(AlignmentError) -> Alignment {
        for (index, pair) in pairs.enumerated() where !(pair.from.isFinite && pair.to.isFinite) {
            throw .nonFinite(pair: index)
        }
        let alignment: Alignment
        switch pairs.count {
        case 0: return .identity
        case 1: throw .tooFewPairs(count: 1)
        case 2: alignment = try similarity(pairs[0], pairs[1])
        default: alignment = try leastSquaresAffine(pairs)
        }
        try alignment.transform.checkCarries(pairs.map(\.from))
        return alignment
    }

    /// The similarity (uniform scale, rotation, translation; no reflection) that maps both pairs exactly.
    ///
    /// As complex numbers `z -> s z + t` with `s = (w2 - w1) / (z2 - z1)` and `t = w1 - s z1`, so
    /// `a = e = Re s`, `d = -b = Im s`.
    /// - Complexity: O(1).
    public static func similarity(_ first: AlignmentPair, _ second: AlignmentPair) throws(AlignmentError) -> Alignment {
        let zx = second.from.x - first.from.x, zy = second.from.y - first.from.y
        let wx = second.to.x - first.to.x, wy = second.to.y - first.to.y
        guard zx != 0 || zy != 0 else { throw .coincidentPoints(to: false) }
        guard wx != 0 || wy != 0 else { throw .coincidentPoints(to: true) }
        let norm = zx * zx + zy * zy
        guard norm > 0, norm.isFinite else { throw .notFinite }
        let sr = (wx * zx + wy * zy) / norm
        let si = (wy * zx - wx * zy) / norm
        let c = first.to.x - (sr * first.from.x - si * first.from.y)
        let f = first.to.y - (si * first.from.x + sr * first.from.y)
        let transform = AffineMap(a: sr, b: -si, c: c, d: si, e: sr, f: f)
        return Alignment(transform: transform, residuals: residuals(of: transform, [first, second]))
    }

    /// The affine transform minimising the sum of squared distances between the transformed previous
    /// positions and the new ones, over three or more pairs.
    ///
    /// Each output coordinate is an independent linear least-squares problem in three unknowns. The
    /// positions are centred on their means first, which splits off the constant and leaves a 2 x 2
    /// system of normal equations `[Sxx Sxy; Sxy Syy] [a b]^T = [SxX SyX]^T` of centred sums: centring
    /// removes the large offsets of sheet coordinates that make uncentred normal equations lose digits.
    /// The system is solved by Cramer's rule; a determinant that is not above `1e-12 * Sxx * Syy` means
    /// the previous positions are (numerically) on one line.
    /// - Complexity: O(n) for n pairs.
    public static func leastSquaresAffine(_ pairs: [AlignmentPair]) throws(AlignmentError) -> Alignment {
        guard pairs.count >= 3 else { throw .tooFewPairs(count: pairs.count) }
        let n = Double(pairs.count)
        var mx = 0.0, my = 0.0, mX = 0.0, mY = 0.0
        for pair in pairs {
            mx += pair.from.x; my += pair.from.y; mX += pair.to.x; mY += pair.to.y
        }
        mx /= n; my /= n; mX /= n; mY /= n
        var sxx = 0.0, sxy = 0.0, syy = 0.0, sxX = 0.0, syX = 0.0, sxY = 0.0, syY = 0.0
        for pair in pairs {
            let x = pair.from.x - mx, y = pair.from.y - my
            let tx = pair.to.x - mX, ty = pair.to.y - mY
            sxx += x * x; sxy += x * y; syy += y * y
            sxX += x * tx; syX += y * tx; sxY += x * ty; syY += y * ty
        }
        let det = sxx * syy - sxy * sxy
        guard sxx > 0, syy > 0, det > 1e-12 * sxx * syy else { throw .collinearPoints }
        let a = (sxX * syy - syX * sxy) / det
        let b = (syX * sxx - sxX * sxy) / det
        let d = (sxY * syy - syY * sxy) / det
        let e = (syY * sxx - sxY * sxy) / det
        let transform = AffineMap(a: a, b: b, c: mX - a * mx - b * my, d: d, e: e, f: mY - d * mx - e * my)
        guard transform.coefficients.allSatisfy(\.isFinite) else { throw .notFinite }
        let scale = (abs(a) + abs(b)) * (abs(d) + abs(e))
        guard transform.determinant != 0, abs(transform.determinant) > 1e-12 * scale else { throw .singularTransform }
        return Alignment(transform: transform, residuals: residuals(of: transform, pairs))
    }

    /// Each pair's distance between its transformed previous position and its new position.
    /// - Complexity: O(n) for n pairs.
    public static func residuals(of transform: AffineMap, _ pairs: [AlignmentPair]) -> [Double] {
        pairs.map { pair in
            let p = transform.apply(pair.from)
            let dx = p.x - pair.to.x, dy = p.y - pair.to.y
            return (dx * dx + dy * dy).squareRoot()
        }
    }
}
