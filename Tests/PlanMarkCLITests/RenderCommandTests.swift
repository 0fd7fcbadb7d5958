import Foundation
import PlanMarkRender
import Testing

/// The shared PngSuite fixtures beside the repository (CI clones the repository with shared/ beside it).
let pngSuite = CLIRunner.repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures/pngsuite")

/// The corrupt PngSuite files (`x*`), which every reader must refuse.
let corruptPNGs: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: pngSuite.path)) ?? []
    return names.filter { $0.hasPrefix("x") && $0.hasSuffix(".png") }.sorted()
}()

/// `planmark render` end to end: outputs, views, exit codes, nothing left behind on failure.
@Suite struct RenderCommandTests {
    let sample = CLIRunner.repositoryRoot.appendingPathComponent("Drawings/sample")

    func decode(_ path: String) throws -> RGBAImage { try PNGDecoder().decode(path: path) }

    @Test func reviewOfTheSampleDrawing() async throws {
        let folder = try CLIRunner.temporaryFolder()
        let result = try CLIRunner.run(["render", "--image", sample.appendingPathComponent("plan.png").path,
                                        "--regions", sample.appendingPathComponent("regions.geojson").path,
                                        "--markers", sample.appendingPathComponent("markers.csv").path,
                                        "--size-from-image", "--legend", "--title", "Level 2", "-o", "review.png"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let image = try decode(folder.appendingPathComponent("review.png").path)
        // The legend and title sit in a margin right of the 2400 x 1600 sheet or below it (docs/render.md), not over it.
        #expect(image.width >= 2400 && image.height >= 1600 && image.width * image.height > 2400 * 1600)
        let bare = try CLIRunner.run(["render", "--image", sample.appendingPathComponent("plan.png").path,
                                      "--regions", sample.appendingPathComponent("regions.geojson").path,
                                      "--markers", sample.appendingPathComponent("markers.csv").path, "-o", "bare.png"], in: folder)
        #expect(bare.status == 0, "\(bare.stderr)")
        let plain = try decode(folder.appendingPathComponent("bare.png").path)
        #expect(plain.width == 2400 && plain.height == 1600)
        // Every pixel of the sheet, the walls' box (40, 40)-(2360, 1560) included, is as drawn without the panel.
        var differing = 0
        for y in 0..<1600 {
            for x in 0..<2400 where image.pixels[(y * image.width + x) * 4..<(y * image.width + x) * 4 + 3]
                != plain.pixels[(y * 2400 + x) * 4..<(y * 2400 + x) * 4 + 3] { differing += 1 }
        }
        #expect(differing == 0)
        // M01 at (450, 400) is valid: its disc is drawn in the valid colour, green dominant.
        let i = (400 * image.width + 450) * 4
        #expect(image.pixels[i + 1] > image.pixels[i] && image.pixels[i + 1] > image.pixels[i + 2])
        // M20 at (2100, 700) is outside the allowed area: red dominant.
        let j = (700 * image.width + 2100) * 4
        #expect(image.pixels[j] > image.pixels[j + 1] && image.pixels[j] > image.pixels[j + 2])
    }

    /// With no regions and no markers the output is the input with alpha flattened onto white:
    /// out = c * a / 255 + 255 * (1 - a / 255), within rounding.
    @Test(arguments: ["basn6a08.png", "basn4a08.png", "basn2c08.png", "tbbn3p08.png"])
    func plainImageIsFlattenedOntoWhite(_ name: String) async throws {
        let folder = try CLIRunner.temporaryFolder()
        let input = pngSuite.appendingPathComponent(name).path
        let result = try CLIRunner.run(["render", "--image", input, "-o", "out.png"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let source = try decode(input)
        let output = try decode(folder.appendingPathComponent("out.png").path)
        #expect(output.width == source.width && output.height == source.height)
        var worst = 0
        for p in stride(from: 0, to: source.pixels.count, by: 4) {
            let a = Double(source.pixels[p + 3]) / 255
            for c in 0..<3 {
                let expected = Double(source.pixels[p + c]) * a + 255 * (1 - a)
                worst = max(worst, Int(abs(expected - Double(output.pixels[p + c])).rounded(.up)))
            }
            #expect(output.pixels[p + 3] == 255)
        }
        #expect(worst <= 1)
    }

    @Test func pngToStdout() async throws {
        let result = try CLIRunner.run(["render", "--image", pngSuite.appendingPathComponent("basn2c08.png").path, "-o", "-"])
        #expect(result.status == 0)
        #expect(Array(result.stdoutData.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let image = try PNGDecoder().decode(data: Array(result.stdoutData), source: "stdout")
        #expect(image.width == 32 && image.height == 32)
    }

    @Test(arguments: corruptPNGs)
    func corruptImagesAreRefused(_ name: String) async throws {
        let folder = try CLIRunner.temporaryFolder()
        let result = try CLIRunner.run(["render", "--image", pngSuite.appendingPathComponent(name).path, "-o", "out.png"], in: folder)
        #expect(result.status == 65)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func corruptSuiteIsPresent() async {
        #expect(corruptPNGs.count == 14)
    }

    @Test func failuresLeaveNothing() async throws {
        let folder = try CLIRunner.temporaryFolder()
        let plan = sample.appendingPathComponent("plan.png").path
        let missing = try CLIRunner.run(["render", "--image", "nope.png", "-o", "out.png"], in: folder)
        #expect(missing.status == 66)
        #expect(missing.stderr == "planmark: nope.png: no such file\n")
        let noFolder = try CLIRunner.run(["render", "--image", plan, "-o", "missing-folder/out.png"], in: folder)
        #expect(noFolder.status == 73)
        let tooBig = try CLIRunner.run(["render", "--image", plan, "--max-pixels", "1000", "-o", "out.png"], in: folder)
        #expect(tooBig.status == 65)
        #expect(tooBig.stderr.contains("2400x1600"))
        let usage = try CLIRunner.run(["render", "--image", plan, "--scale", "2", "-o", "out.png"], in: folder)
        #expect(usage.status == 64)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func cropAndScale() async throws {
        let folder = try CLIRunner.temporaryFolder()
        let common = ["render", "--image", sample.appendingPathComponent("plan.png").path,
                      "--markers", sample.appendingPathComponent("markers.csv").path]
        // M01 at (450, 400) with a 100 px margin: a 200 x 200 crop centred on it.
        let crop = try CLIRunner.run(common + ["--around", "M01", "--margin", "100", "-o", "crop.png"], in: folder)
        #expect(crop.status == 0, "\(crop.stderr)")
        let cropped = try decode(folder.appendingPathComponent("crop.png").path)
        #expect(cropped.width == 200 && cropped.height == 200)
        let unknown = try CLIRunner.run(common + ["--around", "nobody", "-o", "x.png"], in: folder)
        #expect(unknown.status == 66)
        let preview = try CLIRunner.run(common + ["--scale", "0.5", "-o", "preview.png"], in: folder)
        #expect(preview.status == 0)
        let small = try decode(folder.appendingPathComponent("preview.png").path)
        #expect(small.width == 1200 && small.height == 800)
    }

    @Test func fromTheStore() async throws {
        let sandbox = try StoreSandbox()
        let add = try sandbox.run(["drawing", "add", sample.appendingPathComponent("plan.png").path, "--name", "L2",
                                   "--regions", sample.appendingPathComponent("regions.geojson").path])
        #expect(add.status == 0, "\(add.stderr)")
        let imported = try sandbox.run(["import", "L2", sample.appendingPathComponent("markers.csv").path, "--skip-invalid"])
        #expect(imported.stdout == "17\n")
        #expect(try sandbox.run(["resolve", "L2", "3"]).status == 0)
        let all = try sandbox.run(["render", "L2", "--legend", "-o", "all.png"])
        #expect(all.status == 0, "\(all.stderr)")
        // The sheet, and the legend in a margin beside or below it.
        let sheet = try decode(sandbox.folder.appendingPathComponent("all.png").path)
        #expect(sheet.width >= 2400 && sheet.height >= 1600 && sheet.width * sheet.height > 2400 * 1600)
        let around = try sandbox.run(["render", "L2", "--around", "3", "--margin", "50", "-o", "three.png"])
        #expect(around.status == 0, "\(around.stderr)")
        #expect(try decode(sandbox.folder.appendingPathComponent("three.png").path).width == 100)
        #expect(try sandbox.run(["render", "L2", "--around", "99", "-o", "x.png"]).status == 66)
        #expect(try sandbox.run(["render", "nope", "-o", "x.png"]).status == 66)
        #expect(!FileManager.default.fileExists(atPath: sandbox.folder.appendingPathComponent("x.png").path))
    }
}
