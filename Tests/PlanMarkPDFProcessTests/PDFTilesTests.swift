import Foundation
import PlanMarkGeometry
import PlanMarkPDFCore
import PlanMarkPDFProcess
import PlanMarkPDFTestSupport
import PlanMarkRender
import PlanMarkTestSupport
import Synchronization
import Testing

/// Tiles of a PDF page through `PDFRenderer`: the pyramid `planmark-pdf pyramid` draws band by band and writes, against
/// the PNG path's pyramid of pdftoppm's raster of the page; and the tiles above the pyramid drawn from the page's
/// vectors, against pdftoppm at their resolution and against the pyramid's top level scaled up.
///
/// The page: sheets.pdf page 1, 612 x 792 pt, at 100 dpi 850 x 1100 px exactly (612 * 100 / 72, 792 * 100 / 72), a
/// black rectangle at x 100..300 pt, y 200..260 pt and a line 4 pt wide along y = 400 pt (make_pdfs.py).
@Suite(.enabled(if: PDFProcessFixtures.missing == nil, "\(PDFProcessFixtures.missing ?? "")"), .hangGuard)
struct PDFTilesTests {
    let renderer = PDFRenderer()
    /// 850 x 1100 at zoom 8: level 8 is 4 x 5 tiles (850 / 256, 1100 / 256 rounded up), level 7 (425 x 550) 2 x 3,
    /// level 6 (213 x 275) 1 x 2, level 5 (107 x 138) one: 29 tiles, levels 5...8; two more drawn from vectors, 9 and 10.
    let scheme = TileScheme(width: 850, height: 1100, zoom: 8, vectorLevels: 2)!

    /// Every tile under `folder` (`z/x/y.png`), decoded.
    static func tiles(in folder: URL) throws -> [TileCoordinate: RGBAImage] {
        var tiles: [TileCoordinate: RGBAImage] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let name = enumerator?.nextObject() as? String {
            guard name.hasSuffix(".png") else { continue }
            let parts = name.dropLast(4).split(separator: "/").compactMap { Int($0) }
            try #require(parts.count == 3, "\(name)")
            tiles[TileCoordinate(z: parts[0], x: parts[1], y: parts[2])] = try PNGDecoder().decode(path: folder.appendingPathComponent(name).path)
        }
        return tiles
    }

    /// The bytes of every file under `folder`.
    static func bytes(in folder: URL) -> Int {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var total = 0
        while let name = enumerator?.nextObject() as? String {
            let attributes = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)
            if attributes?[.type] as? FileAttributeType == .typeRegular { total += (attributes?[.size] as? Int) ?? 0 }
        }
        return total
    }

    /// The pyramid written by the child, drawn in bands of 256 rows (the progress says 256, 512, 768, 1024, 1100): the 29
    /// tiles of levels 5...8, the bytes it reports; each tile within 2 levels a channel on average of the tile the PNG
    /// path's pyramid (`TilePyramid`) makes of pdftoppm's raster of the page at 100 dpi, and transparent exactly where
    /// that one is. An edge tile by hand: 8/3/4 holds pixels x 768..849 (82 columns), y 1024..1099 (76 rows).
    @Test func pyramidIsThePNGPathsPyramidOfPdftoppmsRaster() async throws {
        let folder = try TestFolder.make("pdf-pyramid")
        let rows = Mutex<[Int]>([])
        let written = try await renderer.pyramid(
            file: try PDFFixtures.path("sheets.pdf"), page: 1, dpi: 100, scheme: scheme, into: folder.path, bandRows: 256
        ) { count in rows.withLock { $0.append(count) } }
        #expect(written.tiles == 29)
        #expect(written.bytes == Self.bytes(in: folder))
        #expect(rows.withLock { $0 } == [256, 512, 768, 1024, 1100])
        let made = try Self.tiles(in: folder)
        let byHand = [(8, 4, 5), (7, 2, 3), (6, 1, 2), (5, 1, 1)].flatMap { z, columns, rows in
            (0..<columns).flatMap { x in (0..<rows).map { y in TileCoordinate(z: z, x: x, y: y) } }
        }
        #expect(Set(made.keys) == Set(byHand))

        let raster = try PDFFixtures.reference("sheets.pdf", page: 1, dpi: 100, x: 0, y: 0, width: 850, height: 1100)
        var expected: [TileCoordinate: [UInt8]] = [:]
        try TilePyramid(scheme: scheme).makeTiles(of: raster) { expected[$0] = $1 }
        #expect(Set(expected.keys) == Set(made.keys))
        for (coordinate, tile) in made {
            let reference = try PNGDecoder().decode(data: try #require(expected[coordinate]), source: "\(coordinate)")
            let difference = meanDifference(tile, reference)
            #expect(difference <= 2, "tile \(coordinate): mean difference \(difference) from pdftoppm's pyramid")
            let alphas = stride(from: 3, to: tile.pixels.count, by: 4)
            #expect(alphas.allSatisfy { (tile.pixels[$0] == 0) == (reference.pixels[$0] == 0) }, "tile \(coordinate): transparent elsewhere")
        }
        let corner = try #require(made[TileCoordinate(z: 8, x: 3, y: 4)])
        #expect(pixel(corner, 81, 75) == [255, 255, 255, 255])
        #expect(pixel(corner, 82, 0) == [0, 0, 0, 0])
        #expect(pixel(corner, 0, 76) == [0, 0, 0, 0])
    }

    /// Exactly the PNG path's pyramid: the child's tiles, drawn in bands of 256 rows and in one band, are byte for byte
    /// the tiles `TilePyramid` makes of the whole page drawn at once (`render`, the same renderer).
    @Test func bandsMakeTheWholePagesPyramid() async throws {
        let file = try PDFFixtures.path("sheets.pdf")
        let page = try await renderer.render(file: file, page: 1, dpi: 100)
        try #require((page.width, page.height) == (850, 1100))
        var expected: [TileCoordinate: [UInt8]] = [:]
        try TilePyramid(scheme: scheme).makeTiles(of: page) { expected[$0] = $1 }
        for bandRows in [256, nil] {
            let folder = try TestFolder.make("pdf-pyramid-bands")
            _ = try await renderer.pyramid(file: file, page: 1, dpi: 100, scheme: scheme, into: folder.path, bandRows: bandRows)
            for (coordinate, bytes) in expected {
                let path = folder.appendingPathComponent("\(coordinate.z)/\(coordinate.x)/\(coordinate.y).png").path
                #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == bytes, "tile \(coordinate), bands of \(bandRows ?? 0) rows")
            }
        }
    }

    /// Level 10 (two above the pyramid's 8) is drawn at 100 x 2^(10 - 8) = 400 dpi: tile 10/2/4 is pdftoppm's rectangle
    /// x 512, y 1024, 256 x 256 at 400 dpi, within 2 levels a channel on average; level 9's 9/1/2 pdftoppm's at 200 dpi.
    @Test(arguments: [(z: 10, x: 2, y: 4, dpi: 400), (z: 9, x: 1, y: 2, dpi: 200)])
    func tilesAboveThePyramidAreDrawnAtTheirResolution(tile: (z: Int, x: Int, y: Int, dpi: Int)) async throws {
        let image = try await renderer.tile(TileCoordinate(z: tile.z, x: tile.x, y: tile.y), of: scheme, file: try PDFFixtures.path("sheets.pdf"),
                                            page: 1, dpi: 100)
        let reference = try PDFFixtures.reference("sheets.pdf", page: 1, dpi: tile.dpi, x: tile.x * 256, y: tile.y * 256, width: 256, height: 256)
        #expect((image.width, image.height) == (256, 256))
        let difference = meanDifference(image, reference)
        #expect(difference <= 2, "mean difference \(difference) from pdftoppm at \(tile.dpi) dpi")
    }

    /// Sharper than the pyramid zoomed: the rectangle's left edge, x = 100 pt, is at 138.89 px at 100 dpi and 555.56 px at
    /// 400 dpi. Tile 10/2/4 (x 512..767, y 1024..1279 at 400 dpi) is level 8's pixels x 128..191, y 256..319 scaled 4
    /// times. In the rows inside the rectangle (y 200..260 pt: 400 dpi rows 1112..1444, the tile's rows 88..255) the edge
    /// crosses one pixel of the drawn tile (555), partly covered, so grey; in level 8 it crosses pixel 138, grey too,
    /// which scaled 4 times (as a map client over-zooms) is 4 grey pixels a row.
    @Test func deepestLevelIsSharperThanThePyramidScaledUp() async throws {
        let file = try PDFFixtures.path("sheets.pdf")
        let deep = try await renderer.tile(TileCoordinate(z: 10, x: 2, y: 4), of: scheme, file: file, page: 1, dpi: 100)
        let folder = try TestFolder.make("pdf-pyramid-sharp")
        _ = try await renderer.pyramid(file: file, page: 1, dpi: 100, scheme: scheme, into: folder.path)
        let top = try PNGDecoder().decode(path: folder.appendingPathComponent("8/0/1.png").path)
        // Level 8's pixels x 128..191, y 256..319 are tile 8/0/1's x 128..191, y 0..63; scaled 4 times, nearest pixel.
        func scaled(_ x: Int, _ y: Int) -> [UInt8] { pixel(top, 128 + x / 4, y / 4) }
        func grey(_ value: UInt8) -> Bool { value > 10 && value < 245 }
        var deepGrey = 0, scaledGrey = 0
        let rows = 88..<256
        for y in rows {
            deepGrey += (0..<256).filter { grey(pixel(deep, $0, y)[0]) }.count
            scaledGrey += (0..<256).filter { grey(scaled($0, y)[0]) }.count
        }
        let deepWidth = Double(deepGrey) / Double(rows.count), scaledWidth = Double(scaledGrey) / Double(rows.count)
        #expect(deepWidth <= 1.5, "the drawn tile's edge is \(deepWidth) grey pixels a row")
        #expect(scaledWidth >= 4, "the scaled tile's edge is \(scaledWidth) grey pixels a row")
        // Both are the same picture: white left of the edge, black right of it.
        #expect(pixel(deep, 20, 150) == [255, 255, 255, 255] && pixel(deep, 100, 150) == [0, 0, 0, 255])
        #expect(scaled(20, 150) == [255, 255, 255, 255] && scaled(100, 150) == [0, 0, 0, 255])
    }

    /// Beyond the drawing the tiles above the pyramid are transparent, like the pyramid's edge tiles. Zoom 8: level 10 is
    /// 3400 x 4400 px (850 x 4, 1100 x 4): tile 10/13/17 (x 3328.., y 4352..) holds 72 columns and 48 rows. Zoom 8.5: level 9
    /// is 850 x 2^0.5 = 1202.08 by 1100 x 2^0.5 = 1555.63 px: in tile 9/4/6 (x 1024.., y 1536..) column 178 is 0.0815
    /// covered (alpha round(255 x 0.0815) = 21) and row 19 0.6349 (162; both: 13); white paper where covered.
    @Test func tilesAboveThePyramidAreTransparentBeyondTheDrawing() async throws {
        let file = try PDFFixtures.path("sheets.pdf")
        let edge = try await renderer.tile(TileCoordinate(z: 10, x: 13, y: 17), of: scheme, file: file, page: 1, dpi: 100)
        #expect(pixel(edge, 71, 47) == [255, 255, 255, 255])
        #expect(pixel(edge, 72, 0) == [0, 0, 0, 0])
        #expect(pixel(edge, 0, 48) == [0, 0, 0, 0])
        #expect(pixel(edge, 255, 255) == [0, 0, 0, 0])

        let half = try #require(TileScheme(width: 850, height: 1100, zoom: 8.5, vectorLevels: 2))
        #expect(half.maxZoom == 8 && half.topZoom == 10)
        let fractional = try await renderer.tile(TileCoordinate(z: 9, x: 4, y: 6), of: half, file: file, page: 1, dpi: 100)
        #expect(pixel(fractional, 177, 0) == [255, 255, 255, 255])
        #expect(pixel(fractional, 178, 0) == [255, 255, 255, 21])
        #expect(pixel(fractional, 179, 0) == [0, 0, 0, 0])
        #expect(pixel(fractional, 177, 19) == [255, 255, 255, 162])
        #expect(pixel(fractional, 178, 19) == [255, 255, 255, 13])
        #expect(pixel(fractional, 177, 20) == [0, 0, 0, 0])
    }

    /// A PDF that cannot be drawn leaves the pyramid's folder as the caller gave it to `TileFolder.write`'s temporary
    /// folder: removed, nothing renamed into place; the error is the child's (`refused`, `timedOut`).
    @Test func failedPyramidLeavesNothing() async throws {
        let root = try TestFolder.make("pdf-tile-root")
        let folder = TileFolder(root: root.path)
        let key = TileKey(sha256: String(repeating: "a", count: 64), page: 1, dpi: 100)
        let temporary = folder.temporaryFolder(key: key)
        do {
            _ = try await folder.write(key: key, scheme: scheme, pdf: try PDFFixtures.path("corrupt.pdf"), page: 1, dpi: 100, renderer: renderer,
                                       temporary: temporary)
            Issue.record("a corrupt PDF made a pyramid")
        } catch let error as PDFProcessError {
            guard case .refused = error else { Issue.record("\(error)"); return }
        }
        var spinning = renderer
        spinning.timeLimit = .milliseconds(300)
        do {
            _ = try await folder.write(key: key, scheme: TileScheme(width: 200, height: 200, zoom: 8)!, pdf: try PDFFixtures.path("spin.pdf"),
                                       page: 1, dpi: 72, renderer: spinning)
            Issue.record("spin.pdf made a pyramid")
        } catch let error as PDFProcessError {
            guard case .timedOut = error else { Issue.record("\(error)"); return }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == [])
    }
}
