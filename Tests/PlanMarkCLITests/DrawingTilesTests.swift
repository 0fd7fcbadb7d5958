import Foundation
import PlanMarkRender
import PlanMarkTestSupport
import Testing

/// `drawing add` and `drawing revise` write the drawing's tile pyramid where a server on the store looks for it
/// (`STORE.tiles/<image sha256>/<z>/<x>/<y>.png`, or `--tile-cache DIR`), so a server opens a big sheet at once.
@Suite struct DrawingTilesTests {
    /// Names under `folder`, sorted, recursively (`8/0/1.png`).
    func listing(_ path: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: path)
        var names: [String] = []
        while let name = enumerator?.nextObject() as? String { names.append(name) }
        return names.sorted()
    }

    func sha(_ path: String) throws -> String { sha256sum(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// A 400 x 300 sheet at zoom 8: level 8 is 2 x 2 tiles, level 7 (200 x 150) one: 5 tiles in 2 levels, under the
    /// SHA-256 of the image's bytes (sha256sum's), beside the store. A revision's new image gets a pyramid of its own.
    @Test func addAndReviseWriteThePyramidBesideTheStore() throws {
        let sandbox = try StoreSandbox()
        let plan = try sandbox.png()
        let added = try sandbox.run(["drawing", "add", plan, "--name", "A"])
        #expect(added.status == 0, "\(added.stderr)")
        let root = sandbox.store + ".tiles"
        let first = try sha(plan)
        #expect(added.stderr == "planmark: tiles: wrote 5 tiles (2 levels, zoom 7 to 8) to \(root)/\(first)\n")
        #expect(listing(root) == [first] + ["7", "7/0", "7/0/0.png", "8", "8/0", "8/0/0.png", "8/0/1.png", "8/1", "8/1/0.png", "8/1/1.png"]
            .map { $0 == first ? $0 : "\(first)/\($0)" })
        // 8/1/1 holds image pixels x 256..<400, y 256..<300: white there, transparent beyond.
        let corner = try PNGDecoder().decode(path: "\(root)/\(first)/8/1/1.png")
        #expect(corner.width == 256 && corner.height == 256)
        #expect(Array(corner.pixels[0..<4]) == [255, 255, 255, 255])
        let beyond = (43 * 256 + 144) * 4
        #expect(Array(corner.pixels[beyond - 4..<beyond + 4]) == [255, 255, 255, 255, 0, 0, 0, 0])

        // A 600 x 300 revision: level 8 is 3 x 2 tiles, level 7 (300 x 150) 2 x 1, level 6 (150 x 75) one.
        let wider = try sandbox.png("wider.png", width: 600, height: 300)
        let revised = try sandbox.run(["drawing", "revise", "A", wider])
        #expect(revised.status == 0, "\(revised.stderr)")
        let second = try sha(wider)
        #expect(revised.stderr == "planmark: tiles: wrote 9 tiles (3 levels, zoom 6 to 8) to \(root)/\(second)\n")
        #expect(listing("\(root)/\(second)").filter { $0.hasSuffix(".png") }.count == 9)
        #expect(FileManager.default.fileExists(atPath: "\(root)/\(first)/8/1/1.png"))

        // The same image again: the pyramid is there, nothing is written or said.
        let again = try sandbox.run(["drawing", "add", plan, "--name", "B"])
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
        // A dry run stores nothing and writes no tiles.
        let dry = try sandbox.run(["drawing", "revise", "B", try sandbox.png("other.png", width: 300, height: 300), "--dry-run"])
        #expect(dry.status == 0 && dry.stderr.isEmpty, "\(dry.stderr)")
        #expect(listing(root).filter { !$0.contains("/") }.sorted() == [first, second].sorted())
    }

    /// `--tile-cache DIR` writes there instead; `--no-tiles` writes nothing; both together are a usage error.
    @Test func tileCacheAndNoTiles() throws {
        let sandbox = try StoreSandbox()
        let plan = try sandbox.png()
        let dir = sandbox.folder.appendingPathComponent("cache").path
        let added = try sandbox.run(["drawing", "add", plan, "--name", "A", "--tile-cache", dir])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(listing(dir).filter { $0.hasSuffix(".png") }.count == 5)
        #expect(!FileManager.default.fileExists(atPath: sandbox.store + ".tiles"))

        let plain = try sandbox.run(["drawing", "add", try sandbox.png("b.png", width: 300, height: 300), "--name", "B", "--no-tiles"])
        #expect(plain.status == 0 && plain.stderr.isEmpty, "\(plain.stderr)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.store + ".tiles"))

        let both = try sandbox.run(["drawing", "add", plan, "--name", "C", "--no-tiles", "--tile-cache", dir])
        #expect(both.status == 64)
        #expect(both.stderr.hasPrefix("planmark: drawing add: --no-tiles and --tile-cache cannot go together"))
        #expect(!(try sandbox.run(["drawing", "list"]).stdout.contains("C")))
    }

    /// A folder that cannot be written: the drawing is stored (exit 0, its line on stdout), one warning line on stderr
    /// names the folder, and nothing is left behind.
    @Test func aTileFolderThatCannotBeWrittenIsAWarning() throws {
        let sandbox = try StoreSandbox()
        let blocker = try sandbox.file("blocker", "a file, not a folder")
        let added = try sandbox.run(["drawing", "add", try sandbox.png(), "--name", "A", "--tile-cache", blocker + "/tiles"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.hasPrefix("added drawing \"A\""))
        let lines = added.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("planmark: warning: \(blocker)/tiles: cannot create folder: ") == true, "\(added.stderr)")
        #expect(try sandbox.run(["drawing", "list"]).stdout.contains("A"))
        #expect(try String(contentsOfFile: blocker, encoding: .utf8) == "a file, not a folder")
    }
}
