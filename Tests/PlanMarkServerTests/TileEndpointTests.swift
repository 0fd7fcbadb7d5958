import Foundation
import Hummingbird
import PlanMarkGeometry
import PlanMarkRender
import PlanMarkStore
import PlanMarkTestSupport
import Testing
@testable import PlanMarkServer

/// `GET /drawings/{name}/tiles/{z}/{x}/{y}.png`, the pyramid cache behind it, and the drawing JSON's `tiles`.
@Suite struct TileEndpointTests {
    /// A `width` x `height` image of seeded random pixels, alpha in 64...255 (so every straight colour is
    /// well defined after averaging), and its PNG file in `folder`.
    static func randomImage(width: Int, height: Int, seed: UInt64, in folder: URL, name: String) throws -> (RGBAImage, String) {
        var random = SeededGenerator(seed: seed)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) {
            for c in 0..<3 { pixels[i * 4 + c] = UInt8.random(in: 0...255, using: &random) }
            pixels[i * 4 + 3] = UInt8.random(in: 64...255, using: &random)
        }
        let image = RGBAImage(width: width, height: height, pixels: pixels)
        let path = folder.appendingPathComponent(name).path
        try Data(try PNGEncoder().encode(image)).write(to: URL(fileURLWithPath: path))
        return (image, path)
    }

    /// A fixture with `small` (300 x 200, zoom 8: levels 7 and 8; 2 x 1 tiles at 8, one at 7) added.
    static func smallFixture(seed: UInt64 = SeededGenerator.suiteSeed) async throws -> (ServerFixture, RGBAImage, String) {
        let fixture = try await ServerFixture()
        let (image, path) = try randomImage(width: 300, height: 200, seed: seed, in: fixture.folder, name: "small.png")
        _ = try await fixture.store.addDrawing(NewDrawing(name: "small", imagePath: path), regions: [])
        return (fixture, image, path)
    }

    /// A cache in the fixture's folder, to look into.
    static func cache(_ fixture: ServerFixture, limit: Int = TileCache.defaultLimitBytes) -> TileCache {
        TileCache(root: fixture.folder.appendingPathComponent("tiles").path, limitBytes: limit)
    }

    static func sha(_ path: String) throws -> String { sha256sum(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// Pixels by hand: at level 8 (f = 1) a tile is the image's pixels, transparent past the image; at level 7
    /// each pixel is the 2x2 area average with premultiplied alpha: alpha = mean alpha, colour = sum(c a) / sum(a).
    /// Within 2 per channel. And the bytes are exactly the ones `TilePyramid` makes for that tile.
    @Test func tilesAreAreaAveragesAndTilePyramidsBytes() async throws {
        let (fixture, image, path) = try await Self.smallFixture()
        defer { fixture.remove() }
        let seed = SeededGenerator.suiteSeed
        var made: [TileCoordinate: [UInt8]] = [:]
        try TilePyramid(scheme: try #require(TileScheme(width: 300, height: 200, zoom: 8))).makeTiles(of: image) { made[$0] = $1 }
        #expect(Set(made.keys) == [TileCoordinate(z: 8, x: 0, y: 0), TileCoordinate(z: 8, x: 1, y: 0), TileCoordinate(z: 7, x: 0, y: 0)])
        let v = try Self.sha(path)
        let expectedBytes = made
        try await fixture.application(tileCache: Self.cache(fixture)).test(.router) { client in
            for (z, x) in [(8, 0), (8, 1), (7, 0)] {
                let response = try await client.get("/drawings/small/tiles/\(z)/\(x)/0.png?v=\(v)")
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                let bytes = Array(response.body.readableBytesView)
                #expect(bytes == expectedBytes[TileCoordinate(z: z, x: x, y: 0)], "tile \(z)/\(x)/0")
                let tile = try PNGDecoder().decode(data: bytes, source: "tile")
                #expect(tile.width == 256 && tile.height == 256)
                let f = z == 8 ? 1 : 2
                var worst = 0
                for ty in 0..<256 {
                    for tx in 0..<256 {
                        let t = (ty * 256 + tx) * 4
                        let x0 = (x * 256 + tx) * f, y0 = ty * f
                        guard x0 < 300 && y0 < 200 else {
                            #expect(tile.pixels[t + 3] == 0, "seed \(seed): \(z)/\(x)/0 pixel \(tx),\(ty) past the image is not transparent")
                            continue
                        }
                        var alpha = 0.0, colour = [0.0, 0.0, 0.0]
                        for dy in 0..<f {
                            for dx in 0..<f {
                                let p = ((y0 + dy) * 300 + x0 + dx) * 4
                                let a = Double(image.pixels[p + 3])
                                alpha += a
                                for c in 0..<3 { colour[c] += Double(image.pixels[p + c]) * a }
                            }
                        }
                        let expected = colour.map { $0 / alpha } + [alpha / Double(f * f)]
                        for c in 0..<4 { worst = max(worst, Int(abs(Double(tile.pixels[t + c]) - expected[c]).rounded(.up))) }
                    }
                }
                #expect(worst <= 2, "seed \(seed): tile \(z)/\(x)/0 differs from the area average by \(worst)")
            }
        }
    }

    /// A pyramid `planmark drawing add` wrote to the server's tile folder is served as it is: no pyramid is made, every
    /// tile is the file on disk and the bytes `TilePyramid` makes from the image in memory (whose pixels the test above
    /// checks by hand).
    @Test func pyramidsTheCLIWroteAreServedAsTheyAre() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let cache = Self.cache(fixture)
        let (image, path) = try Self.randomImage(width: 300, height: 200, seed: SeededGenerator.suiteSeed, in: fixture.folder, name: "small.png")
        let cli = try ProcessRunner.run(BuiltProducts.path("planmark"),
                                        ["drawing", "add", path, "--name", "small", "--store", fixture.storePath, "--tile-cache", cache.root])
        #expect(cli.status == 0, "\(cli.stderr)")
        var made: [TileCoordinate: [UInt8]] = [:]
        try TilePyramid(scheme: try #require(TileScheme(width: 300, height: 200, zoom: 8))).makeTiles(of: image) { made[$0] = $1 }
        let v = try Self.sha(path), expected = made
        try await fixture.application(tileCache: cache).test(.router) { client in
            for tile in expected.keys {
                let response = try await client.get("/drawings/small/tiles/\(tile.z)/\(tile.x)/\(tile.y).png?v=\(v)")
                #expect(response.status == .ok)
                let bytes = Array(response.body.readableBytesView)
                #expect(bytes == expected[tile], "tile \(tile)")
                #expect(bytes == Array(try Data(contentsOf: URL(fileURLWithPath: cache.path(of: tile, key: TileKey(sha256: v))))), "tile \(tile)")
            }
            #expect(await cache.built == 0)
        }
    }

    /// ETag, Cache-Control by `v`, 304, HEAD.
    @Test func cachingHeaders() async throws {
        let (fixture, _, path) = try await Self.smallFixture()
        defer { fixture.remove() }
        let v = try Self.sha(path)
        try await fixture.application(tileCache: Self.cache(fixture)).test(.router) { client in
            let current = try await client.get("/drawings/small/tiles/8/0/0.png?v=\(v)")
            #expect(current.status == .ok)
            let etag = try #require(current.headers[.eTag])
            #expect(etag == "\"" + sha256sum(Array(current.body.readableBytesView)) + "\"")
            #expect(current.headers[.cacheControl] == "public, max-age=31536000, immutable")
            for uri in ["/drawings/small/tiles/8/0/0.png", "/drawings/small/tiles/8/0/0.png?v=0123"] {
                let other = try await client.get(uri)
                #expect(other.status == .ok)
                #expect(other.headers[.eTag] == etag)
                #expect(other.headers[.cacheControl] == "no-cache")
                #expect(other.body == current.body)
            }
            for match in [etag, "W/" + etag, "\"other\", " + etag, "*"] {
                let again = try await client.get("/drawings/small/tiles/8/0/0.png?v=\(v)", headers: [.ifNoneMatch: match])
                #expect(again.status == .notModified, "If-None-Match: \(match)")
                #expect(again.body.readableBytes == 0)
                #expect(again.headers[.eTag] == etag)
                #expect(again.headers[.cacheControl] == "public, max-age=31536000, immutable")
            }
            let stale = try await client.get("/drawings/small/tiles/8/0/0.png?v=\(v)", headers: [.ifNoneMatch: "\"other\""])
            #expect(stale.status == .ok)
            let head = try await client.execute(uri: "/drawings/small/tiles/8/1/0.png?v=\(v)", method: .head)
            #expect(head.status == .ok)
            #expect(head.body.readableBytes == 0)
            #expect(head.headers[.contentType] == "image/png")
            #expect(head.headers[.eTag] != nil)
        }
    }

    /// Behind a token: 401 without it, and the year-long answer is private.
    @Test func tokenAndPrivateCaching() async throws {
        let (fixture, _, path) = try await Self.smallFixture()
        defer { fixture.remove() }
        let v = try Self.sha(path)
        try await fixture.application(token: "secret", tileCache: Self.cache(fixture)).test(.router) { client in
            let refused = try await client.get("/drawings/small/tiles/7/0/0.png?v=\(v)")
            #expect(refused.status == .unauthorized)
            let tile = try await client.get("/drawings/small/tiles/7/0/0.png?v=\(v)", headers: [.authorization: "Bearer secret"])
            #expect(tile.status == .ok)
            #expect(tile.headers[.cacheControl] == "private, max-age=31536000, immutable")
        }
    }

    /// Levels 7...8; 2 x 1 tiles at 8, 1 x 1 at 7 (by hand from 300 x 200 pixels).
    @Test(arguments: [
        ("/drawings/small/tiles/9/0/0.png", 404, "tile-not-found"),
        ("/drawings/small/tiles/6/0/0.png", 404, "tile-not-found"),
        ("/drawings/small/tiles/8/2/0.png", 404, "tile-not-found"),
        ("/drawings/small/tiles/8/0/1.png", 404, "tile-not-found"),
        ("/drawings/small/tiles/7/1/0.png", 404, "tile-not-found"),
        ("/drawings/small/tiles/-3/0/0.png", 404, "tile-not-found"),
        ("/drawings/nope/tiles/8/0/0.png", 404, "unknown-drawing"),
        ("/drawings/small/tiles/a/0/0.png", 400, "invalid-field"),
        ("/drawings/small/tiles/8/-1/0.png", 400, "invalid-field"),
        ("/drawings/small/tiles/8/0/-1.png", 400, "invalid-field"),
        ("/drawings/small/tiles/8/0/+0.png", 400, "invalid-field"),
        ("/drawings/small/tiles/8/0/0.5.png", 400, "invalid-field"),
        ("/drawings/small/tiles/8/0/99999999999999999999.png", 400, "invalid-field"),
        ("/drawings/small/tiles/8/0/0.png?zoom=3", 400, "invalid-field"),
    ])
    func outsideThePyramidAndBadAddresses(path: String, status: Int, code: String) async throws {
        let (fixture, _, _) = try await Self.smallFixture()
        defer { fixture.remove() }
        let cache = Self.cache(fixture)
        try await fixture.application(tileCache: cache).test(.router) { client in
            let response = try await client.get(path)
            #expect(response.status.code == status, "\(path): \(response.text)")
            #expect(response.errorCode == code, "\(path)")
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
        }
        #expect(await cache.built == 0)
    }

    /// A write to a tile URL is 405 with `Allow: GET, HEAD`.
    @Test func tilesTakeOnlyGetAndHead() async throws {
        let (fixture, _, _) = try await Self.smallFixture()
        defer { fixture.remove() }
        try await fixture.application(tileCache: Self.cache(fixture)).test(.router) { client in
            let response = try await client.send(.post, "/drawings/small/tiles/8/0/0.png", json: "{}")
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers[.allow] == "GET, HEAD")
        }
    }

    /// 8 clients at once ask for one tile of a pyramid not yet made: one build, the same bytes for all.
    @Test func concurrentFirstRequestsMakeOnePyramid() async throws {
        let (fixture, _, _) = try await Self.smallFixture()
        defer { fixture.remove() }
        let cache = Self.cache(fixture)
        let bodies = try await fixture.application(tileCache: cache).test(.live) { client in
            try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let response = try await client.get("/drawings/small/tiles/8/1/0.png")
                        return (Int(response.status.code), Array(response.body.readableBytesView))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(bodies.count == 8)
        #expect(bodies.allSatisfy { $0.0 == 200 })
        #expect(Set(bodies.map(\.1)).count == 1)
        #expect(await cache.built == 1)
        // Nothing half-made is left: only the pyramid's folder.
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.root) == [try Self.sha(fixture.folder.appendingPathComponent("small.png").path)])
    }

    /// A tiny bound keeps only the pyramid used last; an evicted one is made again when asked for.
    @Test func evictsLeastRecentlyUsedPyramids() async throws {
        let (fixture, _, pathA) = try await Self.smallFixture()
        defer { fixture.remove() }
        let (_, pathB) = try Self.randomImage(width: 300, height: 200, seed: SeededGenerator.suiteSeed &+ 1, in: fixture.folder, name: "b.png")
        _ = try await fixture.store.addDrawing(NewDrawing(name: "other", imagePath: pathB), regions: [])
        let shaA = try Self.sha(pathA), shaB = try Self.sha(pathB)
        let cache = Self.cache(fixture, limit: 1)
        @Sendable func onDisk() throws -> Set<String> { Set(try FileManager.default.contentsOfDirectory(atPath: cache.root)) }
        try await fixture.application(tileCache: cache).test(.router) { client in
            let answer1 = try await client.get("/drawings/small/tiles/7/0/0.png")
            #expect(answer1.status == .ok)
            let names2 = try onDisk()
            #expect(names2 == [shaA])
            let answer3 = try await client.get("/drawings/other/tiles/7/0/0.png")
            #expect(answer3.status == .ok)
            let names4 = try onDisk()
            #expect(names4 == [shaB])
            let answer5 = try await client.get("/drawings/small/tiles/8/1/0.png")
            #expect(answer5.status == .ok)
            let names6 = try onDisk()
            #expect(names6 == [shaA])
        }
        #expect(await cache.built == 3)
    }

    /// A cached tile cut short (a crash, a full disk) is not served: its pyramid is made again.
    @Test func damagedTileIsMadeAgain() async throws {
        let (fixture, _, path) = try await Self.smallFixture()
        defer { fixture.remove() }
        let cache = Self.cache(fixture)
        let tilePath = cache.path(of: TileCoordinate(z: 8, x: 0, y: 0), key: TileKey(sha256: try Self.sha(path)))
        try await fixture.application(tileCache: cache).test(.router) { client in
            let first = try await client.get("/drawings/small/tiles/8/0/0.png")
            #expect(first.status == .ok)
            let whole = try Data(contentsOf: URL(fileURLWithPath: tilePath))
            try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: tilePath))
            let second = try await client.get("/drawings/small/tiles/8/0/0.png")
            #expect(second.status == .ok)
            #expect(second.body == first.body)
            #expect(try Data(contentsOf: URL(fileURLWithPath: tilePath)) == whole)
        }
        #expect(await cache.built == 2)
    }

    /// An image the decoder refuses (a PNG header and nothing else) is a 500 JSON error; the server goes on.
    @Test func undecodableImageIs500() async throws {
        let (fixture, _, _) = try await Self.smallFixture()
        defer { fixture.remove() }
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)] }
        let header: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10] + be(13) + Array("IHDR".utf8) + be(300) + be(200) + [8, 6, 0, 0, 0] + [0, 0, 0, 0]
        let path = fixture.folder.appendingPathComponent("broken.png").path
        try Data(header).write(to: URL(fileURLWithPath: path))
        _ = try await fixture.store.addDrawing(NewDrawing(name: "broken", imagePath: path), regions: [])
        try await fixture.application(tileCache: Self.cache(fixture)).test(.router) { client in
            let broken = try await client.get("/drawings/broken/tiles/8/0/0.png")
            #expect(broken.status == .internalServerError)
            #expect(broken.errorCode == "image-unavailable")
            let answer7 = try await client.get("/drawings/small/tiles/8/0/0.png")
            #expect(answer7.status == .ok)
        }
    }

    /// `tiles` by hand: 2400 x 1600 at zoom 8 fits one tile at 8 - 4 (2400 / 2^4 = 150 <= 256 < 300);
    /// at zoom 1 (flutter) the levels are 1 and down to 1 - 4 = -3. `v` is the image's SHA-256 by sha256sum.
    @Test func drawingJSONGivesTheTiles() async throws {
        let fixture = try await ServerFixture(extra: [NewDrawing(name: "Level 2/east", imagePath: ServerFixture.samplePlan, zoom: 1, crs: .flutter)])
        defer { fixture.remove() }
        let v = try Self.sha(ServerFixture.samplePlan)
        try await fixture.application().test(.router) { client in
            let plan = try await client.get("/drawings/plan").object["tiles"] as? [String: Any]
            #expect(plan?["template"] as? String == "/drawings/plan/tiles/{z}/{x}/{y}.png?v=\(v)")
            #expect(plan?["minZoom"] as? Int == 4)
            #expect(plan?["maxZoom"] as? Int == 8)
            #expect(plan?["tileSize"] as? Int == 256)
            // 2400 x 1600 is a small sheet: its pyramid waits for the first tile request, so none of it is made yet.
            #expect(plan?["progress"] as? Double == 0)
            #expect(plan.map { Set($0.keys) } == ["template", "minZoom", "maxZoom", "tileSize", "progress"])
            let list = try await client.get("/drawings").object["drawings"] as? [[String: Any]] ?? []
            let east = list.first { $0["name"] as? String == "Level 2/east" }?["tiles"] as? [String: Any]
            #expect(east?["template"] as? String == "/drawings/Level%202%2Feast/tiles/{z}/{x}/{y}.png?v=\(v)")
            #expect(east?["minZoom"] as? Int == -3)
            #expect(east?["maxZoom"] as? Int == 1)
        }
    }

    /// The name given another image: other `v`, other tile bytes and ETag; the old URL gets the new tile, not cached for long.
    @Test func readdedDrawingHasOtherTiles() async throws {
        let (fixture, _, path) = try await Self.smallFixture()
        defer { fixture.remove() }
        let (_, otherPath) = try Self.randomImage(width: 300, height: 200, seed: SeededGenerator.suiteSeed &+ 2, in: fixture.folder, name: "c.png")
        let store = fixture.store
        try await fixture.application(tileCache: Self.cache(fixture)).test(.router) { client in
            let oldTemplate = try #require((try await client.get("/drawings/small").object["tiles"] as? [String: Any])?["template"] as? String)
            #expect(oldTemplate.hasSuffix("?v=" + (try Self.sha(path))))
            let oldURL = oldTemplate.replacingOccurrences(of: "{z}/{x}/{y}", with: "8/0/0")
            let old = try await client.get(oldURL)
            _ = try await store.removeDrawing("small", force: true)
            _ = try await store.addDrawing(NewDrawing(name: "small", imagePath: otherPath), regions: [])
            let newTemplate = try #require((try await client.get("/drawings/small").object["tiles"] as? [String: Any])?["template"] as? String)
            #expect(newTemplate.hasSuffix("?v=" + (try Self.sha(otherPath))))
            let new = try await client.get(newTemplate.replacingOccurrences(of: "{z}/{x}/{y}", with: "8/0/0"))
            #expect(new.status == .ok)
            #expect(new.body != old.body)
            #expect(new.headers[.eTag] != old.headers[.eTag])
            let oldAgain = try await client.get(oldURL)
            #expect(oldAgain.body == new.body)
            #expect(oldAgain.headers[.cacheControl] == "no-cache")
        }
    }

    /// A big sheet opens at once (issue 28): reading the drawing starts its pyramid in the background, and until the
    /// pyramid is on disk its tiles are made alone. Here every image counts as big and the overview is the levels
    /// of at most 256 px (level 7 of `small`; level 8's tiles are made one at a time), and the build is held until
    /// the test lets it go. While held: `tiles.progress` is 0, every tile is served (nothing built, no pyramid on
    /// disk), and regions and markers answer. Let go: the pyramid is made once, `tiles.progress` is 1, and each tile
    /// file on disk is byte for byte what was served before it existed.
    @Test func bigSheetTilesBeforeItsPyramid() async throws {
        let (fixture, _, path) = try await Self.smallFixture()
        defer { fixture.remove() }
        let (gate, open) = AsyncStream<Void>.makeStream()
        let cache = TileCache(root: fixture.folder.appendingPathComponent("tiles").path, backgroundAbovePixels: 0, overviewSide: 256,
                              beforeBuild: { for await _ in gate { break } })
        let sha = try Self.sha(path)
        let served = try await fixture.application(tileCache: cache).test(.router) { client in
            var served: [String: [UInt8]] = [:]
            func progress() async throws -> Double? {
                let response = try await client.get("/drawings/small")
                let object = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]
                return (object?["tiles"] as? [String: Any])?["progress"] as? Double
            }
            #expect(try await progress() == 0)
            for tile in ["7/0/0", "8/0/0", "8/1/0"] {
                let response = try await client.get("/drawings/small/tiles/\(tile).png?v=\(sha)")
                #expect(response.status == .ok, "\(tile)")
                served[tile] = Array(response.body.readableBytesView)
            }
            #expect(try await client.get("/drawings/small/regions").status == .ok)
            #expect(try await client.get("/drawings/small/markers").status == .ok)
            #expect(await cache.built == 0)
            #expect(!FileManager.default.fileExists(atPath: "\(cache.root)/\(sha)"))
            open.yield()
            open.finish()
            await cache.waitForPyramid(key: TileKey(sha256: sha))
            #expect(await cache.built == 1)
            #expect(try await progress() == 1)
            return served
        }
        for (tile, bytes) in served {
            let parts = tile.split(separator: "/").map { Int($0)! }
            let file = cache.path(of: TileCoordinate(z: parts[0], x: parts[1], y: parts[2]), key: TileKey(sha256: sha))
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data(bytes), "tile \(tile)")
        }
    }

    /// Issue "What people see", item 6: a big sheet added (through the store, after the server started) or revised (by the
    /// CLI, another process) has its pyramid made by the server as the change feed tells it, though no one asks for the
    /// drawing; a sheet below `backgroundAbovePixels` added before it is left to its first tile request. Every wait is for
    /// an event: the stream's first bytes, its first change (the hub reads the feed from then on), the pyramid's build starting.
    @Test(.hangGuard) func bigSheetsAreWarmedWhenAddedOrRevised() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        // 360 x 300 = 108,000 pixels: big above 100,000; 300 x 200 is not.
        let (started, builds) = AsyncStream<Void>.makeStream()
        let cache = TileCache(root: fixture.folder.appendingPathComponent("tiles").path, backgroundAbovePixels: 100_000, overviewSide: 256,
                              beforeBuild: { builds.yield() })
        let (_, littlePath) = try Self.randomImage(width: 300, height: 200, seed: 1, in: fixture.folder, name: "little.png")
        let (_, bigPath) = try Self.randomImage(width: 360, height: 300, seed: 2, in: fixture.folder, name: "big.png")
        let (_, revisedPath) = try Self.randomImage(width: 360, height: 300, seed: 3, in: fixture.folder, name: "big-2.png")
        let little = try Self.sha(littlePath), big = try Self.sha(bigPath), revised = try Self.sha(revisedPath)
        try await fixture.application(tileCache: cache, liveEvents: true).test(.live) { client in
            var nextBuild = started.makeAsyncIterator()
            let port = try #require(client.port)
            // The hub reads the feed from where it ended when it started: a change it streams says it has started.
            let reader = try EventStreamTests.EventReader(port: port, path: "/drawings/plan/events")
            // The stream's first bytes (`retry:`) say it follows the feed; a marker posted before them could be behind
            // where the stream starts, and its change would never come (seen once: the test waited until its guard).
            _ = try await reader.wait { _ in reader.text.contains("retry:") }
            let number = try await EventStreamTests.post(port, x: 450)
            #expect(try await reader.wait { $0.contains { $0.kind == "upsert" && $0.data.contains("\"number\":\(number)") } })
            reader.connection.abort()

            _ = try await fixture.store.addDrawing(NewDrawing(name: "little", imagePath: littlePath), regions: [])
            _ = try await fixture.store.addDrawing(NewDrawing(name: "big", imagePath: bigPath), regions: [])
            _ = await nextBuild.next()
            await cache.waitForPyramid(key: TileKey(sha256: big))
            #expect(await cache.built == 1)
            #expect(FileManager.default.fileExists(atPath: cache.path(of: TileCoordinate(z: 8, x: 1, y: 1), key: TileKey(sha256: big))))
            // Changes are handed out in feed order: `little`'s came first and made nothing.
            #expect(!FileManager.default.fileExists(atPath: "\(cache.root)/\(little)"))

            let cli = try ProcessRunner.run(BuiltProducts.path("planmark"), ["drawing", "revise", "big", revisedPath, "--store", fixture.storePath])
            #expect(cli.status == 0, "\(cli.stderr)")
            _ = await nextBuild.next()
            await cache.waitForPyramid(key: TileKey(sha256: revised))
            #expect(await cache.built == 2)
            #expect(FileManager.default.fileExists(atPath: cache.path(of: TileCoordinate(z: 8, x: 1, y: 1), key: TileKey(sha256: revised))))
        }
        builds.finish()
        #expect(!FileManager.default.fileExists(atPath: "\(cache.root)/\(little)"))
    }
}
