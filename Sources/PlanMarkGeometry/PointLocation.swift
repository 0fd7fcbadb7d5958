/// Where a point lies relative to an area.
public enum PointLocation: String, Sendable, Hashable, Codable {
    /// Strictly inside: not on any ring.
    case inside
    /// On a ring (an outer wall or a hole's edge), vertices included.
    case boundary
    /// Strictly outside, or inside a hole.
    case outside
}

/// Whether a point on a region's boundary counts as covered by it.
public enum BoundaryRule: String, Sendable, Hashable, Codable, CaseIterable {
    /// A point on a wall is covered (Turf's default, PostGIS `ST_Covers`).
    case include
    /// Only points strictly inside are covered (`ST_Contains` on the interior).
    case exclude

    /// True when a point at `location` is covered under this rule.
    @inlinable
    public func covers(_ location: PointLocation) -> Bool {
        switch location {
        case .inside: return true
        case .boundary: return self == .include
        case .outside: return false
        }
    }
}

/// Counts crossings of a horizontal ray from a point towards +x, as GEOS's `RayCrossingCounter` does,
/// with every side test made by the exact `orientation` predicate (never an x-intercept division).
///
/// Conventions that keep shared vertices from counting twice: an upward edge includes its start and
/// excludes its end, a downward edge the reverse; horizontal edges never count but detect the
/// boundary. A point equal to a vertex or on an edge is reported as on the boundary.
@usableFromInline
struct RayCrossingCounter {
    @usableFromInline let point: PixelPoint
    @usableFromInline var crossings = 0
    @usableFromInline var onBoundary = false

    @inlinable init(_ point: PixelPoint) { self.point = point }

    /// Accounts for the edge `p1 -> p2`.
    /// - Complexity: O(1).
    @inlinable
    mutating func count(_ p1: PixelPoint, _ p2: PixelPoint) {
        if p1.x < point.x && p2.x < point.x { return }
        if point.x == p2.x && point.y == p2.y {
            onBoundary = true
            return
        }
        if p1.y == point.y && p2.y == point.y {
            if point.x >= min(p1.x, p2.x) && point.x <= max(p1.x, p2.x) { onBoundary = true }
            return
        }
        if (p1.y > point.y && p2.y <= point.y) || (p2.y > point.y && p1.y <= point.y) {
            var side = orientation(p1, p2, point).rawValue
            if side == 0 {
                onBoundary = true
                return
            }
            if p2.y < p1.y { side = -side }
            if side > 0 { crossings += 1 }
        }
    }

    /// The location the counted edges imply.
    @inlinable
    var location: PointLocation {
        onBoundary ? .boundary : (crossings & 1 == 1 ? .inside : .outside)
    }
}

extension Ring {
    /// Locates `point` against this ring alone by ray crossing.
    /// - Complexity: O(n) for n vertices.
    public func locate(_ point: PixelPoint) -> PointLocation {
        guard bounds.contains(point) else { return .outside }
        var counter = RayCrossingCounter(point)
        var previous = vertices[vertices.count - 1]
        for vertex in vertices {
            counter.count(previous, vertex)
            if counter.onBoundary { return .boundary }
            previous = vertex
        }
        return counter.location
    }
}

extension Polygon {
    /// Locates `point`: outside the outer ring or inside a hole is outside; on any ring is boundary.
    /// - Complexity: O(n) for n vertices in all rings.
    public func locate(_ point: PixelPoint) -> PointLocation {
        let outer = exterior.locate(point)
        guard outer == .inside else { return outer }
        for hole in holes {
            switch hole.locate(point) {
            case .outside: continue
            case .boundary: return .boundary
            case .inside: return .outside
            }
        }
        return .inside
    }
}

extension Region {
    /// Locates `point` against every polygon: inside any is inside, else on any is boundary.
    /// - Complexity: O(n) for n vertices in all rings.
    public func locate(_ point: PixelPoint) -> PointLocation {
        var result = PointLocation.outside
        for polygon in polygons {
            switch polygon.locate(point) {
            case .inside: return .inside
            case .boundary: result = .boundary
            case .outside: break
            }
        }
        return result
    }
}
