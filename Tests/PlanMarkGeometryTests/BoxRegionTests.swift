import Testing
@testable import PlanMarkGeometry
import PlanMarkTestSupport

/// Regions made of axis-parallel rectangles are located by box comparisons in `RegionIndex`.
@Suite struct BoxRegionTests {
    func p(_ x: Double, _ y: Double) -> PixelPoint { PixelPoint(x: x, y: y) }

    /// A room 0...100 x 0...60 with T-junction vertices on its walls and a 20 x 10 hole at (40, 20);
    /// an L-shaped room beside it (not a rectangle); a multipolygon of two rectangles.
    func regions() throws -> [Region] {
        let room = try Region(id: "box", coordinates: [[
            [p(0, 0), p(50, 0), p(100, 0), p(100, 30), p(100, 60), p(0, 60), p(0, 30)],
            [p(40, 20), p(40, 30), p(60, 30), p(60, 20)],
        ]])
        let ell = try Region(id: "ell", coordinates: [[[p(100, 0), p(150, 0), p(150, 30), p(125, 30), p(125, 60), p(100, 60)]]])
        let pair = try Region(id: "pair", coordinates: [
            [[p(0, 70), p(10, 70), p(10, 80), p(0, 80)]],
            [[p(20, 70), p(30, 70), p(30, 80), p(20, 80)]],
        ])
        return [room, ell, pair]
    }

    func located(_ index: RegionIndex, _ point: PixelPoint) -> [String] {
        var out: [String] = []
        index.forEachRegion(containing: point) { k, location in out.append("\(index.regions[k].id):\(location.rawValue)") }
        return out
    }

    @Test func ringsThatAreRectangles() async throws {
        let r = try regions()
        #expect(PackedRegions.isBoxRing(r[0].polygons[0].exterior))
        #expect(PackedRegions.isBoxRing(r[0].polygons[0].holes[0]))
        #expect(!PackedRegions.isBoxRing(r[1].polygons[0].exterior))
        let index = RegionIndex(r)
        #expect(!index.storage.regionBoxes[0].isEmpty)
        #expect(index.storage.regionBoxes[1].isEmpty)
        #expect(index.storage.regionBoxes[2].isEmpty)  // two polygons: the general path
    }

    @Test func locationsByHand() async throws {
        let index = RegionIndex(try regions())
        #expect(located(index, p(10, 10)) == ["box:inside"])
        #expect(located(index, p(0, 10)) == ["box:boundary"])
        #expect(located(index, p(50, 0)) == ["box:boundary"])          // on a T-junction vertex
        #expect(located(index, p(100, 45)) == ["box:boundary", "ell:boundary"])
        #expect(located(index, p(50, 25)) == [])                        // in the hole
        #expect(located(index, p(40, 25)) == ["box:boundary"])          // on the hole's ring
        #expect(located(index, p(60, 20)) == ["box:boundary"])          // the hole's corner
        #expect(located(index, p(39.999999999999993, 25)) == ["box:inside"])
        #expect(located(index, p(100.00000000000001, 10)) == ["ell:inside"])
        #expect(located(index, p(-0.0, 60)) == ["box:boundary"])
        #expect(located(index, p(5, 75)) == ["pair:inside"])
    }

    @Test func agreesWithRayCasting() async throws {
        // Every point of a grid over the rooms, at steps of 2.5 (so walls, corners and the hole's
        // ring are hit), and seeded random points: the box path against each region's general
        // ray-casting location (`PreparedRegion`, checked against GEOS elsewhere).
        let r = try regions()
        let index = RegionIndex(r)
        let prepared = r.map(PreparedRegion.init)
        var points: [PixelPoint] = []
        for i in -2...62 { for j in -2...34 { points.append(p(Double(i) * 2.5, Double(j) * 2.5)) } }
        var rng = SeededGenerator()
        for _ in 0..<5000 { points.append(p(Double.random(in: -5...155, using: &rng), Double.random(in: -5...85, using: &rng))) }
        for point in points {
            var expected: [String] = []
            for (k, region) in prepared.enumerated() {
                let location = region.locate(point)
                if location != .outside { expected.append("\(r[k].id):\(location.rawValue)") }
            }
            #expect(located(index, point) == expected, "seed \(rng.seed): \(point)")
        }
    }
}
