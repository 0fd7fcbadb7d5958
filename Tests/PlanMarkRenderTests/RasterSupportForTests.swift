import Foundation
import PlanMarkGeometry
import Testing
@testable import PlanMarkRender

/// Helpers shared by the rasteriser, text and review tests.
enum RasterTesting {
    /// An opaque image filled with one colour.
    static func image(width: Int, height: Int, colour: Colour = .white) -> RGBAImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            pixels[i] = colour.red; pixels[i + 1] = colour.green; pixels[i + 2] = colour.blue; pixels[i + 3] = colour.alpha
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// The coverage of `path` on a `width × height` canvas, row-major; also checks that the rasteriser
    /// never reports a row or column twice or off the canvas.
    static func coverage(_ path: RasterPath, rule: RasterFillRule = .nonZero, width: Int, height: Int) -> [Double] {
        var sink = CoverageSink(width: width, height: height)
        var rasteriser = Rasteriser()
        rasteriser.rasterise(path, rule: rule, clip: PixelRect(x0: 0, y0: 0, x1: width, y1: height), into: &sink)
        return sink.values
    }

    /// Collects coverage into a full-canvas array, checking that every pixel is reported at most once,
    /// on the canvas, rows top to bottom and columns left to right.
    struct CoverageSink: RasterSpanSink {
        let width: Int, height: Int
        var values: [Double]
        var reported: [Bool]
        var last = (y: -1, x: -1)

        init(width: Int, height: Int) {
            self.width = width
            self.height = height
            values = [Double](repeating: 0, count: width * height)
            reported = [Bool](repeating: false, count: width * height)
        }

        mutating func put(_ y: Int, _ x: Int, _ value: Double) {
            precondition(y >= 0 && y < height && x >= 0 && x < width, "pixel (\(x), \(y)) off the canvas")
            precondition(y > last.y || (y == last.y && x > last.x), "pixel (\(x), \(y)) out of order")
            precondition(!reported[y * width + x], "pixel (\(x), \(y)) reported twice")
            reported[y * width + x] = true
            values[y * width + x] = value
            last = (y, x)
        }

        mutating func span(y: Int, x0: Int, x1: Int, coverage: Float) {
            precondition(coverage > 0 && x1 > x0)
            for x in x0..<x1 { put(y, x, Double(coverage)) }
        }

        mutating func cells(y: Int, x0: Int, coverage: UnsafeBufferPointer<Float>) {
            for (i, value) in coverage.enumerated() { put(y, x0 + i, Double(value)) }
        }
    }

    /// A path holding one polygon.
    static func path(_ points: [(Double, Double)]) -> RasterPath {
        var path = RasterPath()
        path.addPolygon(points.map { PixelPoint(x: $0.0, y: $0.1) })
        return path
    }

    /// Twice the signed area of a polygon by the shoelace formula, halved and made positive.
    static func area(_ points: [(Double, Double)]) -> Double {
        var sum = 0.0
        for i in points.indices {
            let a = points[i], b = points[(i + 1) % points.count]
            sum += a.0 * b.1 - b.0 * a.1
        }
        return abs(sum) / 2
    }

    /// The exact area of a convex polygon inside the unit pixel at `(px, py)`, by Sutherland–Hodgman
    /// clipping: the independent reference for per-pixel coverage.
    static func exactPixelCoverage(_ polygon: [(Double, Double)], px: Int, py: Int) -> Double {
        var points = polygon
        let x0 = Double(px), x1 = Double(px + 1), y0 = Double(py), y1 = Double(py + 1)
        let planes: [((Double, Double)) -> Double] = [
            { $0.0 - x0 }, { x1 - $0.0 }, { $0.1 - y0 }, { y1 - $0.1 },
        ]
        for inside in planes {
            var output: [(Double, Double)] = []
            for i in points.indices {
                let a = points[i], b = points[(i + 1) % points.count]
                let da = inside(a), db = inside(b)
                if da >= 0 { output.append(a) }
                if (da >= 0) != (db >= 0) {
                    let t = da / (da - db)
                    output.append((a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t))
                }
            }
            points = output
            if points.isEmpty { return 0 }
        }
        return points.count < 3 ? 0 : area(points)
    }

    /// The RGBA bytes of pixel `(x, y)`.
    static func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
        let offset = (y * image.width + x) * 4
        return Array(image.pixels[offset..<(offset + 4)])
    }
}

/// Golden images under Fixtures/golden/review, compared pixel by pixel: every channel of every pixel
/// within 1 level (the goldens are written by this renderer, so on one machine they match exactly; the
/// level allows a last-bit difference in a platform's libm). The test run never writes the goldens.
/// `Fixtures/update-goldens.sh` regenerates them: it runs these tests with PLANMARK_GOLDEN_OUTPUT set
/// to a scratch folder, where each test writes what it rendered, and copies those images over the
/// goldens for a person to look at before committing.
enum Goldens {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/golden/review")

    /// Records an issue naming the difference when `image` does not match the golden `name`.
    static func expectMatch(_ image: RGBAImage, name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if let problem = try mismatch(image, name: name) {
            Issue.record("golden \(name): \(problem)", sourceLocation: sourceLocation)
        }
    }

    /// The most a channel may differ from the golden.
    static let tolerance = 1

    /// Differences between `image` and the golden `name`: nil when every channel of every pixel is
    /// within `tolerance`. When PLANMARK_GOLDEN_OUTPUT names a folder, `image` is also written there
    /// (never into the goldens' own folder).
    static func mismatch(_ image: RGBAImage, name: String) throws -> String? {
        if let output = ProcessInfo.processInfo.environment["PLANMARK_GOLDEN_OUTPUT"], !output.isEmpty {
            let target = URL(fileURLWithPath: output).standardizedFileURL
            guard target.path != folder.standardizedFileURL.path else {
                return "PLANMARK_GOLDEN_OUTPUT must not be the goldens' folder: the test run does not rewrite goldens"
            }
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            try PNGEncoder().write(image, to: target.appendingPathComponent(name + ".png").path)
        }
        let path = folder.appendingPathComponent(name + ".png").path
        guard FileManager.default.fileExists(atPath: path) else {
            return "no golden \(path); run Tests/PlanMarkRenderTests/Fixtures/update-goldens.sh and look at the image"
        }
        let golden = try PNGDecoder().decode(path: path)
        guard golden.width == image.width, golden.height == image.height else {
            return "size \(image.width)x\(image.height), golden \(golden.width)x\(golden.height)"
        }
        var differing = 0, worst = 0
        var first: String?
        for pixel in 0..<(image.width * image.height) {
            var pixelWorst = 0
            for channel in 0..<4 {
                let d = abs(Int(image.pixels[pixel * 4 + channel]) - Int(golden.pixels[pixel * 4 + channel]))
                pixelWorst = max(pixelWorst, d)
            }
            worst = max(worst, pixelWorst)
            guard pixelWorst > tolerance else { continue }
            differing += 1
            if first == nil {
                let x = pixel % image.width, y = pixel / image.width
                first = "(\(x), \(y)) is \(RasterTesting.pixel(image, x, y)), golden \(RasterTesting.pixel(golden, x, y))"
            }
        }
        guard let first else { return nil }
        return "\(differing) pixels differ by more than \(tolerance) level (worst \(worst)); first \(first)"
    }
}
