/// Where in a region a ring sits: which polygon of a multipolygon, and which ring of it
/// (0 is the outer ring, 1... are the holes).
public struct RingPosition: Hashable, Sendable, CustomStringConvertible {
    /// Index of the polygon in the region (0 for a plain polygon).
    public var polygon: Int
    /// Index of the ring in its polygon: 0 the outer ring, then the holes.
    public var ring: Int

    /// Creates a ring position.
    public init(polygon: Int, ring: Int) {
        self.polygon = polygon
        self.ring = ring
    }

    /// `polygon P ring R`, or just `ring R` for the first polygon.
    public var description: String { polygon == 0 ? "ring \(ring)" : "polygon \(polygon) ring \(ring)" }
}

/// Why a region's geometry was refused when it was loaded.
public enum GeometryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A ring has fewer than three distinct vertices.
    case tooFewVertices(region: String, at: RingPosition, count: Int)
    /// A vertex is NaN or infinite.
    case nonFiniteCoordinate(region: String, at: RingPosition, vertex: Int)
    /// All of a ring's vertices lie on one line.
    case zeroArea(region: String, at: RingPosition)
    /// Two edges of a ring cross or touch away from their shared vertex.
    case selfIntersecting(region: String, at: RingPosition, edge: Int, otherEdge: Int)
    /// A region has no polygon at all.
    case empty(region: String)

    /// One line for the user, naming the region and the ring.
    public var description: String {
        switch self {
        case let .tooFewVertices(region, at, count):
            return "region \(region): \(at): needs at least 3 distinct vertices, has \(count)"
        case let .nonFiniteCoordinate(region, at, vertex):
            return "region \(region): \(at): vertex \(vertex) is not a finite number"
        case let .zeroArea(region, at):
            return "region \(region): \(at): has zero area (all vertices on one line)"
        case let .selfIntersecting(region, at, edge, otherEdge):
            return "region \(region): \(at): is self-intersecting (edges \(edge) and \(otherEdge) meet)"
        case let .empty(region):
            return "region \(region): has no polygon"
        }
    }
}
