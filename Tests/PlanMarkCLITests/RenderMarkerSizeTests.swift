import Foundation
import PlanMarkRender
import Testing

/// `planmark render --marker-size`: the pin's diameter in output pixels, instead of 2% of the image's shorter side.
@Suite struct RenderMarkerSizeTests {
    /// The horizontal extent of the pixels that are not white on row `y`.
    static func inkWidth(_ image: RGBAImage, row y: Int) -> Int {
        var first = -1, last = -1
        for x in 0..<image.width {
            let i = (y * image.width + x) * 4
            if image.pixels[i] != 255 || image.pixels[i + 1] != 255 || image.pixels[i + 2] != 255 {
                if first < 0 { first = x }
                last = x
            }
        }
        return first < 0 ? 0 : last - first + 1
    }

    @Test func markerSizeOverridesTheDefault() async throws {
        let folder = try CLIRunner.temporaryFolder()
        let blank = RGBAImage(width: 600, height: 400, pixels: [UInt8](repeating: 255, count: 600 * 400 * 4))
        try Data(try PNGEncoder().encode(blank)).write(to: folder.appendingPathComponent("plan.png"))
        try "id,x,y\n7,300,200\n".write(to: folder.appendingPathComponent("markers.csv"), atomically: true, encoding: .utf8)
        // Default on 600 x 400: 2% of 400 is 8 px, under the 20 px minimum: radius 10, halo 1.5, soft edge 1 -> 25 px.
        var result = try CLIRunner.run(["render", "--image", "plan.png", "--markers", "markers.csv", "-o", "default.png"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let standard = try PNGDecoder().decode(path: folder.appendingPathComponent("default.png").path)
        #expect(abs(Self.inkWidth(standard, row: 200) - 25) <= 1)
        // --marker-size 80: radius 40, halo 0.15 x 40 = 6, soft edge 1 -> 94 px across.
        result = try CLIRunner.run(["render", "--image", "plan.png", "--markers", "markers.csv", "--marker-size", "80",
                                    "-o", "big.png"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let big = try PNGDecoder().decode(path: folder.appendingPathComponent("big.png").path)
        #expect(abs(Self.inkWidth(big, row: 200) - 94) <= 1)
    }

    @Test(arguments: ["0", "-5", "nan", "10001", "big"])
    func badMarkerSizeIsAUsageError(_ value: String) async throws {
        let folder = try CLIRunner.temporaryFolder()
        let blank = RGBAImage(width: 20, height: 20, pixels: [UInt8](repeating: 255, count: 20 * 20 * 4))
        try Data(try PNGEncoder().encode(blank)).write(to: folder.appendingPathComponent("plan.png"))
        let result = try CLIRunner.run(["render", "--image", "plan.png", "--marker-size", value, "-o", "out.png"], in: folder)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("planmark: "))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.png").path))
    }
}
