import Testing
@testable import PlanMarkGeometry

private func p(_ x: Double, _ y: Double) -> PixelPoint { PixelPoint(x: x, y: y) }

private func rect(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> [PixelPoint] {
    [p(x0, y0), p(x1, y0), p(x1, y1), p(x0, y1)]
}

/// Areas, perimeters, distances and calibrations, against values worked out by hand.
@Suite struct MeasurementTests {
    /// A 4 x 3 m room with a 1 x 1 m column (a hole) at 100 px per metre: 400 x 300 px minus 100 x 100 px
    /// = 110,000 px2 (11 m2); perimeter 2 * (400 + 300) + 4 * 100 = 1,800 px (18 m).
    @Test func roomWithAHole() async throws {
        let room = try Region(id: "R", coordinates: [[rect(100, 50, 500, 350), rect(200, 100, 300, 200)]])
        #expect(room.area == 110_000)
        #expect(room.perimeter == 1_800)
        let metresPerPixel = 0.01
        #expect(abs(room.area * metresPerPixel * metresPerPixel - 11) < 1e-12)
        #expect(abs(room.perimeter * metresPerPixel - 18) < 1e-12)
        // A binary scale keeps the products exact: at 0.125 m/px, 110,000 / 64 m2 and 1,800 / 8 m.
        #expect(room.area * 0.125 * 0.125 == 1_718.75)
        #expect(room.perimeter * 0.125 == 225)
    }

    /// An L: a 400 x 100 bar on a 100 x 200 leg = 40,000 + 20,000 = 60,000 px2; the six edges are
    /// 400 + 100 + 300 + 200 + 100 + 300 = 1,400 px.
    @Test func lShape() async throws {
        let l = [p(0, 0), p(400, 0), p(400, 100), p(100, 100), p(100, 300), p(0, 300)]
        let region = try Region(id: "L", coordinates: [[l]])
        #expect(region.area == 60_000)
        #expect(region.perimeter == 1_400)
        // Either orientation gives the same (unsigned) area.
        let reversed = try Region(id: "L", coordinates: [[l.reversed()]])
        #expect(reversed.area == 60_000)
        #expect(reversed.perimeter == 1_400)
    }

    /// A multipolygon's area and perimeter are its polygons' sums: a 10 x 10 and a 20 x 5 square (100 + 100
    /// px2; 40 + 50 px). A triangle with legs 30 and 40: area 600, perimeter 30 + 40 + 50.
    @Test func multipolygonAndTriangle() async throws {
        let two = try Region(id: "M", coordinates: [[rect(0, 0, 10, 10)], [rect(50, 50, 70, 55)]])
        #expect(two.area == 200)
        #expect(two.perimeter == 90)
        let triangle = try Region(id: "T", coordinates: [[[p(0, 0), p(30, 0), p(0, 40)]]])
        #expect(triangle.area == 600)
        #expect(triangle.perimeter == 120)
    }

    @Test func distance() async {
        #expect(p(0, 0).distance(to: p(300, 400)) == 500)
        #expect(p(10, 10).distance(to: p(10, 10)) == 0)
        #expect(p(-5, 2).distance(to: p(7, -3)) == 13)  // 12, 5, 13
    }

    /// Two points 400 px apart are 4 m (or 4,000 mm) apart: 0.01 m/px. 10 ft over 300 px is
    /// 3.048 m / 300 = 0.01016 m/px. 1:100 at 300 dpi: a pixel is 1/300 inch = 0.0254 / 300 m of paper,
    /// 100 times that in reality = 0.008466... m.
    @Test func calibrations() async throws {
        let metres = try #require(Calibration.twoPoints(from: p(100, 50), to: p(500, 50), distance: 4, unit: .m).metresPerPixel)
        #expect(abs(metres - 0.01) < 1e-15)
        let millimetres = try #require(Calibration.twoPoints(from: p(100, 50), to: p(500, 50), distance: 4000, unit: .mm).metresPerPixel)
        #expect(abs(millimetres - 0.01) < 1e-15)
        let feet = try #require(Calibration.twoPoints(from: p(0, 0), to: p(180, 240), distance: 10, unit: .ft).metresPerPixel)
        #expect(abs(feet - 0.01016) < 1e-15)
        let paper = try #require(Calibration.paperScale(paper: 1, reality: 100, dpi: 300).metresPerPixel)
        #expect(abs(paper - 0.00846666666666667) < 1e-15)
        // Worked out on the decimals, rounded once: 254 * 100 / (10,000 * 300) = 127 / 15,000 (the doubles'
        // 0.0254 / 300 * 100 is one ulp below, 0.008466666666666666).
        #expect(paper == 127.0 / 15_000.0)
        let half = try #require(Calibration.paperScale(paper: 1, reality: 50, dpi: 254).metresPerPixel)
        #expect(abs(half - 0.005) < 1e-15)  // a 254 dpi pixel is 0.1 mm of paper, 50 times that
    }

    @Test func calibrationsWithoutAScale() async {
        #expect(Calibration.twoPoints(from: p(1, 1), to: p(1, 1), distance: 4, unit: .m).metresPerPixel == nil)
        #expect(Calibration.twoPoints(from: p(0, 0), to: p(1, 1), distance: 0, unit: .m).metresPerPixel == nil)
        #expect(Calibration.twoPoints(from: p(0, 0), to: p(1, 1), distance: -2, unit: .m).metresPerPixel == nil)
        #expect(Calibration.twoPoints(from: p(0, .nan), to: p(1, 1), distance: 2, unit: .m).metresPerPixel == nil)
        #expect(Calibration.paperScale(paper: 1, reality: 100, dpi: 0).metresPerPixel == nil)
        #expect(Calibration.paperScale(paper: 0, reality: 100, dpi: 300).metresPerPixel == nil)
        #expect(Calibration.paperScale(paper: 1, reality: .infinity, dpi: 300).metresPerPixel == nil)
    }
}
