import Testing
@testable import PlanMarkGeometry
import PlanMarkTestSupport

private func pts(_ list: [(Double, Double)]) -> [PixelPoint] { list.map { PixelPoint(x: $0.0, y: $0.1) } }
private let origin = RingPosition(polygon: 0, ring: 0)
private func ring(_ r: Int, polygon: Int = 0) -> RingPosition { RingPosition(polygon: polygon, ring: r) }
private func square(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> [(Double, Double)] {
    [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
}

/// The error `body` throws, if any (a non-geometry error becomes an issue).
private func thrown(_ body: () throws -> Void) -> GeometryError? {
    do { try body() } catch let error as GeometryError { return error } catch {
        Issue.record("unexpected \(error)")
    }
    return nil
}

/// Brute force over all pairs of edges of one ring: neighbours meet only at their shared vertex
/// unless one folds back over the other; any two others must not meet at all.
private func bruteForcePairs(_ v: [PixelPoint]) -> Set<[Int]> {
    let n = v.count
    var pairs: Set<[Int]> = []
    for i in 0..<n {
        for j in (i + 1)..<n {
            let a = v[i], b = v[(i + 1) % n], c = v[j], d = v[(j + 1) % n]
            if j == i + 1 || (i == 0 && j == n - 1) {
                // Shared vertex s; the far ends p (of one) and q (of the other).
                let (s, p, q) = j == i + 1 ? (b, a, d) : (a, b, c)
                let overlap = orientation(p, s, q) == .collinear
                    && ((q.x - s.x) * (p.x - s.x) > 0 || (q.y - s.y) * (p.y - s.y) > 0)
                if overlap { pairs.insert([i, j]) }
            } else if segmentsIntersect(a, b, c, d) {
                pairs.insert([i, j])
            }
        }
    }
    return pairs
}

@Suite struct SimplicityTests {
    static let seed: UInt64 = 0x0051_4D50_1E00

    /// Hand-built rings and the pairs of edges that meet in them (worked out on paper).
    @Test(arguments: [
        // Bow-tie: edges 0 and 2 cross at (5, 5).
        ([(0.0, 0.0), (10, 10), (10, 0), (0, 10)], [[0, 2]]),
        // Vertical edge 3 ((5,10)-(5,-5)) crosses edge 0 ((0,0)-(10,0)) at (5, 0).
        ([(0.0, 0.0), (10, 0), (10, 10), (5, 10), (5, -5), (0, -5)], [[0, 3]]),
        // Edge 4 ((4,0)-(2,0)) lies along edge 0; edges 3 and 5 touch it at (4,0) and (2,0).
        ([(0.0, 0.0), (10, 0), (10, 5), (4, 5), (4, 0), (2, 0), (2, -5), (0, -5)], [[0, 3], [0, 4], [0, 5]]),
        // Vertical overlap: edge 5 ((4,5)-(4,3)) lies along edge 1 ((4,0)-(4,10)); 4 and 6 touch it.
        ([(0.0, 0.0), (4, 0), (4, 10), (2, 10), (2, 5), (4, 5), (4, 3), (0, 3)], [[1, 4], [1, 5], [1, 6]]),
        // A vertex (5, 0) on edge 0, reached by edges 2 and 3.
        ([(0.0, 0.0), (10, 0), (10, 10), (5, 0), (0, 10)], [[0, 2], [0, 3]]),
        // Figure eight: vertex (5, 5) visited twice; edges 1, 2, 4 and 5 all pass through it.
        ([(0.0, 0.0), (10, 0), (5, 5), (10, 10), (0, 10), (5, 5)], [[1, 4], [1, 5], [2, 4], [2, 5]]),
        // Spike: edge 1 ((20,0)-(15,0)) folds back over edge 0 ((0,0)-(20,0)); edge 2 starts on edge 0.
        ([(0.0, 0.0), (20, 0), (15, 0), (15, 10), (0, 10)], [[0, 1], [0, 2]]),
        // Two vertical edges (3 and 5) crossing the horizontal edge 0.
        ([(0.0, 0.0), (30, 0), (30, 20), (20, 20), (20, -10), (10, -10), (10, 20), (0, 20)], [[0, 3], [0, 5]]),
    ] as [([(Double, Double)], [[Int]])])
    func handBuiltSelfIntersections(_ points: [(Double, Double)], meeting: [[Int]]) {
        let error = thrown { _ = try Ring(pts(points), region: "R", at: origin) }
        guard case let .selfIntersecting(region, at, edge, other)? = error else {
            Issue.record("expected selfIntersecting, got \(String(describing: error))")
            return
        }
        #expect(region == "R" && at == origin)
        #expect(meeting.contains([min(edge, other), max(edge, other)]), "reported edges \(edge), \(other)")
        #expect(Set(meeting) == bruteForcePairs(pts(points)), "the hand-worked pairs themselves")
        // The sweep itself (small rings test every pair instead).
        if let (e, f) = Ring.firstSelfIntersection(pts(points), sweepFrom: 0) {
            #expect(meeting.contains([min(e, f), max(e, f)]), "sweep reported edges \(e), \(f)")
        } else {
            Issue.record("the sweep found no meeting")
        }
    }

    /// Random small rings on a coarse integer grid (full of shared points, collinear and vertical
    /// edges) and random real-valued rings: refused exactly when brute force finds a meeting, and
    /// the pair named is one of them.
    @Test(arguments: [6.0, 1000.0])
    func sweepAgreesWithBruteForce(grid: Double) async {
        let seed = Self.seed &+ UInt64(grid)
        var generator = SeededGenerator(seed: seed)
        var refused = 0, accepted = 0
        for trial in 0..<6000 {
            let n = Int.random(in: 3...14, using: &generator)
            let points = (0..<n).map { _ in
                PixelPoint(x: (Double.random(in: 0..<grid, using: &generator)).rounded(.down),
                           y: (Double.random(in: 0..<grid, using: &generator)).rounded(.down))
            }
            let result: Result<Ring, GeometryError>
            do { result = .success(try Ring(points, region: "R", at: origin)) } catch { result = .failure(error) }
            // The sweep on the same ring (Ring.init tests every pair below 32 vertices).
            if case .success(let ring) = result {
                #expect(Ring.firstSelfIntersection(ring.vertices, sweepFrom: 0) == nil, "seed \(seed) trial \(trial): sweep")
            } else if case .failure(.selfIntersecting) = result {
                var cleaned: [PixelPoint] = []
                for p in points where cleaned.last != p { cleaned.append(p) }
                while cleaned.count > 1 && cleaned.first == cleaned.last { cleaned.removeLast() }
                let pairs = bruteForcePairs(cleaned)
                if let (e, f) = Ring.firstSelfIntersection(cleaned, sweepFrom: 0) {
                    #expect(pairs.contains([min(e, f), max(e, f)]), "seed \(seed) trial \(trial): sweep named \(e), \(f) in \(cleaned)")
                } else {
                    Issue.record("seed \(seed) trial \(trial): the sweep missed \(pairs) in \(cleaned)")
                }
            }
            switch result {
            case .success(let ring):
                accepted += 1
                #expect(bruteForcePairs(ring.vertices).isEmpty, "seed \(seed) trial \(trial): \(ring.vertices) accepted")
            case .failure(.selfIntersecting(_, _, let edge, let other)):
                refused += 1
                // The same cleaning as Ring.init, to number edges alike.
                var cleaned: [PixelPoint] = []
                for p in points where cleaned.last != p { cleaned.append(p) }
                while cleaned.count > 1 && cleaned.first == cleaned.last { cleaned.removeLast() }
                let pairs = bruteForcePairs(cleaned)
                #expect(pairs.contains([min(edge, other), max(edge, other)]), "seed \(seed) trial \(trial): \(cleaned) named \(edge), \(other); meetings \(pairs)")
            case .failure:
                break  // too few vertices or zero area
            }
        }
        #expect(refused > 500 && accepted > 100, "seed \(seed): \(refused) refused, \(accepted) accepted")
    }

    /// Large simple rings pass (the sweep has no quadratic fallback to hide behind).
    @Test(arguments: AdversarialShape.allCases)
    func adversarialShapesAreSimple(_ shape: AdversarialShape) async throws {
        var generator = SeededGenerator(seed: AdversarialShape.seed)
        let rings = shape.rings(size: 20_000, using: &generator)
        #expect(throws: Never.self, "\(shape) (seed \(generator.seed))") { _ = try Region(id: shape.rawValue, coordinates: [rings]) }
    }

    // MARK: Rings of one region

    private func region(_ polygons: [[[(Double, Double)]]]) throws(GeometryError) -> Region {
        try Region(id: "R", coordinates: polygons.map { $0.map(pts) })
    }

    @Test func holeCrossingTheOuterRing() async {
        let error = thrown { _ = try region([[square(0, 0, 10, 10), square(8, 4, 12, 6)]]) }
        // Hole edges 0 ((8,4)-(12,4)) and 2 ((12,6)-(8,6)) cross outer edge 1 ((10,0)-(10,10)).
        #expect([GeometryError.ringsMeet(region: "R", at: ring(0), edge: 1, other: ring(1), otherEdge: 0),
                 .ringsMeet(region: "R", at: ring(0), edge: 1, other: ring(1), otherEdge: 2)].contains(error))
    }

    @Test func holeTouchingTheOuterRingAtAVertex() async {
        let error = thrown { _ = try region([[square(0, 0, 10, 10), [(0, 0), (3, 1), (1, 3)]]]) }
        #expect(error == .ringsMeet(region: "R", at: ring(0), edge: 0, other: ring(1), otherEdge: 0))
        #expect(error?.description == "region R: hole ring 1 touches or crosses the outer ring (edge 0 of ring 0 meets edge 0 of ring 1); rings of a region may not share a point")
    }

    @Test func holeVertexOnTheOuterRing() async {
        // (10, 5) lies on outer edge 1; hole edges 0 and 1 end and start there.
        let error = thrown { _ = try region([[square(0, 0, 10, 10), [(5, 4), (10, 5), (5, 6)]]]) }
        #expect([GeometryError.ringsMeet(region: "R", at: ring(0), edge: 1, other: ring(1), otherEdge: 0),
                 .ringsMeet(region: "R", at: ring(0), edge: 1, other: ring(1), otherEdge: 1)].contains(error))
    }

    @Test func holeOutsideTheOuterRing() async {
        let error = thrown { _ = try region([[square(0, 0, 10, 10), square(20, 20, 22, 22)]]) }
        #expect(error == .holeOutsideShell(region: "R", at: ring(1)))
        #expect(error?.description == "region R: ring 1: hole is not inside its polygon's outer ring")
    }

    @Test func outerRingInsideItsHole() async {
        // The "hole" surrounds the outer ring.
        let error = thrown { _ = try region([[square(10, 10, 20, 20), square(0, 0, 30, 30)]]) }
        #expect(error == .holeOutsideShell(region: "R", at: ring(1)))
    }

    @Test func holeInsideAnotherHole() async {
        #expect(thrown { _ = try region([[square(0, 0, 100, 100), square(10, 10, 50, 50), square(20, 20, 30, 30)]]) }
            == .holeInsideHole(region: "R", at: ring(2), enclosingHole: 1))
        let reversed = thrown { _ = try region([[square(0, 0, 100, 100), square(20, 20, 30, 30), square(10, 10, 50, 50)]]) }
        #expect(reversed == .holeInsideHole(region: "R", at: ring(1), enclosingHole: 2))
        #expect(reversed?.description == "region R: ring 1: hole lies inside another hole (ring 2)")
    }

    @Test func overlappingHoles() async {
        let error = thrown { _ = try region([[square(0, 0, 100, 100), square(10, 10, 30, 30), square(20, 20, 40, 40)]]) }
        // (30, 20): hole 1 edge 1 and hole 2 edge 0; (20, 30): hole 1 edge 2 and hole 2 edge 3.
        #expect([GeometryError.ringsMeet(region: "R", at: ring(1), edge: 1, other: ring(2), otherEdge: 0),
                 .ringsMeet(region: "R", at: ring(1), edge: 2, other: ring(2), otherEdge: 3)].contains(error))
        #expect(error?.description.hasPrefix("region R: holes ring 1 and ring 2 touch or cross") == true)
    }

    @Test func polygonInsideAnotherPolygon() async {
        let error = thrown { _ = try region([[square(0, 0, 100, 100)], [square(10, 10, 20, 20)]]) }
        #expect(error == .polygonInsidePolygon(region: "R", polygon: 1, enclosingPolygon: 0))
        #expect(error?.description == "region R: polygon 1 lies inside polygon 0 (inside its outer ring and in none of its holes): their interiors overlap")
        #expect(thrown { _ = try region([[square(10, 10, 20, 20)], [square(0, 0, 100, 100)]]) }
            == .polygonInsidePolygon(region: "R", polygon: 0, enclosingPolygon: 1))
    }

    @Test func polygonInsideAHoleOfAnotherIsFine() async throws {
        let r = try region([[square(0, 0, 100, 100), square(10, 10, 90, 90)], [square(20, 20, 80, 80), square(30, 30, 70, 70)],
                            [square(40, 40, 60, 60)]])
        #expect(r.locate(PixelPoint(x: 5, y: 50)) == .inside)
        #expect(r.locate(PixelPoint(x: 15, y: 50)) == .outside)
        #expect(r.locate(PixelPoint(x: 25, y: 50)) == .inside)
        #expect(r.locate(PixelPoint(x: 35, y: 50)) == .outside)
        #expect(r.locate(PixelPoint(x: 50, y: 50)) == .inside)
        #expect(PreparedRegion(r).locate(PixelPoint(x: 35, y: 50)) == .outside)
    }

    @Test func polygonInsideAPolygonThatIsInAHole() async {
        let error = thrown {
            _ = try region([[square(0, 0, 100, 100), square(10, 10, 90, 90)], [square(20, 20, 80, 80)], [square(40, 40, 60, 60)]])
        }
        #expect(error == .polygonInsidePolygon(region: "R", polygon: 2, enclosingPolygon: 1))
    }

    @Test func holeOfTheOuterPolygonInsideTheInnerOnesHole() async {
        // Polygon 0 with holes 10..90 and 40..60; polygon 1 (20..80 with hole 30..70) in the first
        // hole; the second hole of polygon 0 lies in polygon 1's hole, so inside polygon 0's first hole.
        let error = thrown {
            _ = try region([[square(0, 0, 100, 100), square(10, 10, 90, 90), square(40, 40, 60, 60)],
                            [square(20, 20, 80, 80), square(30, 30, 70, 70)]])
        }
        #expect(error == .holeInsideHole(region: "R", at: ring(2), enclosingHole: 1))
    }

    @Test func polygonsCrossing() async {
        let error = thrown { _ = try region([[square(0, 0, 10, 10)], [square(5, 5, 15, 15)]]) }
        // (10, 5): polygon 0 edge 1 and polygon 1 edge 0; (5, 10): polygon 0 edge 2 and polygon 1 edge 3.
        #expect([GeometryError.ringsMeet(region: "R", at: ring(0), edge: 1, other: ring(0, polygon: 1), otherEdge: 0),
                 .ringsMeet(region: "R", at: ring(0), edge: 2, other: ring(0, polygon: 1), otherEdge: 3)].contains(error))
        #expect(error?.description.hasPrefix("region R: polygon 0 and polygon 1 touch or cross (edge ") == true)
    }

    @Test func polygonsSharingAWall() async {
        // Two rooms of one multipolygon sharing the wall x = 10: their rings meet.
        let error = thrown { _ = try region([[square(0, 0, 10, 10)], [square(10, 0, 20, 10)]]) }
        guard case let .ringsMeet(_, at, _, other, _)? = error else {
            Issue.record("expected ringsMeet, got \(String(describing: error))")
            return
        }
        #expect(at == ring(0) && other == ring(0, polygon: 1))
    }

    @Test func separatePolygonsAndHolesAreFine() async throws {
        let r = try region([[square(0, 0, 10, 10), square(2, 2, 4, 4), square(6, 6, 8, 8)], [square(20, 0, 30, 10)]])
        #expect(r.polygons.count == 2)
    }

    /// Random rectangles dealt to polygons as outer rings and holes: refused exactly when brute
    /// force finds rings that meet or a wrong nesting, and the reason given is true.
    @Test func regionChecksAgreeWithBruteForce() async {
        let seed = Self.seed &+ 77
        var generator = SeededGenerator(seed: seed)
        var valid = 0
        var kinds: Set<String> = []
        for trial in 0..<3000 {
            let polygonCount = Int.random(in: 1...3, using: &generator)
            var polygons: [[[PixelPoint]]] = []
            for _ in 0..<polygonCount {
                let ringCount = Int.random(in: 1...3, using: &generator)
                polygons.append((0..<ringCount).map { _ in
                    if Bool.random(using: &generator) {
                        // Concentric squares around (12, 12) nest without meeting unless equal.
                        let half = Double(Int.random(in: 1...11, using: &generator))
                        return pts(square(12 - half, 12 - half, 12 + half, 12 + half))
                    }
                    let x0 = Double(Int.random(in: 0..<12, using: &generator)), y0 = Double(Int.random(in: 0..<12, using: &generator))
                    let w = Double(Int.random(in: 1...12, using: &generator)), h = Double(Int.random(in: 1...12, using: &generator))
                    return pts(square(x0, y0, x0 + w, y0 + h))
                })
            }
            let rings = polygons.flatMap { $0 }
            // Brute force: any two edges of distinct rings meet?
            var meet = false
            for a in rings.indices {
                for b in rings.indices where b > a {
                    for i in 0..<4 {
                        for j in 0..<4 where segmentsIntersect(rings[a][i], rings[a][(i + 1) % 4], rings[b][j], rings[b][(j + 1) % 4]) {
                            meet = true
                        }
                    }
                }
            }
            // Nesting by locating one vertex (rings that do not meet are inside or outside each other).
            func inside(_ inner: [PixelPoint], _ outer: [PixelPoint]) -> Bool {
                referenceLocation(inner[0], rings: [outer]) == .inside
            }
            var nestingOK = true
            for (p, polygon) in polygons.enumerated() {
                for (h, hole) in polygon.enumerated().dropFirst() {
                    if !inside(hole, polygon[0]) { nestingOK = false }
                    for (k, other) in polygon.enumerated().dropFirst() where k != h && inside(hole, other) { nestingOK = false }
                }
                for (q, other) in polygons.enumerated() where q != p && inside(polygon[0], other[0]) {
                    if !other.dropFirst().contains(where: { inside(polygon[0], $0) }) { nestingOK = false }
                }
            }
            let error = thrown { _ = try Region(id: "R", coordinates: polygons) }
            let context = "seed \(seed) trial \(trial): \(polygons)"
            func ringOf(_ at: RingPosition) -> [PixelPoint] { polygons[at.polygon][at.ring] }
            switch error {
            case nil:
                valid += 1
                #expect(!meet && nestingOK, "\(context) accepted")
            case let .ringsMeet(_, at, edge, other, otherEdge)?:
                kinds.insert("meet")
                let r1 = ringOf(at), r2 = ringOf(other)
                #expect(at != other && segmentsIntersect(r1[edge], r1[(edge + 1) % 4], r2[otherEdge], r2[(otherEdge + 1) % 4]), "\(context)")
            case let .holeOutsideShell(_, at)?:
                kinds.insert("outside")
                #expect(!meet && !inside(ringOf(at), polygons[at.polygon][0]), "\(context)")
            case let .holeInsideHole(_, at, enclosing)?:
                kinds.insert("hole in hole")
                #expect(!meet && inside(ringOf(at), polygons[at.polygon][enclosing]), "\(context)")
            case let .polygonInsidePolygon(_, p, q)?:
                kinds.insert("polygon in polygon")
                let shell = polygons[p][0]
                #expect(!meet && inside(shell, polygons[q][0]) && !polygons[q].dropFirst().contains { inside(shell, $0) }, "\(context)")
            case let other?:
                Issue.record("\(context): unexpected \(other)")
            }
        }
        #expect(valid > 100 && kinds.count == 4, "seed \(seed): \(valid) valid, kinds \(kinds)")
    }
}
