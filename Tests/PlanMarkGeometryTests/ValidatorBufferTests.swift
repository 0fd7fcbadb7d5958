import Testing
@testable import PlanMarkGeometry
import PlanMarkTestSupport

/// `MarkerValidator.validate(_:hits:count:)` (hits into a buffer, for the batch's hot loop) against
/// `validate(_:hits:)` (an array), on seeded random points, vertices and points on walls.
@Suite struct ValidatorBufferTests {
    func p(_ x: Double, _ y: Double) -> PixelPoint { PixelPoint(x: x, y: y) }

    @Test func bufferAndArrayAgree() async throws {
        let regions = [
            try Region(id: "box", coordinates: [[[p(0, 0), p(50, 0), p(100, 0), p(100, 60), p(0, 60)], [p(40, 20), p(40, 30), p(60, 30), p(60, 20)]]]),
            try Region(id: "ell", coordinates: [[[p(100, 0), p(150, 0), p(150, 30), p(125, 30), p(125, 60), p(100, 60)]]]),
            try Region(id: "tri", coordinates: [[[p(0, 60), p(150, 60), p(75, 100)]]]),
            try Region(id: "A", kind: .allowed, coordinates: [[[p(0, 0), p(150, 0), p(150, 90), p(0, 90)]]]),
        ]
        var rng = SeededGenerator()
        for (size, rule, requireRoom) in [(DrawingSize(width: 160, height: 110), BoundaryRule.include, false),
                                          (nil, .exclude, true)] {
            let validator = MarkerValidator(regions: regions, size: size, boundary: rule, requireRoom: requireRoom)
            let buffer = UnsafeMutablePointer<RegionHit>.allocate(capacity: regions.count)
            defer { buffer.deallocate() }
            var points: [PixelPoint] = []
            for region in regions { for polygon in region.polygons { points += polygon.exterior.vertices } }
            for _ in 0..<20_000 {
                let x = Double.random(in: -10...170, using: &rng), y = Double.random(in: -10...120, using: &rng)
                points.append(p(x, y))
                points.append(p(x.rounded(), y.rounded()))  // often on a wall or a vertex
                points.append(p(150 - 75 * (y / 110).clamped, 60 + 40 * (y / 110).clamped))  // on or next to the triangle's edge
            }
            points.append(p(.nan, 1))
            for point in points {
                var hits: [RegionHit] = []
                let expected = validator.validate(point, hits: &hits)
                var count = -1
                let reason = validator.validate(point, hits: buffer, count: &count)
                #expect(reason == expected, "\(point) (seed \(rng.seed))")
                #expect(Array(UnsafeBufferPointer(start: buffer, count: count)) == hits, "\(point) (seed \(rng.seed))")
            }
        }
    }
}

private extension Double {
    var clamped: Double { Swift.min(1, Swift.max(0, self)) }
}
