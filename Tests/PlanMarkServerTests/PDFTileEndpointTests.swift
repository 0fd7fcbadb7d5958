import Foundation
import Hummingbird
import PlanMarkGeometry
import PlanMarkPDFProcess
import PlanMarkPDFTestSupport
import PlanMarkRender
import PlanMarkStore
import PlanMarkTestSupport
import Synchronization
import Testing
@testable import PlanMarkServer

/// Tiles of drawings that are pages of a PDF (make_pdfs.py's fixtures): the pyramid drawn by `planmark-pdf`, the two
/// levels above it drawn from the page's vectors, the drawing JSON's levels, pyramids keyed by page and dpi, and PDFs
/// that cannot be drawn answered 422 or 504 while the server goes on serving.
///
/// `sheet` is sheets.pdf page 1 (612 x 792 pt) at 100 dpi: 850 x 1100 px, zoom 8: its pyramid is levels 5...8 (the whole
/// drawing fits in one tile at 8 - 3, 1100 / 8 = 137.5 <= 256), its tiles drawn from vectors levels 9 and 10.
@Suite(.enabled(if: PDFFixtures.missingTools == nil && access(PDFRenderer.defaultExecutable(), X_OK) == 0,
                "\(PDFFixtures.missingTools ?? "planmark-pdf is not built")"), .hangGuard)
struct PDFTileEndpointTests {
    /// The server fixture with `drawings` added: name, fixture file, page, dpi and the page's size in pixels at it.
    static func fixture(_ drawings: [(name: String, file: String, page: Int, dpi: Int, width: Int, height: Int)]) async throws -> ServerFixture {
        let fixture = try await ServerFixture()
        for drawing in drawings {
            let pdf = PDFPageImage(page: drawing.page, dpi: drawing.dpi, width: drawing.width, height: drawing.height)
            _ = try await fixture.store.addDrawing(NewDrawing(name: drawing.name, imagePath: try PDFFixtures.path(drawing.file), pdf: pdf), regions: [])
        }
        return fixture
    }

    static let sheet = (name: "sheet", file: "sheets.pdf", page: 1, dpi: 100, width: 850, height: 1100)

    /// sha256sum of a fixture's bytes.
    static func sha(_ file: String) throws -> String { sha256sum(try PDFFixtures.bytes(file)) }

    /// A cache in the fixture's folder, to look into.
    static func cache(_ fixture: ServerFixture, renderer: PDFRenderer = PDFRenderer(), logger: LogRecorder? = nil,
                      backgroundAbovePixels: Int = TileCache.defaultBackgroundAbovePixels,
                      beforeBuild: (@Sendable () async -> Void)? = nil) -> TileCache {
        TileCache(root: fixture.folder.appendingPathComponent("tiles").path, backgroundAbovePixels: backgroundAbovePixels, renderer: renderer,
                  logger: logger?.logger(level: .debug), beforeBuild: beforeBuild)
    }

    /// The PNG path's pyramid (`TilePyramid`) of pdftoppm's raster of `sheet` at 100 dpi, decoded.
    static func referencePyramid() throws -> [TileCoordinate: RGBAImage] {
        let raster = try PDFFixtures.reference("sheets.pdf", page: 1, dpi: 100, x: 0, y: 0, width: 850, height: 1100)
        var tiles: [TileCoordinate: RGBAImage] = [:]
        try TilePyramid(scheme: TileScheme(width: 850, height: 1100, zoom: 8)!).makeTiles(of: raster) {
            tiles[$0] = try PNGDecoder().decode(data: $1, source: "\($0)")
        }
        return tiles
    }

    /// `tiles.maxZoom` of a PDF drawing is floor(zoom) + 2 (10 for `sheet`), of a PNG drawing floor(zoom) (8 for the
    /// 2400 x 1600 sample plan); `minZoom` is the pyramid's either way (5; 8 - 4 = 4 for the plan, 2400 / 16 = 150). The
    /// template's `v` is the PDF's SHA-256 (sha256sum's), page and dpi: `SHA-p1-100`.
    @Test func drawingJSONSaysTheLevelsOfAPDFDrawing() async throws {
        let fixture = try await Self.fixture([Self.sheet])
        defer { fixture.remove() }
        let sha = try Self.sha("sheets.pdf")
        try await fixture.application().test(.router) { client in
            let sheet = try await client.get("/drawings/sheet").object["tiles"] as? [String: Any]
            #expect(sheet?["minZoom"] as? Int == 5)
            #expect(sheet?["maxZoom"] as? Int == 10)
            #expect(sheet?["template"] as? String == "/drawings/sheet/tiles/{z}/{x}/{y}.png?v=\(sha)-p1-100")
            let plan = try await client.get("/drawings/plan").object["tiles"] as? [String: Any]
            #expect(plan?["minZoom"] as? Int == 4)
            #expect(plan?["maxZoom"] as? Int == 8)
            let list = try await client.get("/drawings").object["drawings"] as? [[String: Any]] ?? []
            let listed = list.first { $0["name"] as? String == "sheet" }?["tiles"] as? [String: Any]
            #expect(listed?["maxZoom"] as? Int == 10)
            #expect(listed?["template"] as? String == "/drawings/sheet/tiles/{z}/{x}/{y}.png?v=\(sha)-p1-100")
        }
    }

    /// The pyramid's tiles are within 2 levels a channel on average of the PNG path's pyramid of pdftoppm's raster; tile
    /// 10/2/4 is pdftoppm's rectangle x 512, y 1024 at 400 dpi (100 x 2^(10 - 8)), kept in the pyramid's folder once
    /// drawn; all cached for a year with the current `v`. Past the levels or the columns: 404. The PDF's bytes are in
    /// `ROOT/.pdf/SHA.pdf`, the pyramid in `ROOT/SHA-p1-100`.
    @Test func tilesOfAPDFDrawing() async throws {
        let fixture = try await Self.fixture([Self.sheet])
        defer { fixture.remove() }
        let cache = Self.cache(fixture)
        let sha = try Self.sha("sheets.pdf")
        let key = TileKey(sha256: sha, page: 1, dpi: 100)
        let v = "\(sha)-p1-100"
        let expected = try Self.referencePyramid()
        try await fixture.application(tileCache: cache).test(.router) { client in
            for tile in [TileCoordinate(z: 8, x: 0, y: 1), TileCoordinate(z: 5, x: 0, y: 0), TileCoordinate(z: 8, x: 3, y: 4)] {
                let response = try await client.get("/drawings/sheet/tiles/\(tile.z)/\(tile.x)/\(tile.y).png?v=\(v)")
                #expect(response.status == .ok, "\(tile)")
                #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
                let image = try PNGDecoder().decode(data: Array(response.body.readableBytesView), source: "\(tile)")
                let difference = meanDifference(image, try #require(expected[tile]))
                #expect(difference <= 2, "tile \(tile): mean difference \(difference) from pdftoppm's pyramid")
            }
            #expect(await cache.built == 1)
            let deepPath = cache.path(of: TileCoordinate(z: 10, x: 2, y: 4), key: key)
            #expect(!FileManager.default.fileExists(atPath: deepPath))
            let deep = try await client.get("/drawings/sheet/tiles/10/2/4.png?v=\(v)")
            #expect(deep.status == .ok)
            #expect(deep.headers[.cacheControl] == "public, max-age=31536000, immutable")
            let drawn = try PNGDecoder().decode(data: Array(deep.body.readableBytesView), source: "10/2/4")
            let reference = try PDFFixtures.reference("sheets.pdf", page: 1, dpi: 400, x: 512, y: 1024, width: 256, height: 256)
            #expect(meanDifference(drawn, reference) <= 2)
            #expect(try Data(contentsOf: URL(fileURLWithPath: deepPath)) == Data(deep.body.readableBytesView))
            let again = try await client.get("/drawings/sheet/tiles/10/2/4.png?v=\(v)")
            #expect(again.body == deep.body)
            #expect(try await client.get("/drawings/sheet/tiles/9/6/8.png").status == .ok)
            for outside in ["11/0/0", "10/14/0", "10/0/18", "4/0/0"] {
                let response = try await client.get("/drawings/sheet/tiles/\(outside).png")
                #expect(response.status == .notFound, "\(outside)")
                #expect(response.errorCode == "tile-not-found")
            }
            #expect(await cache.built == 1)
        }
        #expect(FileManager.default.fileExists(atPath: "\(cache.root)/.pdf/\(sha).pdf"))
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: cache.root)) == [".pdf", v])
    }

    /// Two pages of one PDF, and one page at two resolutions, share the PDF's SHA-256 but not their tiles: three keys,
    /// three pyramids, three templates, three tiles at one address. Page 2 (842 x 595 pt) at 100 dpi is 1170 x 827 px
    /// (1169.4 and 826.4 rounded up), page 1 at 50 dpi 425 x 550.
    @Test func pagesAndResolutionsOfOnePDFHaveTheirOwnTiles() async throws {
        let fixture = try await Self.fixture([
            Self.sheet, (name: "second", file: "sheets.pdf", page: 2, dpi: 100, width: 1170, height: 827),
            (name: "coarse", file: "sheets.pdf", page: 1, dpi: 50, width: 425, height: 550),
        ])
        defer { fixture.remove() }
        let cache = Self.cache(fixture)
        let sha = try Self.sha("sheets.pdf")
        try await fixture.application(tileCache: cache).test(.router) { client in
            var bodies: [String: ByteBuffer] = [:]
            var templates: [String: String] = [:]
            for name in ["sheet", "second", "coarse"] {
                templates[name] = (try await client.get("/drawings/\(name)").object["tiles"] as? [String: Any])?["template"] as? String
                // Pixels y 256..511: page 1's rectangle at 100 dpi (y 200..260 pt: 278..361 px), page 2's white margin (x
                // 0..255 px is 0..184 pt, its rectangle starts at 400 pt), page 1's line at 50 dpi (y = 400 pt: 278 px).
                let response = try await client.get("/drawings/\(name)/tiles/8/0/1.png")
                #expect(response.status == .ok, "\(name)")
                bodies[name] = response.body
            }
            #expect(Set(bodies.values).count == 3)
            #expect(templates["second"]?.hasSuffix("?v=\(sha)-p2-100") == true)
            #expect(templates["coarse"]?.hasSuffix("?v=\(sha)-p1-50") == true)
            #expect(Set(templates.values).count == 3)
        }
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: cache.root)) == [".pdf", "\(sha)-p1-100", "\(sha)-p2-100", "\(sha)-p1-50"])
        #expect(await cache.built == 3)
    }

    /// A corrupt PDF is 422 pdf-unreadable. A PDF that spins (spin.pdf, 10^9 fills, over an hour in pdftoppm): while its
    /// child runs the server answers other requests, and when its time limit runs out (here when the test says so:
    /// `PDFRenderer.timeUp`) its tile is 504 pdf-timed-out. Each costs one child, started by its first request: later
    /// requests for any of their tiles (a pyramid level, a level drawn from vectors) get the same answer at once. One
    /// line of the log each, naming the key. Then the other drawings' tiles are served.
    @Test func unreadableAndSpinningPDFsCostOneRequest() async throws {
        let fixture = try await Self.fixture([
            (name: "spin", file: "spin.pdf", page: 1, dpi: 72, width: 200, height: 200),
            (name: "corrupt", file: "corrupt.pdf", page: 1, dpi: 72, width: 612, height: 792),
        ])
        defer { fixture.remove() }
        let (spawns, spawned) = AsyncStream<Int32>.makeStream()
        let (timeUp, release) = AsyncStream<Void>.makeStream()
        let released = Task { for await _ in timeUp { break } }
        var renderer = PDFRenderer()
        renderer.spawned = { spawned.yield($0) }
        renderer.timeUp = { await released.value }
        let log = LogRecorder()
        let cache = Self.cache(fixture, renderer: renderer, logger: log)
        let spin = "\(try Self.sha("spin.pdf"))-p1-72", corrupt = "\(try Self.sha("corrupt.pdf"))-p1-72"
        let order = Order()
        try await fixture.application(tileCache: cache).test(.live) { client in
            var children = spawns.makeAsyncIterator()
            let unreadable = try await client.get("/drawings/corrupt/tiles/8/0/0.png")
            #expect(unreadable.status == .unprocessableContent)
            #expect(unreadable.errorCode == "pdf-unreadable")
            _ = await children.next()

            let slow = Task {
                let response = try await client.get("/drawings/spin/tiles/8/0/0.png")
                order.append("spin")
                return response
            }
            _ = await children.next()
            // The child spins: the rest of the server answers meanwhile.
            let other = try await client.get("/drawings/plan")
            #expect(other.status == .ok)
            #expect(try await client.get("/health").status == .ok)
            order.append("others")
            release.yield()
            let timedOut = try await slow.value
            #expect(timedOut.status == .gatewayTimeout)
            #expect(timedOut.errorCode == "pdf-timed-out")
            #expect(order.all == ["others", "spin"])

            for (name, status) in [("spin", HTTPResponse.Status.gatewayTimeout), ("corrupt", .unprocessableContent)] {
                for tile in ["8/0/0", "9/0/0", "10/0/0"] {
                    let again = try await client.get("/drawings/\(name)/tiles/\(tile).png")
                    #expect(again.status == status, "\(name) \(tile)")
                }
            }
            #expect(try await client.get("/drawings/plan/tiles/8/0/0.png").status == .ok)
        }
        spawned.finish()
        var more = 0
        for await _ in spawns { more += 1 }
        #expect(more == 0, "children started after the first of each PDF")
        let lines = log.all.filter { $0.contains("pdf-") }
        #expect(lines.filter { $0.contains(spin) }.count == 1, "\(lines)")
        #expect(lines.filter { $0.contains(corrupt) }.count == 1, "\(lines)")
        #expect(lines.count == 2, "\(lines)")
        #expect(await cache.built == 1)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: cache.root)).filter { !$0.hasPrefix(".") }
            == [try TileEndpointTests.sha(ServerFixture.samplePlan)])
    }

    /// A big PDF sheet (every image counts as big here) opens before its pyramid is made: while the build is held, a
    /// pyramid level's tile is drawn alone from the page at its resolution and served `no-cache` (the pyramid's will
    /// differ a little: 7/0/0 is drawn at 50 dpi, the pyramid's averages the 100 dpi page), a level above the pyramid
    /// is served for good but not kept (there is no pyramid to keep it in). Let go: the pyramid is made once, its 7/0/0
    /// is cached for a year and close to the early one, and 9/0/0 is kept when asked again.
    @Test func bigPDFSheetTilesBeforeItsPyramid() async throws {
        let fixture = try await Self.fixture([Self.sheet])
        defer { fixture.remove() }
        let (gate, open) = AsyncStream<Void>.makeStream()
        let cache = Self.cache(fixture, backgroundAbovePixels: 0, beforeBuild: { for await _ in gate { break } })
        let key = TileKey(sha256: try Self.sha("sheets.pdf"), page: 1, dpi: 100)
        try await fixture.application(tileCache: cache).test(.router) { client in
            let early = try await client.get("/drawings/sheet/tiles/7/0/0.png?v=\(key.name)")
            #expect(early.status == .ok)
            #expect(early.headers[.cacheControl] == "no-cache")
            let deep = try await client.get("/drawings/sheet/tiles/9/0/0.png?v=\(key.name)")
            #expect(deep.status == .ok)
            #expect(deep.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(await cache.built == 0)
            #expect(!FileManager.default.fileExists(atPath: cache.folder.pyramid(key)))
            open.yield()
            open.finish()
            await cache.waitForPyramid(key: key)
            #expect(await cache.built == 1)
            let made = try await client.get("/drawings/sheet/tiles/7/0/0.png?v=\(key.name)")
            #expect(made.headers[.cacheControl] == "public, max-age=31536000, immutable")
            let difference = meanDifference(try PNGDecoder().decode(data: Array(made.body.readableBytesView), source: "made"),
                                            try PNGDecoder().decode(data: Array(early.body.readableBytesView), source: "early"))
            #expect(difference <= 3, "the early tile differs from the pyramid's by \(difference) on average")
            let deepPath = cache.path(of: TileCoordinate(z: 9, x: 0, y: 0), key: key)
            #expect(!FileManager.default.fileExists(atPath: deepPath))
            let deepAgain = try await client.get("/drawings/sheet/tiles/9/0/0.png?v=\(key.name)")
            #expect(deepAgain.body == deep.body)
            #expect(FileManager.default.fileExists(atPath: deepPath))
        }
    }

    /// A big PDF sheet added after the server started has its pyramid made as the change feed tells, though no one asks
    /// for it (as a PNG's: TileEndpointTests.bigSheetsAreWarmedWhenAddedOrRevised).
    @Test func bigPDFSheetsAreWarmedWhenAdded() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let (started, builds) = AsyncStream<Void>.makeStream()
        // 850 x 1100 = 935,000 pixels: big above 100,000.
        let cache = Self.cache(fixture, backgroundAbovePixels: 100_000, beforeBuild: { builds.yield() })
        let key = TileKey(sha256: try Self.sha("sheets.pdf"), page: 1, dpi: 100)
        try await fixture.application(tileCache: cache, liveEvents: true).test(.live) { client in
            var nextBuild = started.makeAsyncIterator()
            let port = try #require(client.port)
            // The stream's first bytes say the hub follows the feed; a change it streams, that it reads it from there.
            let reader = try EventStreamTests.EventReader(port: port, path: "/drawings/plan/events")
            _ = try await reader.wait { _ in reader.text.contains("retry:") }
            let number = try await EventStreamTests.post(port, x: 450)
            #expect(try await reader.wait { $0.contains { $0.kind == "upsert" && $0.data.contains("\"number\":\(number)") } })
            reader.connection.abort()

            let pdf = PDFPageImage(page: 1, dpi: 100, width: 850, height: 1100)
            _ = try await fixture.store.addDrawing(NewDrawing(name: "sheet", imagePath: try PDFFixtures.path("sheets.pdf"), pdf: pdf), regions: [])
            _ = await nextBuild.next()
            await cache.waitForPyramid(key: key)
            #expect(await cache.built == 1)
            #expect(FileManager.default.fileExists(atPath: cache.path(of: TileCoordinate(z: 8, x: 3, y: 4), key: key)))
        }
        builds.finish()
    }
}

/// What happened, in the order it happened, from any task.
final class Order: Sendable {
    private let events = Mutex<[String]>([])
    func append(_ event: String) { events.withLock { $0.append(event) } }
    var all: [String] { events.withLock { $0 } }
}
