import Foundation
import Hummingbird
import PlanMarkPDFTestSupport
import PlanMarkRender
import PlanMarkStore
import PlanMarkTestSupport
import Testing
@testable import PlanMarkServer

/// Issue "Drawings as they are delivered", done when: a three-page PDF set with an outline (cairo's, written by
/// Tests/PlanMarkCLITests/make_sheet_sets.py) is added with `sheets add`, which names the drawings from the outline; a
/// marker is placed on one; its tiles at the deepest level, drawn from the page's vectors, are sharper than the 300 dpi
/// raster scaled up; `sheets revise` with the second issue carries the marker; and a PDF that cannot be drawn is refused
/// while the server answers other requests.
///
/// Page 1 is 612 x 792 pt: 2550 x 3300 px at 300 dpi (zoom 8, so level 8 is the 300 dpi raster and level 10, the
/// deepest, is drawn at 1200 dpi). Its black rectangle's left edge, x = 100 pt, is x = 416.67 px at level 8 and
/// 1666.67 px at level 10; its top, y = 200 pt, is 833.3 and 3333.3 px. So tile 10/6/13 (x 1536.., y 3328..) has the
/// edge between its columns 130 and 131, and the same place at level 8 is tile 8/1/3 (x 256.., y 768..), columns
/// 128..191 and rows 64..127, with the edge in column 160 (a third covered: grey).
@Suite(.hangGuard, .enabled(if: PDFFixtures.missingTools == nil, "\(PDFFixtures.missingTools ?? "")"))
struct SheetSetEndToEndTests {
    static func planmark(_ arguments: [String]) throws -> ProcessRunner.Output {
        try ProcessRunner.run(BuiltProducts.path("planmark"), arguments)
    }

    @Test func aSheetSetFromAddToRevisionWithSharpTiles() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let script = ServerFixture.repositoryRoot.appendingPathComponent("Tests/PlanMarkCLITests/make_sheet_sets.py").path
        let made = try ProcessRunner.run(PDFFixtures.python, [script, fixture.folder.path])
        try #require(made.status == 0, "\(made.stderr)")
        let first = fixture.folder.appendingPathComponent("issue-1/set.pdf").path
        let second = fixture.folder.appendingPathComponent("issue-2/set.pdf").path
        let store = ["--store", fixture.storePath]

        let added = try Self.planmark(["sheets", "add", first, "--dpi", "300"] + store)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.split(separator: "\n").map { $0.split(separator: "\t")[1] } == ["A-101 - Ground floor", "A-102 - First floor", "set p3"])
        let marked = try Self.planmark(["mark", "A-101 - Ground floor", "1000", "1200"] + store)
        #expect(marked.status == 0, "\(marked.stderr)")

        let cache = TileCache(root: fixture.storePath + ".tiles")
        let name = "/drawings/A-101%20-%20Ground%20floor"
        try await fixture.application(tileCache: cache).test(.router) { client in
            let drawing = try JSONSerialization.jsonObject(with: Data(try await client.get(name).body.readableBytesView)) as? [String: Any]
            let tiles = drawing?["tiles"] as? [String: Any]
            #expect(tiles?["maxZoom"] as? Int == 10 && drawing?["width"] as? Int == 2550 && drawing?["height"] as? Int == 3300)

            let deepAnswer = try await client.get(name + "/tiles/10/6/13.png")
            let rasterAnswer = try await client.get(name + "/tiles/8/1/3.png")
            #expect(deepAnswer.status == .ok && rasterAnswer.status == .ok)
            let deep = try PNGDecoder().decode(data: Array(deepAnswer.body.readableBytesView), source: "10/6/13")
            let raster = try PNGDecoder().decode(data: Array(rasterAnswer.body.readableBytesView), source: "8/1/3")
            // The edge, a row at a time: grey pixels (neither paper nor ink) across it, in the deepest tile and in the 300
            // dpi tile scaled up 4 times (nearest pixel).
            func grey(_ image: RGBAImage, _ x: Int, _ y: Int) -> Bool {
                let value = image.pixels[(y * image.width + x) * 4]
                return value > 10 && value < 245
            }
            let rows = 16..<256
            let deepGrey = rows.map { y in (0..<256).filter { grey(deep, $0, y) }.count }
            let scaledGrey = rows.map { y in (0..<256).filter { grey(raster, 128 + $0 / 4, 64 + y / 4) }.count }
            #expect(deepGrey.allSatisfy { $0 <= 1 } && scaledGrey.allSatisfy { $0 >= 4 }, "\(deepGrey) \(scaledGrey)")
            #expect(deep.pixels[(100 * 256 + 100) * 4] == 255 && deep.pixels[(100 * 256 + 200) * 4] == 0)

            // The second issue: page 1 is the same paper, so the marker is carried where it was.
            let revised = try Self.planmark(["sheets", "revise", second] + store)
            #expect(revised.status == 1, "\(revised.stderr)")  // page 3 changed paper: listed and skipped
            #expect(revised.stdout.hasPrefix("1\tA-101 - Ground floor\t2550 x 3300\trevision 2: 1 marker carried, 0 need placement\n"))
            let markers = try await client.get(name + "/markers")
            let features = (try JSONSerialization.jsonObject(with: Data(markers.body.readableBytesView)) as? [String: Any])?["features"] as? [[String: Any]]
            #expect(((features?.first?["geometry"] as? [String: Any])?["coordinates"] as? [Double]) == [1000, 1200])

            // A PDF that cannot be drawn is refused (422) for its own drawing, and the server answers the next request.
            _ = try await fixture.store.addDrawing(NewDrawing(name: "broken", imagePath: try PDFFixtures.path("truncated.pdf"),
                                                              pdf: PDFPageImage(page: 1, dpi: 300, width: 2550, height: 3300)), regions: [])
            let broken = try await client.get("/drawings/broken/tiles/8/0/0.png")
            #expect(broken.status == .unprocessableContent && broken.errorCode == "pdf-unreadable")
            #expect(try await client.get(name + "/tiles/8/0/0.png").status == .ok)
            #expect(try await client.get("/drawings/plan/markers").status == .ok)
        }
    }
}
