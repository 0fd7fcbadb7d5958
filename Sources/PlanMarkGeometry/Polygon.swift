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
    /// Where the drawing prints the region's label (its number, name, area), pixels; nil when unknown. Review images
    /// keep pins off it where there is room (`properties.labelBox` in a regions file).
    public let labelBox: BoundingBox?

    /// Creates a region from checked polygons (at least one), and checks how their rings lie
    /// together (OGC validity, in a stricter form): distinct rings may not touch or cross at all;
    /// every hole lies inside its own polygon's outer ring and in no other hole of that polygon; no
    /// polygon lies inside another one's outer ring unless it is inside one of that one's holes.
    /// - Complexity: O(n log n) time and O(n) memory for n vertices in all rings (one sweep over
    ///   every edge, `SegmentSweep`, when there is more than one ring; then O(r log r) for r rings).
    public init(id: String, kind: RegionKind = .room, name: String? = nil, polygons: [Polygon],
                labelBox: BoundingBox? = nil) throws(GeometryError) {
        guard !polygons.isEmpty else { throw .empty(region: id) }
        try Region.checkRingsApart(region: id, polygons)
        self.id = id
        self.kind = kind
        self.name = name
        self.polygons = polygons
        self.labelBox = labelBox
        var box = polygons[0].exterior.bounds
        for polygon in polygons.dropFirst() { box.formUnion(polygon.exterior.bounds) }
        self.bounds = box
    }

    /// Creates a region from raw coordinates: `polygons[p][r]` is ring `r` of polygon `p`.
    public init(id: String, kind: RegionKind = .room, name: String? = nil, coordinates: [[[PixelPoint]]],
                labelBox: BoundingBox? = nil) throws(GeometryError) {
        var polygons: [Polygon] = []
        for (index, rings) in coordinates.enumerated() {
            polygons.append(try Polygon(rings: rings, region: id, polygonIndex: index))
        }
        try self.init(id: id, kind: kind, name: name, polygons: polygons, labelBox: labelBox)
    }
}

extension Region {
    /// Refuses regions whose rings meet or nest wrongly; see `init(id:kind:name:polygons:)`.
    ///
    /// One sweep over all edges finds two rings that meet; if none do, it also gives each ring the
    /// ring that directly encloses it (`SegmentSweep`), and the rings form a forest. Walking it from
    /// the top, each ring is checked against its parent only: an outer ring must have none or a
    /// hole as its parent, a hole its own polygon's outer ring. The first ring that fails names the
    /// problem: its ancestors are valid, which makes the message exact.
    /// - Complexity: O(n log n) time, O(n) memory for n vertices in all rings.
    static func checkRingsApart(region: String, _ polygons: [Polygon]) throws(GeometryError) {
        var rings: [[PixelPoint]] = []
        var positions: [RingPosition] = []
        var shellOf: [Int] = []  // the ring number of each polygon's outer ring
        for (p, polygon) in polygons.enumerated() {
            shellOf.append(rings.count)
            rings.append(polygon.exterior.vertices)
            positions.append(RingPosition(polygon: p, ring: 0))
            for (h, hole) in polygon.holes.enumerated() {
                rings.append(hole.vertices)
                positions.append(RingPosition(polygon: p, ring: h + 1))
            }
        }
        guard rings.count > 1 else { return }
        let sweep = SegmentSweep(rings: rings)
        let parents: [Int?]
        switch sweep.run(findParents: true) {
        case let .meet(e, f):
            // Each ring is simple on its own (checked when it was made), so e and f are of two rings.
            let a = Int(sweep.ringOf[e]), b = Int(sweep.ringOf[f])
            let (first, second) = a <= b ? (e, f) : (f, e)
            let r1 = Int(sweep.ringOf[first]), r2 = Int(sweep.ringOf[second])
            throw .ringsMeet(region: region, at: positions[r1], edge: first - sweep.ringStarts[r1],
                             other: positions[r2], otherEdge: second - sweep.ringStarts[r2])
        case let .disjoint(found):
            parents = found
        }
        // The forest: children in ring order, a preorder walk, and entry/exit numbers so that
        // "is a inside b" is two comparisons.
        let count = rings.count
        // Children of ring k (the top level as k = count): children[childStarts[k + 1] ..< childStarts[k + 2]].
        var childStarts = [Int](repeating: 0, count: count + 3)
        for parent in parents { childStarts[(parent ?? count) + 2] += 1 }
        for k in 0...(count + 1) { childStarts[k + 1] += childStarts[k] }
        var children = [Int](repeating: 0, count: count)
        var fill = childStarts
        for (ring, parent) in parents.enumerated() {
            children[fill[(parent ?? count) + 1]] = ring
            fill[(parent ?? count) + 1] += 1
        }
        func childList(_ ring: Int?) -> ArraySlice<Int> {
            let k = (ring ?? count)
            return children[childStarts[k + 1]..<childStarts[k + 2]]
        }
        var entry = [Int](repeating: 0, count: count), exit = entry
        var preorder: [Int] = []
        preorder.reserveCapacity(count)
        var stack: [(ring: Int, next: Int)] = childList(nil).reversed().map { ($0, -1) }
        var clock = 0
        while let top = stack.popLast() {
            if top.next < 0 {
                entry[top.ring] = clock
                clock += 1
                preorder.append(top.ring)
                stack.append((top.ring, 0))
                for child in childList(top.ring).reversed() { stack.append((child, -1)) }
            } else {
                exit[top.ring] = clock
            }
        }
        func isInside(_ a: Int, _ b: Int) -> Bool { entry[b] < entry[a] && exit[a] <= exit[b] }
        for ring in preorder {
            let position = positions[ring]
            let parent = parents[ring]
            if position.ring == 0 {
                // An outer ring: at the top, or in a hole of another polygon.
                if let parent, positions[parent].ring == 0 {
                    throw .polygonInsidePolygon(region: region, polygon: position.polygon,
                                                enclosingPolygon: positions[parent].polygon)
                }
                continue
            }
            let shell = shellOf[position.polygon]
            if parent == shell { continue }
            guard isInside(ring, shell) else { throw .holeOutsideShell(region: region, at: position) }
            // Inside its outer ring but not directly: the outer ring's child on the way down is a
            // valid ring (checked before) whose parent is an outer ring, so it is one of the
            // polygon's own holes. Children are in preorder, so a binary search finds it.
            let siblings = childList(shell)
            var low = siblings.startIndex, high = siblings.endIndex
            while high - low > 1 {
                let mid = (low + high) / 2
                if entry[siblings[mid]] <= entry[ring] { low = mid } else { high = mid }
            }
            throw .holeInsideHole(region: region, at: position, enclosingHole: positions[siblings[low]].ring)
        }
    }
}
