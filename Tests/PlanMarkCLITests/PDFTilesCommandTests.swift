import Foundation
import PlanMarkGeometry
import PlanMarkPDFTestSupport
import PlanMarkRender
import PlanMarkSQLite
import PlanMarkStore
import Testing

/// `planmark tiles NAME` for a drawing that is a page of a PDF (make_pdfs.py's sheets.pdf, stored through the store's
/// API): the pyramid drawn by `planmark-pdf` band by band, as the PNG path makes it from pdftoppm's raster of the page.
@Suite(.enabled(if: PDFFixtures.missingTools == nil, "\(PDFFixtures.missingTools ?? "")"))
struct PDFTilesCommandTests {
    /// Names under `folder`, sorted, recursively.
    func listing(_ folder: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var names: [String] = []
        while let name = enumerator?.nextObject() as? String { names.append(name) }
        return names.sorted()
    }

    /// A store with drawing `name`: page `page` of the fixture `file` at `dpi`, `width` x `height` pixels.
    func sandbox(_ name: String, file: String, page: Int, dpi: Int, width: Int, height: Int) async throws -> StoreSandbox {
        let sandbox = try StoreSandbox()
        let store = try SQLiteStore(path: sandbox.store, create: true)
        _ = try await store.addDrawing(NewDrawing(name: name, imagePath: try PDFFixtures.path(file),
                                                  pdf: PDFPageImage(page: page, dpi: dpi, width: width, height: height)), regions: [])
        return sandbox
    }

    /// sheets.pdf page 2 (842 x 595 pt) at 72 dpi is 842 x 595 px; zoom 8: level 8 is 4 x 3 tiles, level 7 (421 x 298)
    /// 2 x 2, level 6 (211 x 149) one: 17 tiles in 3 levels. Each within 2 levels a channel on average of the tile the PNG
    /// path's pyramid makes of pdftoppm's raster of the page at 72 dpi; tiles.json says the pyramid's levels and size;
    /// the PDF the child read from is not left in the folder.
    @Test func tilesOfAStoredPDFDrawing() async throws {
        let sandbox = try await sandbox("P", file: "sheets.pdf", page: 2, dpi: 72, width: 842, height: 595)
        let result = try sandbox.run(["tiles", "P", "-o", "pyramid"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "planmark: tiles: wrote 17 tiles (3 levels, zoom 6 to 8) to pyramid\n")
        let folder = sandbox.folder.appendingPathComponent("pyramid")
        let names = listing(folder)
        #expect(names.filter { $0.hasSuffix(".png") }.count == 17)
        #expect(names.filter { !$0.hasSuffix(".png") } == ["6", "6/0", "7", "7/0", "7/1", "8", "8/0", "8/1", "8/2", "8/3", "tiles.json"])

        let raster = try PDFFixtures.reference("sheets.pdf", page: 2, dpi: 72, x: 0, y: 0, width: 842, height: 595)
        var expected: [TileCoordinate: [UInt8]] = [:]
        try TilePyramid(scheme: try #require(TileScheme(width: 842, height: 595, zoom: 8))).makeTiles(of: raster) { expected[$0] = $1 }
        #expect(expected.count == 17)
        for (tile, bytes) in expected {
            let made = try PNGDecoder().decode(path: folder.appendingPathComponent("\(tile.z)/\(tile.x)/\(tile.y).png").path)
            let difference = meanDifference(made, try PNGDecoder().decode(data: bytes, source: "\(tile)"))
            #expect(difference <= 2, "tile \(tile): mean difference \(difference)")
        }
        let text = try String(contentsOf: folder.appendingPathComponent("tiles.json"), encoding: .utf8)
        #expect(text.hasPrefix("{\"tileSize\":256,\"minZoom\":6,\"maxZoom\":8,\"width\":842,\"height\":595,\"zoom\":8,\"crs\":\"leaflet\","))
    }

    /// A PDF the renderer refuses: exit 65, one line naming the drawing, and no folder (nor its temporary one) left.
    @Test func aPDFThatCannotBeDrawnIsRefused() async throws {
        let sandbox = try await sandbox("C", file: "corrupt.pdf", page: 1, dpi: 72, width: 612, height: 792)
        let result = try sandbox.run(["tiles", "C", "-o", "pyramid"])
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("planmark: drawing \"C\": corrupt or unreadable PDF"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").filter { $0.hasPrefix("planmark:") }.count == 1, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).sorted() == ["store.sqlite"])
    }
}
