/// A closed ring of a polygon, normalised: the closing vertex is implicit and no two consecutive
/// vertices are equal. Either orientation is accepted.
public struct Ring: Hashable, Sendable {
    /// The distinct vertices in order; the last connects back to the first.
    public let vertices: [PixelPoint]
    /// The smallest box holding the ring.
    public let bounds: BoundingBox

    /// Normalises and checks `points`: a repeated last vertex (explicit closure) and consecutive
    /// duplicates are dropped; the ring is refused if a coordinate is not finite, fewer than three
    /// distinct vertices remain, all vertices are collinear, or two edges meet away from a shared vertex.
    /// - Complexity: O(n log n) time and O(n) memory for n vertices, whatever the ring's shape.
    public init(_ points: [PixelPoint], region: String, at position: RingPosition) throws(GeometryError) {
        for (index, point) in points.enumerated() where !point.isFinite {
            throw .nonFiniteCoordinate(region: region, at: position, vertex: index)
        }
        var cleaned: [PixelPoint] = []
        cleaned.reserveCapacity(points.count)
        for point in points where cleaned.last != point {
            cleaned.append(point)
        }
        while cleaned.count > 1 && cleaned.first == cleaned.last {
            cleaned.removeLast()
        }
        let distinct = Set(cleaned).count
        guard cleaned.count >= 3, distinct >= 3 else {
            throw .tooFewVertices(region: region, at: position, count: distinct)
        }
        let anchor = cleaned[0]
        guard let second = cleaned.first(where: { $0 != anchor }),
              cleaned.contains(where: { orientation(anchor, second, $0) != .collinear })
        else {
            throw .zeroArea(region: region, at: position)
        }
        if let (edge, other) = Ring.firstSelfIntersection(cleaned) {
            throw .selfIntersecting(region: region, at: position, edge: edge, otherEdge: other)
        }
        self.vertices = cleaned
        self.bounds = BoundingBox(cleaned)
    }

    /// The pair of edges that meet improperly, if any. Edge `i` runs from vertex `i` to `i + 1`.
    /// Neighbouring edges may share their common vertex but must not fold back over each other.
    /// Rings of fewer than `sweepFrom` vertices (rooms) test every pair of edges, at most 465 pairs
    /// and no allocation; larger ones use the sweep.
    /// - Complexity: O(n log n) time and O(n) memory whatever the ring's shape: a Shamos-Hoey sweep
    ///   (`SegmentSweep`) after an O(n) test of neighbouring edges; O(1) below `sweepFrom`.
    static func firstSelfIntersection(_ v: [PixelPoint], sweepFrom: Int = 32) -> (Int, Int)? {
        let n = v.count
        func end(_ i: Int) -> PixelPoint { v[i + 1 == n ? 0 : i + 1] }
        // Neighbours: a fold-back (spike) is collinear with a reversed direction.
        for i in 0..<n {
            let a = v[i], b = end(i), c = end(i + 1 == n ? 0 : i + 1)
            if orientation(a, b, c) == .collinear && reverses(a, b, c) {
                return (i, i + 1 == n ? 0 : i + 1)
            }
        }
        if n == 3 { return nil }
        if n < sweepFrom {
            for i in 0..<(n - 2) {
                let a = v[i], b = end(i)
                // Neighbours share one vertex and meet nowhere else unless one folds back over
                // the other, which the collinear test above has ruled out.
                for j in (i + 2)..<n where !(i == 0 && j == n - 1) && segmentsIntersect(a, b, v[j], end(j)) {
                    return (i, j)
                }
            }
            return nil
        }
        switch SegmentSweep(rings: [v]).run(findParents: false) {
        case let .meet(edge, other): return (edge, other)
        case .disjoint: return nil
        }
    }

    /// For collinear `a, b, c`: true when `b -> c` goes back over `a -> b`.
    static func reverses(_ a: PixelPoint, _ b: PixelPoint, _ c: PixelPoint) -> Bool {
        func direction(_ from: Double, _ to: Double) -> Int { from < to ? 1 : (from > to ? -1 : 0) }
        return direction(a.x, b.x) * direction(b.x, c.x) < 0 || direction(a.y, b.y) * direction(b.y, c.y) < 0
    }

    /// Twice the signed area by the shoelace formula (positive when counter-clockwise in a y-up frame).
    /// - Complexity: O(n).
    public var doubleSignedArea: Double {
        var sum = 0.0
        var previous = vertices[vertices.count - 1]
        for vertex in vertices {
            sum += previous.x * vertex.y - vertex.x * previous.y
            previous = vertex
        }
        return sum
    }
}

/// An axis-aligned box, closed on all sides.
public struct BoundingBox: Hashable, Sendable {
    /// Smallest x.
    public var minX: Double
    /// Smallest y.
    public var minY: Double
    /// Largest x.
    public var maxX: Double
    /// Largest y.
    public var maxY: Double

    /// Creates a box from its four sides.
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// The smallest box holding `points` (which must not be empty).
    public init(_ points: [PixelPoint]) {
        var box = BoundingBox(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
        for point in points { box.formUnion(point) }
        self = box
    }

    /// Grows the box to hold `point`.
    @inlinable
    public mutating func formUnion(_ point: PixelPoint) {
        minX = min(minX, point.x)
        minY = min(minY, point.y)
        maxX = max(maxX, point.x)
        maxY = max(maxY, point.y)
    }

    /// Grows the box to hold `other`.
    @inlinable
    public mutating func formUnion(_ other: BoundingBox) {
        minX = min(minX, other.minX)
        minY = min(minY, other.minY)
        maxX = max(maxX, other.maxX)
        maxY = max(maxY, other.maxY)
    }

    /// True when `point` is in the box or on its sides.
    @inlinable
    public func contains(_ point: PixelPoint) -> Bool {
        point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
    }
}
