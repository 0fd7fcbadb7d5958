import Testing
@testable import PlanMarkGeometry

/// The orientation predicate against cases whose exact answer is known by construction.
@Suite struct OrientationTests {
    /// Kettner et al.'s classic failure: p = (0.5 + i ulp, 0.5 + j ulp) against the line through
    /// (12, 12) and (24, 24). The determinant is exactly 12 * (py - px), so the sign is that of j - i;
    /// the naive floating-point formula gets a large share of these 256 x 256 cases wrong.
    @Test func nearDegenerateGrid() async {
        let ulp = 0.5.ulp
        let b = PixelPoint(x: 12, y: 12), c = PixelPoint(x: 24, y: 24)
        var wrongNaive = 0
        for i in 0..<256 {
            for j in 0..<256 {
                let p = PixelPoint(x: 0.5 + Double(i) * ulp, y: 0.5 + Double(j) * ulp)
                let expected: Orientation = j > i ? .counterClockwise : (j < i ? .clockwise : .collinear)
                #expect(orientation(p, b, c) == expected)
                let naive = (p.x - c.x) * (b.y - c.y) - (p.y - c.y) * (b.x - c.x)
                if sign(of: naive) != expected { wrongNaive += 1 }
            }
        }
        // The test is meaningful only if plain floating point fails here.
        #expect(wrongNaive > 1000)
    }

    /// A point one ulp off a long diagonal wall, at floor-plan coordinates.
    @Test(arguments: [1.0, 3.0, 7.5, 1234.0, 9999.0])
    func oneUlpOffLongDiagonal(t: Double) async {
        let a = PixelPoint(x: 0, y: 0), b = PixelPoint(x: 20000, y: 15000)
        // Points with y = 0.75 x exactly: x a multiple of 4 keeps y an integer.
        let x = t * 4
        let on = PixelPoint(x: x, y: x * 0.75)
        #expect(orientation(a, b, on) == .collinear)
        // y grows: the point moves to the left of a -> b (counter-clockwise in the y-up algebra).
        #expect(orientation(a, b, PixelPoint(x: on.x, y: on.y.nextUp)) == .counterClockwise)
        #expect(orientation(a, b, PixelPoint(x: on.x, y: on.y.nextDown)) == .clockwise)
        #expect(orientation(a, b, PixelPoint(x: on.x.nextUp, y: on.y)) == .clockwise)
    }

    @Test func exactFallbackAgreesOnEasyCases() async {
        let a = PixelPoint(x: 1, y: 1), b = PixelPoint(x: 5, y: 2)
        #expect(exactOrientation(a, b, PixelPoint(x: 0, y: 10)) == .counterClockwise)
        #expect(exactOrientation(a, b, PixelPoint(x: 0, y: -10)) == .clockwise)
        #expect(exactOrientation(a, b, PixelPoint(x: 9, y: 3)) == .collinear)
    }
}
