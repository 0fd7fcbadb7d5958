import Foundation
import PlanMarkRender
import Testing

/// `planmark tiles` end to end: the folder it writes, tiles.json, exit codes, nothing left on failure.
@Suite struct TilesCommandTests {
    let samplePlan = CLIRunner.repositoryRoot.appendingPathComponent("Drawings/sample/plan.png").path

    /// Names in `folder`, sorted, recursively (`8/0/1.png`).
    func listing(_ folder: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var names: [String] = []
        while let name = enumerator?.nextObject() as? String { names.append(name) }
        return names.sorted()
    }

    /// Drawing A is 400 x 300 at zoom 8 (Leaflet): level 8 is 2 x 2 tiles, level 7 (200 x 150) one.
    /// Bounds at zoom 8 (scale 256): south-west pixel (0, 300) -> lat -300/256 = -1.171875, lng 0;
    /// north-east pixel (400, 0) -> lat 0, lng 400/256 = 1.5625.
    @Test func storedDrawing() async throws {
        let sandbox = try StoreSandbox.withDrawing()
        let result = try sandbox.run(["tiles", "A", "-o", "pyramid"])
        #expect(result.status == 0, "\(result.stderr)")
        let folder = sandbox.folder.appendingPathComponent("pyramid")
        #expect(listing(folder) == ["7", "7/0", "7/0/0.png", "8", "8/0", "8/0/0.png", "8/0/1.png", "8/1", "8/1/0.png", "8/1/1.png", "tiles.json"])
        // Nothing on stdout; on stderr the line that says what was written: the 5 PNGs above in the 2 level folders.
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "planmark: tiles: wrote 5 tiles (2 levels, zoom 7 to 8) to pyramid\n")
        for tile in ["7/0/0.png", "8/1/1.png"] {
            let image = try PNGDecoder().decode(path: folder.appendingPathComponent(tile).path)
            #expect(image.width == 256 && image.height == 256)
        }
        // 8/1/1 holds image pixels x 256..<400, y 256..<300: white there, transparent beyond.
        let corner = try PNGDecoder().decode(path: folder.appendingPathComponent("8/1/1.png").path)
        #expect(Array(corner.pixels[0..<4]) == [255, 255, 255, 255])
        let beyond = (43 * 256 + 144) * 4  // pixel (144, 43), just right of image pixel (399, 299)
        #expect(Array(corner.pixels[beyond - 4..<beyond + 4]) == [255, 255, 255, 255, 0, 0, 0, 0])

        let text = try String(contentsOf: folder.appendingPathComponent("tiles.json"), encoding: .utf8)
        let keys = ["tileSize", "minZoom", "maxZoom", "width", "height", "zoom", "crs", "bounds", "template"]
        let positions = keys.map { text.range(of: "\"\($0)\":")?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil } && positions.map { $0! } == positions.map { $0! }.sorted(), "\(text)")
        #expect(text.hasPrefix("{\"tileSize\":256,\"minZoom\":7,\"maxZoom\":8,\"width\":400,\"height\":300,\"zoom\":8,\"crs\":\"leaflet\","))
        #expect(text.hasSuffix(",\"template\":\"{z}/{x}/{y}.png\"}\n"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let bounds = try #require(json["bounds"] as? [String: [Double]])
        #expect(bounds["southWest"] == [-1.171875, 0])
        #expect(bounds["northEast"] == [0, 1.5625])
    }

    /// The sample plan, 2400 x 1600, at zoom 2 (flutter_map): maxZoom 2; 2400 / 2^k <= 256 first for
    /// 2^k = 16, so minZoom -2. Tiles: z 2 10 x 7, z 1 5 x 4, z 0 3 x 2, z -1 2 x 1, z -2 1: 99.
    @Test func imageFile() async throws {
        let folder = try CLIRunner.temporaryFolder()
        let result = try CLIRunner.run(["tiles", "--image", samplePlan, "--zoom", "2", "--crs", "flutter", "-o", "out"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let names = listing(folder.appendingPathComponent("out"))
        #expect(names.filter { $0.hasSuffix(".png") }.count == 99)
        // The line on stderr: the tiles and the level folders counted in DIR.
        let tiles = names.filter { $0.hasSuffix(".png") }
        let levels = Set(tiles.map { $0.prefix { $0 != "/" } })
        #expect(levels == ["-2", "-1", "0", "1", "2"])
        #expect(result.stderr == "planmark: tiles: wrote \(tiles.count) tiles (\(levels.count) levels, zoom -2 to 2) to out\n")
        #expect(names.contains("2/9/6.png") && !names.contains("2/10/0.png") && names.contains("-2/0/0.png"))
        let text = try String(contentsOf: folder.appendingPathComponent("out/tiles.json"), encoding: .utf8)
        #expect(text.hasPrefix("{\"tileSize\":256,\"minZoom\":-2,\"maxZoom\":2,\"width\":2400,\"height\":1600,\"zoom\":2,\"crs\":\"flutter\","))
        #expect(listing(folder) == ["out"] + names.map { "out/" + $0 })
    }

    /// A drawing that fits one tile: `1 tile (1 level ...)`, the nouns singular. 100 x 80 at zoom 0: level 0 only.
    @Test func oneTile() async throws {
        let folder = try CLIRunner.temporaryFolder()
        let small = RGBAImage(width: 100, height: 80, pixels: [UInt8](repeating: 255, count: 100 * 80 * 4))
        try Data(try PNGEncoder().encode(small)).write(to: folder.appendingPathComponent("small.png"))
        let result = try CLIRunner.run(["tiles", "--image", "small.png", "--zoom", "0", "-o", "one"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(listing(folder.appendingPathComponent("one")) == ["0", "0/0", "0/0/0.png", "tiles.json"])
        #expect(result.stderr == "planmark: tiles: wrote 1 tile (1 level, zoom 0 to 0) to one\n")
    }

    /// An existing empty folder is filled; a non-empty one is refused (73) and left as it was.
    @Test func existingFolders() async throws {
        let folder = try CLIRunner.temporaryFolder()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("empty"), withIntermediateDirectories: true)
        let filled = try CLIRunner.run(["tiles", "--image", samplePlan, "--zoom", "0", "-o", "empty"], in: folder)
        #expect(filled.status == 0, "\(filled.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("empty/tiles.json").path))

        let again = try CLIRunner.run(["tiles", "--image", samplePlan, "--zoom", "0", "-o", "empty"], in: folder)
        #expect(again.status == 73)
        #expect(again.stderr == "planmark: empty: already exists and is not an empty folder (tiles go to a new folder; remove it first)\n")
        #expect(listing(folder).filter { $0.hasPrefix(".") }.isEmpty)
    }

    @Test func exitCodes() async throws {
        let folder = try CLIRunner.temporaryFolder()
        try "not a png".write(to: folder.appendingPathComponent("text.png"), atomically: true, encoding: .utf8)
        try "a file".write(to: folder.appendingPathComponent("file"), atomically: true, encoding: .utf8)
        let cases: [([String], Int32, String)] = [
            (["tiles", "--image", "missing.png", "--zoom", "0", "-o", "t"], 66, "planmark: missing.png: no such file\n"),
            (["tiles", "--image", "text.png", "--zoom", "0", "-o", "t"], 65, "planmark: text.png: not a PNG file\n"),
            (["tiles", "--image", samplePlan, "--zoom", "abc", "-o", "t"], 64, ""),
            (["tiles", "--image", samplePlan, "--zoom", "65", "-o", "t"], 64, ""),
            (["tiles", "--image", samplePlan, "-o", "t"], 64, ""),
            (["tiles", "--image", samplePlan, "--zoom", "0"], 64, ""),
            (["tiles", "--image", samplePlan, "--zoom", "0", "-o", "file/t"], 73, ""),
        ]
        for (arguments, status, line) in cases {
            let result = try CLIRunner.run(arguments, in: folder)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            if !line.isEmpty { #expect(result.stderr == line, "\(arguments)") }
            #expect(result.stderr.hasPrefix("planmark: "), "\(arguments): \(result.stderr)")
        }
        #expect(listing(folder) == ["file", "text.png"])
        let sandbox = try StoreSandbox.withDrawing()
        let unknown = try sandbox.run(["tiles", "B", "-o", "t"])
        #expect(unknown.status == 66, "\(unknown.stderr)")
    }

    /// A PNG that ends half way: some tiles are made before the decoder fails (exit 65), and neither the
    /// folder nor the temporary folder beside it is left.
    @Test func failureLeavesNoHalfPyramid() async throws {
        let folder = try CLIRunner.temporaryFolder()
        var pixels = [UInt8](repeating: 255, count: 900 * 900 * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) { pixels[i] = UInt8((i / 4) % 251) }
        let bytes = try PNGEncoder(compressionLevel: 0).encode(RGBAImage(width: 900, height: 900, pixels: pixels))
        try Data(bytes.prefix(bytes.count * 2 / 3)).write(to: folder.appendingPathComponent("cut.png"))
        let result = try CLIRunner.run(["tiles", "--image", "cut.png", "--zoom", "0", "-o", "t"], in: folder)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("planmark: cut.png: corrupt or unsupported PNG"), "\(result.stderr)")
        #expect(listing(folder) == ["cut.png"])
    }
}
