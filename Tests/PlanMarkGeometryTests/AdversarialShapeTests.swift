import Foundation
import Testing
@testable import PlanMarkGeometry
import PlanMarkTestSupport

extension AdversarialShape: CustomTestStringConvertible {
    var testDescription: String { rawValue }

    /// The suite's seed; failures print it.
    static let seed: UInt64 = 0x00C0_4B5E_ED00
}

/// An independent reference: a crossing-number test over every edge, with the on-edge test first
/// (any half-open crossing rule gives the right parity off the boundary).
func referenceLocation(_ point: PixelPoint, rings: [[PixelPoint]]) -> PointLocation {
    func onEdge(_ ring: [PixelPoint]) -> Bool {
        for i in ring.indices {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            if orientation(a, b, point) == .collinear,
               point.x >= min(a.x, b.x), point.x <= max(a.x, b.x), point.y >= min(a.y, b.y), point.y <= max(a.y, b.y) {
                return true
            }
        }
        return false
    }
    func strictlyInside(_ ring: [PixelPoint]) -> Bool {
        var inside = false
        for i in ring.indices {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            if (a.y > point.y) != (b.y > point.y) {
                let side = orientation(a, b, point)
                if (b.y > a.y && side == .counterClockwise) || (b.y < a.y && side == .clockwise) { inside.toggle() }
            }
        }
        return inside
    }
    if rings.contains(where: onEdge) { return .boundary }
    return strictlyInside(rings[0]) && !rings.dropFirst().contains(where: strictlyInside) ? .inside : .outside
}

/// Query points for a shape: every vertex, points on edges, rays through vertices, random points.
func queryPoints(_ rings: [[PixelPoint]], count: Int, using generator: inout SeededGenerator) -> [PixelPoint] {
    let all = rings.flatMap { $0 }
    var box = BoundingBox(all)
    box.minX -= 1; box.minY -= 1; box.maxX += 1; box.maxY += 1
    var points = all
    for ring in rings {
        for i in ring.indices {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            let t = Double.random(in: 0...1, using: &generator)
            if a.x == b.x { points.append(PixelPoint(x: a.x, y: a.y + t * (b.y - a.y))) }  // exactly on it
            else if a.y == b.y { points.append(PixelPoint(x: a.x + t * (b.x - a.x), y: a.y)) }
            else { points.append(PixelPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)) }  // on it or one ulp off
        }
    }
    for _ in 0..<count {
        let vertex = all[Int.random(in: 0..<all.count, using: &generator)]
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: points.append(PixelPoint(x: Double.random(in: box.minX...box.maxX, using: &generator), y: vertex.y))
        case 1: points.append(PixelPoint(x: vertex.x.nextUp, y: vertex.y.nextDown))
        default:
            points.append(PixelPoint(x: Double.random(in: box.minX...box.maxX, using: &generator),
                                     y: Double.random(in: box.minY...box.maxY, using: &generator)))
        }
    }
    return points
}

@Suite struct AdversarialShapeTests {
    /// Every answer of the prepared region and the region index equals the reference's.
    @Test(arguments: AdversarialShape.allCases, [40, 400, 2000])
    func indexAgreesWithBruteForce(_ shape: AdversarialShape, size: Int) async throws {
        let seed = AdversarialShape.seed &+ UInt64(size)
        var generator = SeededGenerator(seed: seed)
        let rings = shape.rings(size: size, using: &generator)
        let region = try Region(id: shape.rawValue, coordinates: [rings])
        let prepared = PreparedRegion(region)
        let index = RegionIndex([region])
        var disagreements = 0
        for point in queryPoints(rings, count: 2000, using: &generator) {
            let expected = referenceLocation(point, rings: rings)
            var indexed = PointLocation.outside
            index.forEachRegion(containing: point) { _, location in indexed = location }
            let fast = prepared.locate(point)
            if fast != expected || indexed != expected {
                disagreements += 1
                if disagreements <= 3 {
                    Issue.record("\(shape) size \(size) seed \(seed) at \(point): reference \(expected), prepared \(fast), indexed \(indexed)")
                }
            }
        }
        #expect(disagreements == 0, "seed \(seed)")
    }

    /// The index holds O(n) entries whatever the shape: at most 4 per edge (bands by their rule,
    /// a tree 2 per edge), and at most n tree nodes.
    @Test(arguments: AdversarialShape.allCases)
    func indexSizeIsLinear(_ shape: AdversarialShape) async throws {
        var generator = SeededGenerator(seed: AdversarialShape.seed)
        for ring in shape.rings(size: 4000, using: &generator) where ring.count >= PreparedRing.indexThreshold {
            let prepared = PreparedRing(try Ring(ring, region: "S", at: RingPosition(polygon: 0, ring: 0)))
            let n = ring.count
            #expect(prepared.index.entryCount <= 4 * n, "\(shape): \(prepared.index.entryCount) entries for \(n) edges (seed \(generator.seed))")
            #expect(prepared.index.centers.count <= n, "\(shape) (seed \(generator.seed))")
            #expect(prepared.index.starts.count <= n + 1, "\(shape) (seed \(generator.seed))")
        }
    }

    /// A region of many rings is located through one index over all its edges: O(n) entries, and
    /// no per-ring loop at lookup time.
    @Test(arguments: [AdversarialShape.manyHoles, .combHoles])
    func manyRingsShareOneIndex(_ shape: AdversarialShape) async throws {
        var generator = SeededGenerator(seed: AdversarialShape.seed)
        let rings = shape.rings(size: 4000, using: &generator)
        let prepared = PreparedRegion(try Region(id: "H", coordinates: [rings]))
        let vertices = rings.reduce(0) { $0 + $1.count }
        let context: Comment = "\(shape) (seed \(generator.seed))"
        #expect(rings.count > PreparedRegion.combinedRingThreshold, context)
        #expect(prepared.rings.count == 1 && prepared.polygonRings == [0..<1], context)
        // One copy of each ring's first vertex closes it; each edge is indexed once.
        #expect(prepared.rings[0].vertices.count == vertices + rings.count, context)
        #expect(prepared.rings[0].indexKind != .none, context)
        #expect(prepared.rings[0].index.entryCount <= 4 * vertices, context)
    }

    /// A 20,000-tooth comb: band entries would be about teeth x bands = 20,000 x 40,000; the
    /// index is the interval tree, with exactly two entries an edge.
    @Test func combOfTwentyThousandTeethHoldsTwoEntriesAnEdge() async throws {
        let ring = AdversarialShape.comb(teeth: 20_000, height: 1000) { _ in 0 }
        let prepared = PreparedRing(try Ring(ring, region: "comb", at: RingPosition(polygon: 0, ring: 0)))
        #expect(ring.count == 80_000)
        #expect(prepared.indexKind == .intervalTree)
        #expect(prepared.index.entryCount == 2 * 80_000)
        // Distinct ys: -10, 0 and 1000.
        #expect(prepared.index.centers == [-10, 0, 1000])
    }

    /// Curved walls (the common case) keep the band index.
    @Test func curvedWallKeepsBands() async throws {
        var points: [PixelPoint] = []
        for k in 0..<1000 {
            let angle = 2 * Double.pi * Double(k) / 1000
            points.append(PixelPoint(x: 500 + 400 * cos(angle), y: 500 - 400 * sin(angle)))
        }
        let prepared = PreparedRing(try Ring(points, region: "C", at: RingPosition(polygon: 0, ring: 0)))
        #expect(prepared.indexKind == .bands)
    }

    /// A 10-tooth comb without jitter (40 vertices, indexed by the tree), worked by hand: tooth i
    /// spans x 2i...2i+1 and y 0...1000, gaps go down to y = 0, the base spans y -10...0.
    @Test(arguments: [
        (0.5, 500.0, PointLocation.inside),     // in tooth 0
        (1.5, 500.0, .outside),                  // between teeth 0 and 1
        (1.0, 500.0, .boundary),                 // on tooth 0's right side
        (18.5, 999.0, .inside),                  // top of tooth 9
        (18.5, 1000.0, .boundary),               // on tooth 9's top
        (18.5, 1000.5, .outside),
        (1.5, -5.0, .inside),                    // in the base under a gap
        (1.5, 0.0, .boundary),                   // on a gap's floor
        (19.5, 500.0, .outside),                 // right of the last tooth
        (-0.5, -5.0, .outside),
        (0.0, -10.0, .boundary),                 // a corner
    ])
    func combByHand(x: Double, y: Double, expected: PointLocation) throws {
        let ring = AdversarialShape.comb(teeth: 10, height: 1000) { _ in 0 }
        let region = try Region(id: "comb", coordinates: [[ring]])
        #expect(PreparedRing(region.polygons[0].exterior).indexKind == .intervalTree)
        #expect(PreparedRegion(region).locate(PixelPoint(x: x, y: y)) == expected)
        var indexed = PointLocation.outside
        RegionIndex([region]).forEachRegion(containing: PixelPoint(x: x, y: y)) { _, location in indexed = location }
        #expect(indexed == expected)
    }

    /// The grid's (region, cell) pairs stay under 8 (v + r) when every region covers the sheet.
    @Test func gridPairsAreBoundedWhenRegionsOverlapEveryCell() async throws {
        var regions: [Region] = []
        for k in 0..<400 {
            let d = Double(k) * 0.001
            regions.append(try Region(id: "\(k)", coordinates: [[[PixelPoint(x: d, y: 0), PixelPoint(x: 10_000, y: d),
                                                                    PixelPoint(x: 10_000 - d, y: 10_000), PixelPoint(x: 0, y: 10_000 - d)]]]))
        }
        let index = RegionIndex(regions)
        let vertices = 4 * regions.count
        #expect(index.storage.cellRegions.count <= 8 * (vertices + regions.count))
        // Answers are unchanged: the middle is in every region.
        var hits = 0
        index.forEachRegion(containing: PixelPoint(x: 5000, y: 5000)) { _, location in
            if location == .inside { hits += 1 }
        }
        #expect(hits == 400)
    }
}
