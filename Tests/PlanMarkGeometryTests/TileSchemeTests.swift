import Testing
@testable import PlanMarkGeometry
import PlanMarkTestSupport

/// `TileScheme` against levels and tile counts worked out by hand, and against what Leaflet's and
/// flutter_map's `TileLayer` ask for under `SimpleCRS`.
@Suite struct TileSchemeTests {
    /// A0 at 300 dpi with image pixels = CRS pixels at zoom 0: f = 2^-z. 14043 / 2^k <= 256 first for
    /// 2^k = 64, so minZoom = -6. Columns ceil(14043 / (256 f)), rows ceil(9933 / (256 f)):
    /// z 0: 54.9 -> 55, 38.8 -> 39; -1: 27.4 -> 28, 19.4 -> 20; -2: 13.7 -> 14, 9.7 -> 10; -3: 6.9 -> 7,
    /// 4.9 -> 5; -4: 3.4 -> 4, 2.4 -> 3; -5: 1.7 -> 2, 1.2 -> 2; -6: 1, 1. Total 2145 + 560 + 140 + 35 +
    /// 12 + 4 + 1 = 2897.
    @Test func a0SheetAtZoomZero() async throws {
        let scheme = try #require(TileScheme(width: 14043, height: 9933, zoom: 0))
        #expect(scheme.maxZoom == 0)
        #expect(scheme.minZoom == -6)
        let expected: [(Int, Int, Int)] = [(0, 55, 39), (-1, 28, 20), (-2, 14, 10), (-3, 7, 5), (-4, 4, 3), (-5, 2, 2), (-6, 1, 1)]
        for (z, columns, rows) in expected {
            #expect(scheme.columns(at: z) == columns, "z \(z)")
            #expect(scheme.rows(at: z) == rows, "z \(z)")
        }
        #expect(scheme.tileCount == 2897)
        #expect(scheme.levelSize(at: 0) == (14043, 9933))
        #expect(scheme.levelSize(at: -1) == (7022, 4967))
        #expect(scheme.levelSize(at: -6) == (220, 156))
    }

    /// S = 3 + log2(1.5): maxZoom 3 with f = 1.5: 1000 / 1.5 = 666.7 -> 667 by 400, 3 x 2 tiles; z 2, f = 3:
    /// 333.3 -> 334 by 200, 2 x 1; z 1, f = 6: 166.7 by 100 fits one tile, so minZoom = 1. 9 tiles.
    @Test func fractionalZoom() async throws {
        let scheme = try #require(TileScheme(width: 1000, height: 600, zoom: Zoom(3 + 0.5849625007211562)))
        #expect(scheme.maxZoom == 3 && scheme.minZoom == 1)
        #expect(abs(scheme.factor(at: 3) - 1.5) < 1e-12)
        #expect(abs(scheme.factor(at: 1) - 6) < 1e-12)
        #expect(scheme.levelSize(at: 3) == (667, 400))
        #expect(scheme.levelSize(at: 2) == (334, 200))
        #expect((scheme.columns(at: 3), scheme.rows(at: 3)) == (3, 2))
        #expect((scheme.columns(at: 2), scheme.rows(at: 2)) == (2, 1))
        #expect((scheme.columns(at: 1), scheme.rows(at: 1)) == (1, 1))
        #expect(scheme.tileCount == 9)
    }

    /// S = -2.5: maxZoom = floor(-2.5) = -3, f = 2^0.5 = 1.414: 1000 / 1.414 = 707.1 -> 3 columns, 100 / 1.414
    /// = 70.7 -> 1 row; z -4, f = 2.83: 353.6 -> 2 columns; z -5, f = 5.66: 176.8 fits, so minZoom = -5.
    @Test func negativeFractionalZoom() async throws {
        let scheme = try #require(TileScheme(width: 1000, height: 100, zoom: -2.5))
        #expect(scheme.levels == -5 ... -3)
        #expect(scheme.levelSize(at: -3) == (708, 71))
        #expect([-3, -4, -5].map { scheme.columns(at: $0) } == [3, 2, 1])
        #expect([-3, -4, -5].map { scheme.rows(at: $0) } == [1, 1, 1])
        #expect(scheme.tileCount == 6)
    }

    /// A side of exactly 256 fits; 257 needs a second column at the top and one level more.
    @Test func exactFit() async throws {
        let fits = try #require(TileScheme(width: 256, height: 256, zoom: 5))
        #expect(fits.levels == 5...5 && fits.tileCount == 1)
        let over = try #require(TileScheme(width: 257, height: 1, zoom: 5))
        #expect(over.levels == 4...5)
        #expect(over.columns(at: 5) == 2 && over.rows(at: 5) == 1)
        #expect(over.tileCount == 3)
    }

    @Test func refusesWhatCannotBeTiled() async {
        #expect(TileScheme(width: 0, height: 10, zoom: 0) == nil)
        #expect(TileScheme(width: 10, height: -1, zoom: 0) == nil)
        #expect(TileScheme(width: 10, height: 10, zoom: 65) == nil)
        #expect(TileScheme(width: 10, height: 10, zoom: Zoom(.nan)) == nil)
    }

    @Test func tilesOutsideThePyramid() async throws {
        let scheme = try #require(TileScheme(width: 300, height: 200, zoom: 0))  // z 0: 2 x 1; z -1: 1 x 1
        #expect(scheme.levels == -1...0)
        #expect(scheme.contains(TileCoordinate(z: 0, x: 1, y: 0)))
        #expect(scheme.contains(TileCoordinate(z: -1, x: 0, y: 0)))
        #expect(!scheme.contains(TileCoordinate(z: 0, x: 2, y: 0)))
        #expect(!scheme.contains(TileCoordinate(z: 0, x: 0, y: 1)))
        #expect(!scheme.contains(TileCoordinate(z: 0, x: -1, y: 0)))
        #expect(!scheme.contains(TileCoordinate(z: 1, x: 0, y: 0)))
        #expect(!scheme.contains(TileCoordinate(z: -2, x: 0, y: 0)))
    }

    /// What both map clients do: a `TileLayer` at zoom z turns a latLng into CRS pixels at z
    /// (`latLngToPoint`) and asks for tile `floor(pixel / 256)`. For an image pixel's centre at the server
    /// zoom S, that tile must be in the pyramid and its covered full-resolution pixels
    /// `[x 256 f, (x+1) 256 f) x [y 256 f, (y+1) 256 f)` must contain the image pixel.
    @Test(arguments: CRSFlavour.allCases)
    func tileLayersAskForTheTilesThatCoverThePixel(flavour: CRSFlavour) async throws {
        let crs = SimpleCRS(flavour)
        var random = SeededGenerator()
        for (width, height, s) in [(14043, 9933, 0.0), (1000, 600, 3.5849625007211562), (1000, 100, -2.5), (5000, 3000, 2.25)] {
            let scheme = try #require(TileScheme(width: width, height: height, zoom: Zoom(s)))
            var pixels = [(0, 0), (width - 1, height - 1), (width - 1, 0), (0, height - 1)]
            for _ in 0..<200 { pixels.append((Int.random(in: 0..<width, using: &random), Int.random(in: 0..<height, using: &random))) }
            for (px, py) in pixels {
                let latLng = crs.latLng(from: PixelPoint(x: Double(px) + 0.5, y: Double(py) + 0.5), at: Zoom(s))
                for z in scheme.levels {
                    let point = crs.pixel(from: latLng, at: Zoom(Double(z)))
                    let tile = TileCoordinate(z: z, x: Int((point.x / 256).rounded(.down)), y: Int((point.y / 256).rounded(.down)))
                    #expect(scheme.contains(tile), "\(flavour) \(width)x\(height) S \(s): pixel \(px),\(py) -> \(tile)")
                    let side = 256 * scheme.factor(at: z)
                    #expect(Double(tile.x) * side <= Double(px) && Double(px) < Double(tile.x + 1) * side, "\(flavour) pixel \(px) z \(z)")
                    #expect(Double(tile.y) * side <= Double(py) && Double(py) < Double(tile.y + 1) * side, "\(flavour) pixel \(py) z \(z)")
                }
            }
        }
    }
}
