import PlanMarkGeometry
import Testing
@testable import PlanMarkRender

/// Strokes: the filled outline has the area of the band it stands for, with the join asked for.
@Suite("Raster strokes")
struct RasterStrokeTests {
    static let square = [(10.0, 10.0), (30.0, 10.0), (30.0, 30.0), (10.0, 30.0)].map { PixelPoint(x: $0.0, y: $0.1) }

    static func strokedArea(_ points: [PixelPoint], closed: Bool, width: Double, join: RasterLineJoin) -> Double {
        var path = RasterPath()
        path.addStroke(points, closed: closed, width: width, join: join)
        return RasterTesting.coverage(path, width: 40, height: 40).reduce(0, +)
    }

    // Ring [10, 30]² stroked 8 wide: the band between [6, 34]² and [14, 26]² is 28² − 12² = 640;
    // a bevel cuts a right triangle with legs 4 off each outer corner (8 each); a round join keeps a
    // quarter disc of radius 4 instead of the 4×4 corner square: 640 − 4·(16 − 4π).
    @Test("a square ring stroked 8 wide has the band's area for each join", arguments: [
        (RasterLineJoin.miter(limit: 4), 640.0, 1e-3),
        (RasterLineJoin.bevel, 608.0, 1e-3),
        (RasterLineJoin.miter(limit: 1.2), 608.0, 1e-3),  // the miter of a right angle is √2 > 1.2: bevelled
        (RasterLineJoin.round, 576 + 16 * Double.pi, 1.0),  // arcs are polygons within 0.05 px
    ])
    func squareRing(_ join: RasterLineJoin, _ expected: Double, _ tolerance: Double) async {
        #expect(abs(Self.strokedArea(Self.square, closed: true, width: 8, join: join) - expected) < tolerance)
        // Either orientation of the ring gives the same stroke.
        #expect(abs(Self.strokedArea(Self.square.reversed(), closed: true, width: 8, join: join) - expected) < tolerance)
    }

    @Test("an open line stroked 4 wide is a 20 × 4 rectangle with butt ends")
    func openLine() async {
        let line = [PixelPoint(x: 10, y: 10), PixelPoint(x: 30, y: 10)]
        #expect(abs(Self.strokedArea(line, closed: false, width: 4, join: .round) - 80) < 1e-3)
        // A diagonal of length 20·√2 keeps its area: 20√2 × 2.
        let diagonal = [PixelPoint(x: 10, y: 10), PixelPoint(x: 30, y: 30)]
        #expect(abs(Self.strokedArea(diagonal, closed: false, width: 2, join: .round) - 40 * 2.0.squareRoot()) < 1e-3)
    }

    @Test("a concave ring's inner corner is filled once, not twice or left empty")
    func concaveRing() async {
        // An L: [10,30]×[10,20] ∪ [10,20]×[20,30], stroked 2 wide with miters: the band between the
        // L grown by 1 and shrunk by 1. Grown: 22×12 + 12×10 = 384 ... computed as outer L area
        // (x 9..31, y 9..21) + (x 9..21, y 21..31) = 264 + 120 = 384; shrunk: (11..29 × 11..19) +
        // (11..19 × 19..29) = 144 + 80 = 224; band 160.
        let l = [(10.0, 10.0), (30.0, 10.0), (30.0, 20.0), (20.0, 20.0), (20.0, 30.0), (10.0, 30.0)]
            .map { PixelPoint(x: $0.0, y: $0.1) }
        #expect(abs(Self.strokedArea(l, closed: true, width: 2, join: .miter(limit: 4)) - 160) < 1e-3)
    }

    @Test("a disc's coverage is πr² within the chord tolerance")
    func disc() async {
        var path = RasterPath()
        path.addCircle(centre: PixelPoint(x: 20.3, y: 19.6), radius: 12.5)
        let area = RasterTesting.coverage(path, width: 40, height: 40).reduce(0, +)
        // Chords stay within 0.05 px of the circle, so the lost area is under 0.05 × circumference.
        #expect(area < Double.pi * 12.5 * 12.5 && area > Double.pi * 12.5 * 12.5 - 0.05 * 2 * Double.pi * 12.5)
    }
}
