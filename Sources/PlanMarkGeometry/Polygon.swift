/// A polygon: one outer ring and any number of holes. Inside a hole is outside the polygon; a hole's
/// ring is part of the polygon's boundary.
public struct Polygon: Hashable, Sendable {
    /// The outer ring.
    public let exterior: Ring
    /// The holes, each a ring inside the outer one.
    public let holes: [Ring]

    /// Creates a polygon from checked rings.
    public init(exterior: Ring, holes: [Ring] = []) {
        self.exterior = exterior
        self.holes = holes
    }

    /// Checks and normalises the rings of one polygon (`rings[0]` outer, the rest holes).
    public init(rings: [[PixelPoint]], region: String, polygonIndex: Int) throws(GeometryError) {
        guard let first = rings.first else { throw .empty(region: region) }
        exterior = try Ring(first, region: region, at: RingPosition(polygon: polygonIndex, ring: 0))
        var holes: [Ring] = []
        for (index, ring) in rings.enumerated().dropFirst() {
            holes.append(try Ring(ring, region: region, at: RingPosition(polygon: polygonIndex, ring: index)))
        }
        self.holes = holes
    }
}

/// What a region is for.
public enum RegionKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A room: markers covered by it belong to it.
    case room
    /// An allowed area: when a drawing has any, a marker must lie in one of them.
    case allowed
}

/// A named area of a drawing: a room or an allowed area, as a polygon or a multipolygon in pixels.
public struct Region: Hashable, Sendable {
    /// The region's id, unique within its drawing.
    public let id: String
    /// Room or allowed area.
    public let kind: RegionKind
    /// An optional human name ("2.04 Kitchen").
    public let name: String?
    /// The polygons; more than one for a multipolygon.
    public let polygons: [Polygon]
    /// The smallest box holding every polygon.
    public let bounds: BoundingBox

    /// Creates a region from checked polygons (at least one).
    public init(id: String, kind: RegionKind = .room, name: String? = nil, polygons: [Polygon]) throws(GeometryError) {
        guard !polygons.isEmpty else { throw .empty(region: id) }
        self.id = id
        self.kind = kind
        self.name = name
        self.polygons = polygons
        var box = polygons[0].exterior.bounds
        for polygon in polygons.dropFirst() { box.formUnion(polygon.exterior.bounds) }
        self.bounds = box
    }

    /// Creates a region from raw coordinates: `polygons[p][r]` is ring `r` of polygon `p`.
    public init(id: String, kind: RegionKind = .room, name: String? = nil, coordinates: [[[PixelPoint]]]) throws(GeometryError) {
        var polygons: [Polygon] = []
        for (index, rings) in coordinates.enumerated() {
            polygons.append(try Polygon(rings: rings, region: id, polygonIndex: index))
        }
        try self.init(id: id, kind: kind, name: name, polygons: polygons)
    }
}
