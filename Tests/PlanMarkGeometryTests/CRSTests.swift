import Testing
@testable import PlanMarkGeometry
import PlanMarkTestSupport

/// `SimpleCRS` against Leaflet's own spec, against Leaflet and flutter_map run in a JavaScript engine
/// (`Vectors/crs.txt`, bit for bit), and against properties that follow from the formulas.
@Suite struct CRSTests {
    // MARK: Leaflet's spec/suites/geo/CRSSpec.js, "CRS.Simple"

    @Test(arguments: [
        (LatLng(lat: 0, lng: 0), Zoom(0), PixelPoint(x: 0, y: 0)),
        (LatLng(lat: 700, lng: 300), Zoom(0), PixelPoint(x: 300, y: -700)),
        (LatLng(lat: -200, lng: 1000), Zoom(1), PixelPoint(x: 2000, y: 400)),
    ])
    func leafletSpecLatLngToPoint(latLng: LatLng, zoom: Zoom, pixel: PixelPoint) async {
        #expect(SimpleCRS.leaflet.pixel(from: latLng, at: zoom) == pixel)
    }

    @Test(arguments: [
        (PixelPoint(x: 0, y: 0), Zoom(0), LatLng(lat: 0, lng: 0)),
        (PixelPoint(x: 300, y: -700), Zoom(0), LatLng(lat: 700, lng: 300)),
        (PixelPoint(x: 2000, y: 400), Zoom(1), LatLng(lat: -200, lng: 1000)),
    ])
    func leafletSpecPointToLatLng(pixel: PixelPoint, zoom: Zoom, latLng: LatLng) async {
        #expect(SimpleCRS.leaflet.latLng(from: pixel, at: zoom) == latLng)
    }

    /// Signed zeros as JavaScript gives them: `scale * (-1 * 0 + 0)` is +0; `(0 / s - 0) / -1` is -0.
    @Test func signedZeros() async {
        let origin = SimpleCRS.leaflet.pixel(from: LatLng(lat: 0, lng: -0.0), at: 3)
        #expect(origin.x.bitPattern == (0.0).bitPattern && origin.y.bitPattern == (0.0).bitPattern)
        let back = SimpleCRS.leaflet.latLng(from: PixelPoint(x: 0, y: 0), at: 3)
        #expect(back.lat.bitPattern == (-0.0).bitPattern && back.lng.bitPattern == (0.0).bitPattern)
        let flutter = SimpleCRS.flutter.latLng(from: PixelPoint(x: -0.0, y: 0), at: 3)
        #expect(flutter.lat.bitPattern == (-0.0).bitPattern && flutter.lng.bitPattern == (-0.0).bitPattern)
    }

    @Test func scales() async {
        #expect(SimpleCRS.leaflet.scale(at: 0) == 1)
        #expect(SimpleCRS.leaflet.scale(at: -3) == 0.125)
        #expect(SimpleCRS.flutter.scale(at: 0) == 256)
        #expect(SimpleCRS.flutter.scale(at: -8) == 1)
        // A flutter_map zoom z is the Leaflet zoom z + 8.
        #expect(SimpleCRS.flutter.scale(at: 2.5) == SimpleCRS.leaflet.scale(at: 10.5))
        #expect(SimpleCRS.leaflet.zoom(forScale: 1024) == 10)
        #expect(SimpleCRS.flutter.zoom(forScale: 1024) == 2)
    }

    /// Leaflet's `Transformation` uses `scale || 1`: once `2^z` underflows to 0, the scale is 1.
    @Test func leafletScaleThatUnderflowsIsOne() async {
        let pixel = SimpleCRS.leaflet.pixel(from: LatLng(lat: 2, lng: 3), at: Zoom(-1100))
        #expect(pixel == PixelPoint(x: 3, y: -2))
        #expect(SimpleCRS.leaflet.latLng(from: PixelPoint(x: 3, y: -2), at: Zoom(-1100)) == LatLng(lat: 2, lng: 3))
    }

    // MARK: The vectors

    @Test(arguments: CRSFlavour.allCases)
    func bitIdenticalToTheLibrary(flavour: CRSFlavour) async throws {
        let crs = SimpleCRS(flavour)
        let lines = try CRSVectors.lines(of: "crs.txt").filter { $0.tokens.first.map(String.init) == flavour.rawValue }
        #expect(lines.count > 2000)
        var counts: [String: Int] = [:]
        var failures: [String] = []
        func check(_ line: CRSVectors.Line, _ actual: [Double], from index: Int) {
            let expected = (index..<(index + actual.count)).map(line.double)
            if !zip(actual, expected).allSatisfy(CRSVectors.same) {
                failures.append("\(line) -> \(actual.map(CRSVectors.hex)) \(actual)")
            }
        }
        for line in lines {
            let kind = String(line.tokens[1])
            counts[kind, default: 0] += 1
            switch kind {
            case "scale":
                check(line, [crs.scale(at: Zoom(line.double(2)))], from: 3)
            case "zoom":
                check(line, [crs.zoom(forScale: line.double(2)).value], from: 3)
            case "to-pixel":
                let pixel = crs.pixel(from: LatLng(lat: line.double(3), lng: line.double(4)), at: Zoom(line.double(2)))
                check(line, [pixel.x, pixel.y], from: 5)
            case "to-latlng":
                let latLng = crs.latLng(from: PixelPoint(x: line.double(3), y: line.double(4)), at: Zoom(line.double(2)))
                check(line, [latLng.lat, latLng.lng], from: 5)
            case "bounds":
                let size = DrawingSize(width: line.double(3), height: line.double(4))
                let bounds = crs.bounds(of: size, at: Zoom(line.double(2)))
                check(line, [bounds.southWest.lat, bounds.southWest.lng, bounds.northEast.lat, bounds.northEast.lng], from: 5)
            case "fits":
                let size = DrawingSize(width: line.double(3), height: line.double(4))
                let fits = crs.representsWithoutClamping(size, at: Zoom(line.double(2)))
                if fits != (line.tokens[5] == "1") { failures.append("\(line) -> \(fits)") }
            default:
                failures.append("\(line): unknown kind")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) mismatches, first: \(failures.prefix(5))")
        // Every kind is covered, and the flutter vectors include drawings that do not fit.
        #expect(Set(counts.keys) == ["scale", "zoom", "to-pixel", "to-latlng", "bounds", "fits"])
        if flavour == .flutter {
            #expect(lines.contains { $0.tokens[1] == "fits" && $0.tokens[5] == "0" })
        }
    }

    // MARK: Properties

    /// At an integer zoom the scale is a power of two, so pixel -> latLng -> pixel gives the pixel
    /// back exactly (as numbers: a pixel y of -0 comes back +0, as in Leaflet).
    @Test(arguments: CRSFlavour.allCases)
    func roundTripAtIntegerZoomsIsExact(flavour: CRSFlavour) async {
        let crs = SimpleCRS(flavour)
        var generator = SeededGenerator(seed: 0x0052_4F55_4E44)
        for zoom in -20...30 {
            let s = crs.scale(at: Zoom(Double(zoom)))
            for _ in 0..<200 {
                var pixel = PixelPoint(
                    x: Self.pixelCoordinate(using: &generator), y: Self.pixelCoordinate(using: &generator))
                if flavour == .flutter {  // stay inside what flutter_map represents without clamping
                    pixel.x = min(max(pixel.x, -180 * s), 180 * s)
                    pixel.y = min(max(pixel.y, -90 * s), 90 * s)
                }
                let latLng = crs.latLng(from: pixel, at: Zoom(Double(zoom)))
                let back = crs.pixel(from: latLng, at: Zoom(Double(zoom)))
                #expect(back == pixel, "\(flavour) zoom \(zoom): \(pixel) -> \(latLng) -> \(back) (seed \(generator.seed))")
            }
        }
    }

    /// flutter_map clamps exactly the pixels whose latLng leaves [-90, 90] x [-180, 180]: at an
    /// integer zoom, `lng = x / s` is exact, so that is `|x| > 180 s` (and `|y| > 90 s`).
    @Test func flutterClampsExactlyOutsideTheRange() async {
        var generator = SeededGenerator(seed: 0x00C1_A4B0)
        var clampedCount = 0
        for zoom in -8...12 {
            let s = SimpleCRS.flutter.scale(at: Zoom(Double(zoom)))
            for _ in 0..<300 {
                let x = (Double.random(in: -400...400, using: &generator) * s).rounded()
                let y = (Double.random(in: -200...200, using: &generator) * s).rounded()
                let latLng = SimpleCRS.flutter.latLng(from: PixelPoint(x: x, y: y), at: Zoom(Double(zoom)))
                let expectedLng = x > 180 * s ? 180 : x < -180 * s ? -180 : x / s
                let expectedLat = y > 90 * s ? -90 : y < -90 * s ? 90 : -(y / s)
                #expect(latLng == LatLng(lat: expectedLat, lng: expectedLng), "zoom \(zoom), (\(x), \(y)) (seed \(generator.seed))")
                if abs(x) > 180 * s || abs(y) > 90 * s { clampedCount += 1 }
                // Leaflet never clamps.
                let leaflet = SimpleCRS.leaflet.latLng(from: PixelPoint(x: x, y: y), at: Zoom(Double(zoom + 8)))
                #expect(leaflet == LatLng(lat: -(y / s), lng: x / s), "zoom \(zoom), (\(x), \(y)) (seed \(generator.seed))")
            }
        }
        #expect(clampedCount > 1000, "seed \(generator.seed)")
    }

    /// A drawing fits flutter_map's CrsSimple at a zoom exactly when its far corner is not clamped.
    @Test func representsWithoutClampingMatchesTheFarCorner() async {
        var generator = SeededGenerator(seed: 0x0000_F175)
        for zoom in [-2.0, 0, 1, 2.5, 6, 7.3] {
            for _ in 0..<200 {
                let size = DrawingSize(width: Double(Int.random(in: 0...100_000, using: &generator)),
                                       height: Double(Int.random(in: 0...50_000, using: &generator)))
                let corner = PixelPoint(x: size.width, y: size.height)
                let s = SimpleCRS.flutter.scale(at: Zoom(zoom))
                let raw = LatLng(lat: -(corner.y / s), lng: corner.x / s)
                let converted = SimpleCRS.flutter.latLng(from: corner, at: Zoom(zoom))
                #expect(SimpleCRS.flutter.representsWithoutClamping(size, at: Zoom(zoom)) == (converted == raw),
                        "\(size) zoom \(zoom) (seed \(generator.seed))")
                #expect(SimpleCRS.leaflet.representsWithoutClamping(size, at: Zoom(zoom)), "\(size) zoom \(zoom) (seed \(generator.seed))")
            }
        }
    }

    private static func pixelCoordinate(using generator: inout SeededGenerator) -> Double {
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: return Double(Int.random(in: -20000...20000, using: &generator))
        case 1: return Double(Int.random(in: -20000...20000, using: &generator)) + 0.5
        case 2: return Double.random(in: -20000...20000, using: &generator)
        default: return Double(Int.random(in: -1_000_000_000...1_000_000_000, using: &generator))
        }
    }
}
