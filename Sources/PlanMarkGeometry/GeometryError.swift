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
    /// Two distinct rings of one region (a polygon's outer ring and a hole, two holes, or rings of
    /// two polygons of a multipolygon) touch or cross: edge `edge` of the ring at `at` meets edge
    /// `otherEdge` of the ring at `other`. Rings of one region may not share even a point.
    case ringsMeet(region: String, at: RingPosition, edge: Int, other: RingPosition, otherEdge: Int)
    /// A hole is not inside its polygon's outer ring.
    case holeOutsideShell(region: String, at: RingPosition)
    /// A hole lies inside another hole of the same polygon (ring `enclosingHole`).
    case holeInsideHole(region: String, at: RingPosition, enclosingHole: Int)
    /// Polygon `polygon` of a multipolygon lies inside polygon `enclosingPolygon` (inside its outer
    /// ring and in none of its holes), so their interiors overlap.
    case polygonInsidePolygon(region: String, polygon: Int, enclosingPolygon: Int)

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
        case let .ringsMeet(region, at, edge, other, otherEdge):
            let what: String
            if at.polygon != other.polygon {
                what = "polygon \(at.polygon) and polygon \(other.polygon) touch or cross"
            } else if at.ring == 0 || other.ring == 0 {
                what = "hole ring \(max(at.ring, other.ring)) touches or crosses the outer ring"
            } else {
                what = "holes ring \(at.ring) and ring \(other.ring) touch or cross"
            }
            let first = at.polygon == 0 ? "ring \(at.ring)" : "polygon \(at.polygon) ring \(at.ring)"
            let second = other.polygon == 0 ? "ring \(other.ring)" : "polygon \(other.polygon) ring \(other.ring)"
            let prefix = at.polygon == other.polygon && at.polygon != 0 ? "polygon \(at.polygon): " : ""
            return "region \(region): \(prefix)\(what) (edge \(edge) of \(first) meets edge \(otherEdge) of \(second));"
                + " rings of a region may not share a point"
        case let .holeOutsideShell(region, at):
            return "region \(region): \(at): hole is not inside its polygon's outer ring"
        case let .holeInsideHole(region, at, enclosingHole):
            return "region \(region): \(at): hole lies inside another hole (ring \(enclosingHole))"
        case let .polygonInsidePolygon(region, polygon, enclosingPolygon):
            return "region \(region): polygon \(polygon) lies inside polygon \(enclosingPolygon)"
                + " (inside its outer ring and in none of its holes): their interiors overlap"
        }
    }
}
