import Foundation
import Testing
@testable import PlanMarkGeometry
import PlanMarkTestSupport

/// The grid's cells marked wholly inside a region (`PackedRegions.cellInside`): lookups through the
/// index agree with each region's own ray casting (`Region.locate`, checked against GEOS elsewhere)
/// on seeded random points, points on walls and vertices, and the cells' own corners and centres.
@Suite struct CellClassificationTests {
    func p(_ x: Double, _ y: Double) -> PixelPoint { PixelPoint(x: x, y: y) }

    /// An allowed area with two holes around a 6 x 4 grid of rooms (one L-shaped pair, one room with a
    /// column), a room with a curved wall of 200 vertices, and a large triangle with long diagonal walls.
    func regions() throws -> [Region] {
        var list: [Region] = []
        let xs: [Double] = [100, 230, 400, 520, 700, 810, 1000]
        let ys: [Double] = [100, 260, 390, 600, 700]
        for r in 0..<4 {
            for c in 0..<6 {
                let x0 = xs[c], x1 = xs[c + 1], y0 = ys[r], y1 = ys[r + 1]
                var rings = [[p(x0, y0), p(x1, y0), p(x1, y1), p(x0, y1)]]
                if r == 1 && c == 2 { rings.append([p(440, 300), p(460, 300), p(460, 320), p(440, 320)]) }
                list.append(try Region(id: "R\(r)\(c)", coordinates: [rings]))
            }
        }
        // A half disc: its curved wall from (1100, 100) round to (1100, 500), closed by a straight wall.
        let arc = (0...200).map { k in
            let angle = Double.pi / 2 - Double.pi * Double(k) / 200
            return p(1100 + 200 * cos(angle), 300 - 200 * sin(angle))
        }
        list.append(try Region(id: "arc", coordinates: [[arc]]))
        list.append(try Region(id: "tri", coordinates: [[[p(100, 800), p(1300, 800), p(700, 1400)]]]))
        list.append(try Region(id: "A", kind: .allowed, coordinates: [[
            [p(50, 50), p(1400, 50), p(1400, 1450), p(50, 1450)],
            [p(60, 60), p(90, 60), p(90, 90), p(60, 90)],
            [p(1200, 1200), p(1250, 1200), p(1250, 1250), p(1200, 1250)],
        ]]))
        return list
    }

    func viaIndex(_ index: RegionIndex, _ point: PixelPoint) -> [String] {
        var out: [String] = []
        index.forEachRegion(containing: point) { k, location in out.append("\(k):\(location.rawValue)") }
        return out
    }

    func bruteForce(_ regions: [Region], _ point: PixelPoint) -> [String] {
        regions.enumerated().compactMap { k, region in
            let location = region.locate(point)
            return location == .outside ? nil : "\(k):\(location.rawValue)"
        }
    }

    @Test func indexAgreesWithBruteForce() async throws {
        let regions = try regions()
        let index = RegionIndex(regions)
        let storage = index.storage
        let marked = (0..<storage.cellInside.count).filter { storage.cellInside[$0] != 0 }.count
        #expect(marked > 0)  // the path is taken: the allowed area and the large triangle cover whole cells

        var points: [PixelPoint] = []
        for region in regions {
            for polygon in region.polygons {
                for ring in [polygon.exterior] + polygon.holes {
                    let v = ring.vertices
                    points += v
                    for k in v.indices {  // midpoints of edges (exactly on axis-parallel walls)
                        let q = v[k + 1 == v.count ? 0 : k + 1]
                        points.append(p((v[k].x + q.x) / 2, (v[k].y + q.y) / 2))
                    }
                }
            }
        }
        // The cells' corners and centres, and points one ulp off them.
        for r in 0...storage.rows {
            for c in 0...storage.columns {
                let x = storage.bounds.minX + Double(c) / storage.scaleX, y = storage.bounds.minY + Double(r) / storage.scaleY
                points += [p(x, y), p(x.nextUp, y.nextDown), p(x + 0.5 / storage.scaleX, y + 0.5 / storage.scaleY)]
            }
        }
        var rng = SeededGenerator()
        for _ in 0..<30_000 {
            let x = Double.random(in: 0...1500, using: &rng), y = Double.random(in: 0...1500, using: &rng)
            points += [p(x, y), p(x.rounded(), y.rounded()), p(x.rounded(), y), p(x, y.rounded())]
        }
        var failures = 0
        for point in points where failures < 10 {
            let got = viaIndex(index, point), expected = bruteForce(regions, point)
            if got != expected {
                failures += 1
                Issue.record("\(point): index \(got), brute force \(expected) (seed \(rng.seed))")
            }
        }
        #expect(failures == 0)
    }

    /// Long diagonal walls over many cells: the region is left unmarked (the marking budget), and its
    /// points are still located exactly.
    @Test func longDiagonalWallsStayExact() async throws {
        var regions: [Region] = []
        for k in 0..<40 {
            let x = Double(k) * 10
            regions.append(try Region(id: "s\(k)", coordinates: [[[p(x, 0), p(x + 10, 0), p(x + 10, 10), p(x, 10)]]]))
        }
        regions.append(try Region(id: "wedge", kind: .allowed, coordinates: [[[p(0, 0), p(400, 0), p(400, 400)]]]))
        let index = RegionIndex(regions)
        var rng = SeededGenerator()
        for _ in 0..<20_000 {
            let x = Double.random(in: 0...400, using: &rng)
            let y = Bool.random(using: &rng) ? x : Double.random(in: 0...400, using: &rng)  // often on the diagonal
            let point = p(x, y)
            #expect(viaIndex(index, point) == bruteForce(regions, point), "\(point) (seed \(rng.seed))")
        }
    }
}
