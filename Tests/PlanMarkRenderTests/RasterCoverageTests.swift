import PlanMarkGeometry
import Testing
@testable import PlanMarkRender

/// Exact-area coverage: the rasteriser against hand-computed areas and an independent polygon clipper.
@Suite("Raster coverage")
struct RasterCoverageTests {
    /// Length of `[a0, a1] ∩ [b0, b1]`.
    static func overlap(_ a0: Double, _ a1: Double, _ b0: Double, _ b1: Double) -> Double {
        max(0, min(a1, b1) - max(a0, b0))
    }

    @Test("square from 1.5 to 3.5: quarters at the corners, halves on the sides, one full pixel")
    func halfPixelSquare() async {
        let coverage = RasterTesting.coverage(
            RasterTesting.path([(1.5, 1.5), (3.5, 1.5), (3.5, 3.5), (1.5, 3.5)]), width: 5, height: 5)
        let expected: [Double] = [
            0, 0, 0, 0, 0,
            0, 0.25, 0.5, 0.25, 0,
            0, 0.5, 1, 0.5, 0,
            0, 0.25, 0.5, 0.25, 0,
            0, 0, 0, 0, 0,
        ]
        for i in expected.indices { #expect(abs(coverage[i] - expected[i]) < 1e-6, "pixel \(i)") }
    }

    @Test("axis-aligned rectangles: each pixel gets the product of its overlaps", arguments: [
        (0.25, 0.75, 3.75, 2.25), (0.5, 0.5, 6.5, 1.5), (2.1, 0.9, 2.6, 5.3), (0, 0, 7, 6), (3, 2, 4, 3),
    ])
    func rectangles(_ box: (Double, Double, Double, Double)) async {
        let (x0, y0, x1, y1) = box
        let coverage = RasterTesting.coverage(
            RasterTesting.path([(x0, y0), (x1, y0), (x1, y1), (x0, y1)]), width: 7, height: 6)
        for y in 0..<6 {
            for x in 0..<7 {
                let expected = Self.overlap(x0, x1, Double(x), Double(x + 1)) * Self.overlap(y0, y1, Double(y), Double(y + 1))
                #expect(abs(coverage[y * 7 + x] - expected) < 1e-5, "pixel (\(x), \(y))")
            }
        }
    }

    static let polygons: [[(Double, Double)]] = [
        [(2.3, 1.7), (27.9, 4.2), (11.4, 22.6)],  // triangle, slanted edges
        [(15, 1), (18.5, 10.2), (28.4, 10.4), (20.6, 16.3), (23.4, 26.1), (15, 20.3), (6.6, 26.1),
         (9.4, 16.3), (1.6, 10.4), (11.5, 10.2)],  // star: concave
        [(1.2, 13.05), (28.8, 13.01), (28.9, 13.95), (1.1, 13.9)],  // long shallow sliver
        [(14.01, 0.5), (14.99, 0.5), (14.6, 29.5)],  // tall steep sliver
    ]

    @Test("total coverage equals the polygon's area within 1e-3", arguments: polygons)
    func totalArea(_ polygon: [(Double, Double)]) async {
        let coverage = RasterTesting.coverage(RasterTesting.path(polygon), width: 30, height: 30)
        #expect(abs(coverage.reduce(0, +) - RasterTesting.area(polygon)) < 1e-3)
        // Reversing the orientation changes nothing under non-zero.
        let reversed = RasterTesting.coverage(RasterTesting.path(polygon.reversed()), width: 30, height: 30)
        #expect(zip(coverage, reversed).allSatisfy { abs($0 - $1) < 1e-6 })
    }

    @Test("each pixel of a convex polygon matches Sutherland–Hodgman clipping", arguments: [polygons[0], polygons[2], polygons[3]])
    func perPixel(_ polygon: [(Double, Double)]) async {
        let coverage = RasterTesting.coverage(RasterTesting.path(polygon), width: 30, height: 30)
        var worst = 0.0
        for y in 0..<30 {
            for x in 0..<30 {
                worst = max(worst, abs(coverage[y * 30 + x] - RasterTesting.exactPixelCoverage(polygon, px: x, py: y)))
            }
        }
        #expect(worst < 1e-4)
    }

    @Test("a shape hanging off the canvas covers exactly its part on the canvas")
    func clippedToCanvas() async {
        // Square [-2.5, 3.5] x [-2.5, 2.5] on a 3x3 canvas: rows 0 and 1 full, row 2 half.
        let left = RasterTesting.coverage(RasterTesting.path([(-2.5, -2.5), (3.5, -2.5), (3.5, 2.5), (-2.5, 2.5)]), width: 3, height: 3)
        #expect(left == [1, 1, 1, 1, 1, 1, 0.5, 0.5, 0.5].map { $0 })
        // A triangle crossing the left and right sides: on-canvas area by clipping.
        let triangle = [(-4.0, 0.5), (7.0, 1.0), (1.0, 2.9)]
        let coverage = RasterTesting.coverage(RasterTesting.path(triangle), width: 3, height: 3)
        for y in 0..<3 {
            for x in 0..<3 {
                #expect(abs(coverage[y * 3 + x] - RasterTesting.exactPixelCoverage(triangle, px: x, py: y)) < 1e-5)
            }
        }
    }

    @Test("non-zero fills an overlap once, even-odd leaves it empty")
    func fillRules() async {
        var path = RasterPath()
        path.addRectangle(minX: 0, minY: 0, maxX: 4, maxY: 2)
        path.addRectangle(minX: 2, minY: 0, maxX: 6, maxY: 2)
        let nonZero = RasterTesting.coverage(path, rule: .nonZero, width: 6, height: 2)
        let evenOdd = RasterTesting.coverage(path, rule: .evenOdd, width: 6, height: 2)
        #expect(nonZero == [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
        #expect(evenOdd == [1, 1, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1])
    }

    @Test("a shape taller than one band is exact across band boundaries")
    func manyBands() async {
        // 1000 wide: a band holds 2^18 / 1002 = 261 rows, so 700 rows take three bands.
        let polygon = [(0.25, 0.5), (999.75, 0.5), (999.75, 700.25), (0.25, 700.25)]
        let coverage = RasterTesting.coverage(RasterTesting.path(polygon), width: 1000, height: 701)
        #expect(abs(coverage.reduce(0, +) - RasterTesting.area(polygon)) < 1e-2)
        #expect((1..<700).allSatisfy { coverage[$0 * 1000 + 500] == 1 })
        #expect(abs(coverage[500] - 0.5) < 1e-6 && abs(coverage[700 * 1000 + 500] - 0.25) < 1e-6)
    }

    @Test("a hole leaves its pixels untouched and nothing is drawn outside the bounding box")
    func holeAndBounds() async {
        var image = RasterTesting.image(width: 20, height: 20, colour: Colour(rgb: 0x808080))
        let before = image
        var path = RasterPath()
        path.addPolygon([(3.5, 2.5), (16.5, 2.5), (16.5, 15.5), (3.5, 15.5)].map { PixelPoint(x: $0.0, y: $0.1) })
        path.addPolygon([(6, 5), (6, 12), (13, 12), (13, 5)].map { PixelPoint(x: $0.0, y: $0.1) })  // reversed
        var rasteriser = Rasteriser()
        rasteriser.fill(path, colour: Colour(rgb: 0xFF0000), into: &image)
        for y in 0..<20 {
            for x in 0..<20 {
                let changed = RasterTesting.pixel(image, x, y) != RasterTesting.pixel(before, x, y)
                let inHole = x >= 6 && x < 13 && y >= 5 && y < 12
                let inBox = x >= 3 && x < 17 && y >= 2 && y < 16
                if inHole || !inBox { #expect(!changed, "pixel (\(x), \(y))") } else { #expect(changed, "pixel (\(x), \(y))") }
            }
        }
        // A full-coverage pixel takes the colour; a half-covered one the exact mix (128 + 255) / 2.
        #expect(RasterTesting.pixel(image, 4, 3) == [255, 0, 0, 255])
        #expect(RasterTesting.pixel(image, 3, 8) == [192, 64, 64, 255])
    }
}
