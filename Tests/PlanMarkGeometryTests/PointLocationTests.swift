import Testing
@testable import PlanMarkGeometry
import PlanMarkTestSupport

private func region(_ id: String, _ kind: RegionKind = .room, _ polygons: [(Double, Double)]...) throws -> Region {
    try Region(id: id, kind: kind, coordinates: polygons.map { ring in
        [ring.map { PixelPoint(x: $0.0, y: $0.1) }]
    })
}

private func polygonRegion(_ id: String, _ rings: [[(Double, Double)]]) throws -> Region {
    try Region(id: id, coordinates: [rings.map { $0.map { PixelPoint(x: $0.0, y: $0.1) } }])
}

/// A hand-worked case: a shape, a point, and where the point lies (worked out on paper).
struct LocationCase: CustomTestStringConvertible, Sendable {
    var shape: String
    var x: Double
    var y: Double
    var expected: PointLocation
    var testDescription: String { "\(shape) (\(x), \(y)) -> \(expected)" }
}

/// The shapes of the tables, in pixels (y down).
let shapes: [String: [[(Double, Double)]]] = [
    "square": [[(0, 0), (10, 0), (10, 10), (0, 10)]],
    // Triangle with a vertex at (10, 5): rays at y = 5 pass exactly through it.
    "triangle": [[(0, 0), (10, 5), (0, 10)]],
    // A V-shaped notch cut from the bottom edge down to the reflex vertex (5, 5).
    "notch": [[(0, 0), (10, 0), (10, 10), (5, 5), (0, 10)]],
    // An L: the horizontal edge (10,5)-(5,5) lies on the ray y = 5.
    "L": [[(0, 0), (10, 0), (10, 5), (5, 5), (5, 10), (0, 10)]],
    // A square room with a column (hole) 4..6.
    "holed": [[(0, 0), (10, 0), (10, 10), (0, 10)], [(4, 4), (6, 4), (6, 6), (4, 6)]],
    // A long diagonal wall: triangle (0,0), (20000,15000), (0,15000); hypotenuse y = 0.75 x.
    "diagonal": [[(0, 0), (20000, 15000), (0, 15000)]],
]

let locationTable: [LocationCase] = [
    .init(shape: "square", x: 5, y: 5, expected: .inside),
    .init(shape: "square", x: 0, y: 0, expected: .boundary),
    .init(shape: "square", x: 10, y: 10, expected: .boundary),
    .init(shape: "square", x: 10, y: 0, expected: .boundary),
    .init(shape: "square", x: 5, y: 0, expected: .boundary),
    .init(shape: "square", x: 5, y: 10, expected: .boundary),
    .init(shape: "square", x: 0, y: 5, expected: .boundary),
    .init(shape: "square", x: 10, y: 5, expected: .boundary),
    .init(shape: "square", x: 11, y: 5, expected: .outside),
    .init(shape: "square", x: -1, y: 5, expected: .outside),
    .init(shape: "square", x: 5, y: -1e-9, expected: .outside),
    .init(shape: "square", x: 10.000000000000002, y: 5, expected: .outside),
    .init(shape: "square", x: 9.999999999999998, y: 5, expected: .inside),
    .init(shape: "square", x: -1, y: 0, expected: .outside),
    .init(shape: "square", x: 20, y: 10, expected: .outside),
    .init(shape: "triangle", x: 2, y: 5, expected: .inside),
    .init(shape: "triangle", x: -1, y: 5, expected: .outside),
    .init(shape: "triangle", x: 11, y: 5, expected: .outside),
    .init(shape: "triangle", x: 10, y: 5, expected: .boundary),
    .init(shape: "triangle", x: 4, y: 2, expected: .boundary),  // on (0,0)-(10,5): y = x/2
    .init(shape: "triangle", x: 4, y: 2.0000000000000004, expected: .inside),
    .init(shape: "triangle", x: 4, y: 1.9999999999999998, expected: .outside),
    .init(shape: "notch", x: 1, y: 5, expected: .inside),
    .init(shape: "notch", x: 5, y: 5, expected: .boundary),
    .init(shape: "notch", x: 5, y: 7, expected: .outside),
    .init(shape: "notch", x: 2, y: 8, expected: .boundary),
    .init(shape: "notch", x: 2, y: 7.9, expected: .inside),
    .init(shape: "notch", x: 2, y: 8.1, expected: .outside),
    .init(shape: "notch", x: -3, y: 5, expected: .outside),
    .init(shape: "L", x: 2, y: 5, expected: .inside),
    .init(shape: "L", x: 7, y: 5, expected: .boundary),
    .init(shape: "L", x: 5, y: 5, expected: .boundary),
    .init(shape: "L", x: 7, y: 6, expected: .outside),
    .init(shape: "L", x: 7, y: 4, expected: .inside),
    .init(shape: "L", x: -1, y: 5, expected: .outside),
    .init(shape: "L", x: 5, y: 10, expected: .boundary),
    .init(shape: "holed", x: 5, y: 5, expected: .outside),
    .init(shape: "holed", x: 4, y: 5, expected: .boundary),
    .init(shape: "holed", x: 4, y: 4, expected: .boundary),
    .init(shape: "holed", x: 6, y: 6, expected: .boundary),
    .init(shape: "holed", x: 3, y: 5, expected: .inside),
    .init(shape: "holed", x: 7, y: 5, expected: .inside),
    .init(shape: "holed", x: 5, y: 3.9, expected: .inside),
    .init(shape: "diagonal", x: 4, y: 3, expected: .boundary),
    .init(shape: "diagonal", x: 4, y: 3.0000000000000004, expected: .inside),
    .init(shape: "diagonal", x: 4, y: 2.9999999999999996, expected: .outside),
    .init(shape: "diagonal", x: 13332, y: 9999, expected: .boundary),
    .init(shape: "diagonal", x: 13332, y: 9999.000000000002, expected: .inside),
    .init(shape: "diagonal", x: 13332, y: 9998.999999999998, expected: .outside),
    .init(shape: "diagonal", x: 13332.000000000002, y: 9999, expected: .outside),
]

/// Point location against hand-worked tables, both raw and prepared, with both boundary rules.
@Suite struct PointLocationTests {
    @Test(arguments: locationTable)
    func table(_ c: LocationCase) async throws {
        let r = try polygonRegion(c.shape, shapes[c.shape]!)
        let point = PixelPoint(x: c.x, y: c.y)
        #expect(r.locate(point) == c.expected)
        #expect(PreparedRegion(r).locate(point) == c.expected)
    }

    @Test(arguments: locationTable, BoundaryRule.allCases)
    func boundaryRule(_ c: LocationCase, rule: BoundaryRule) async throws {
        let r = try polygonRegion(c.shape, shapes[c.shape]!)
        let validator = MarkerValidator(regions: [r], boundary: rule)
        let verdict = validator.validate(PixelPoint(x: c.x, y: c.y))
        let covered: Bool
        switch c.expected {
        case .inside: covered = true
        case .boundary: covered = rule == .include
        case .outside: covered = false
        }
        #expect(verdict.hits.map(\.regionIndex) == (covered ? [0] : []))
        if covered { #expect(verdict.hits.first?.location == c.expected) }
        // With a room required, coverage decides validity.
        let strict = MarkerValidator(regions: [r], boundary: rule, requireRoom: true)
        #expect(strict.validate(PixelPoint(x: c.x, y: c.y)).reason == (covered ? nil : .outsideRooms))
    }

    /// Location does not change when the shape and the point move by the same integers, when a ring
    /// starts at another vertex, or when its orientation is reversed.
    @Test(arguments: locationTable)
    func invariance(_ c: LocationCase) async throws {
        var generator = SeededGenerator(seed: UInt64(bitPattern: Int64(c.x * 7919 + c.y * 104729)))
        let rings = shapes[c.shape]!
        for _ in 0..<8 {
            let dx = Double(Int(generator.next() % 20001) - 10000)
            let dy = Double(Int(generator.next() % 20001) - 10000)
            // Integer translation is exact only while the sums stay exact; keep fractional cases
            // on the unshifted plane for that reason.
            let exact = c.x == c.x.rounded() && c.y == c.y.rounded()
            let tx = exact ? dx : 0, ty = exact ? dy : 0
            let rotate = Int(generator.next() % 7)
            let reverse = generator.next() % 2 == 0
            let moved = rings.map { ring -> [(Double, Double)] in
                var r = ring.map { ($0.0 + tx, $0.1 + ty) }
                let k = rotate % r.count
                r = Array(r[k...] + r[..<k])
                return reverse ? r.reversed() : r
            }
            let r = try polygonRegion(c.shape, moved)
            let point = PixelPoint(x: c.x + tx, y: c.y + ty)
            #expect(r.locate(point) == c.expected, "shift (\(tx), \(ty)) rotate \(rotate) reverse \(reverse) (seed \(generator.seed))")
            #expect(PreparedRegion(r).locate(point) == c.expected, "shift (\(tx), \(ty)) rotate \(rotate) reverse \(reverse) (seed \(generator.seed))")
        }
    }

    @Test func sharedWallListsBothRooms() async throws {
        let a = try region("A", .room, [(0, 0), (10, 0), (10, 10), (0, 10)])
        let b = try region("B", .room, [(10, 0), (20, 0), (20, 10), (10, 10)])
        let validator = MarkerValidator(regions: [a, b])
        #expect(validator.validate(PixelPoint(x: 10, y: 3)).hits == [
            RegionHit(regionIndex: 0, location: .boundary), RegionHit(regionIndex: 1, location: .boundary),
        ])
        #expect(validator.validate(PixelPoint(x: 10, y: 10)).hits.count == 2)
        #expect(validator.validate(PixelPoint(x: 15, y: 3)).hits == [RegionHit(regionIndex: 1, location: .inside)])
        let exclusive = MarkerValidator(regions: [a, b], boundary: .exclude, requireRoom: true)
        #expect(exclusive.validate(PixelPoint(x: 10, y: 3)).reason == .outsideRooms)
    }

    @Test func multipolygon() async throws {
        let r = try region("M", .room, [(0, 0), (10, 0), (10, 10), (0, 10)], [(20, 0), (30, 0), (30, 10), (20, 10)])
        #expect(r.locate(PixelPoint(x: 25, y: 5)) == .inside)
        #expect(r.locate(PixelPoint(x: 15, y: 5)) == .outside)
        #expect(r.locate(PixelPoint(x: 20, y: 5)) == .boundary)
        #expect(r.bounds == BoundingBox(minX: 0, minY: 0, maxX: 30, maxY: 10))
    }

    @Test func reasonsInOrder() async throws {
        let room = try region("R", .room, [(0, 0), (10, 0), (10, 10), (0, 10)])
        let allowed = try region("A", .allowed, [(0, 0), (6, 0), (6, 10), (0, 10)])
        let v = MarkerValidator(regions: [room, allowed], size: DrawingSize(width: 12, height: 10), requireRoom: true)
        #expect(v.validate(PixelPoint(x: .nan, y: 1)).reason == .invalidCoordinate)
        #expect(v.validate(PixelPoint(x: 13, y: 1)).reason == .outsideDrawing)
        #expect(v.validate(PixelPoint(x: 12, y: 10)).reason == .outsideAllowedArea)  // edge of the drawing is on it
        #expect(v.validate(PixelPoint(x: 8, y: 5)).reason == .outsideAllowedArea)
        #expect(v.validate(PixelPoint(x: 6, y: 5)).reason == nil)  // on the allowed area's edge
        #expect(v.validate(PixelPoint(x: 3, y: 5)).hits == [
            RegionHit(regionIndex: 0, location: .inside), RegionHit(regionIndex: 1, location: .inside),
        ])
        let noRoomNeeded = MarkerValidator(regions: [allowed], size: DrawingSize(width: 12, height: 10))
        #expect(noRoomNeeded.validate(PixelPoint(x: 3, y: 5)).reason == nil)
        #expect(noRoomNeeded.validate(PixelPoint(x: 0, y: 0)).reason == nil)
        #expect(noRoomNeeded.validate(PixelPoint(x: -0.5, y: 0)).reason == .outsideDrawing)
    }
}
