import Foundation
import Hummingbird
import PlanMarkGeometry
import PlanMarkRender
import PlanMarkStore
import PlanMarkTestSupport
import Testing
@testable import PlanMarkServer

/// After `reviseDrawing`, the image, the tiles and the drawing JSON's tile template are the new revision's:
/// the expected bytes come from the new PNG file itself (its SHA-256) and from `TilePyramid` run on the new
/// image's pixels, never from the service.
@Suite struct RevisionImageTests {
    @Test func imageAndTilesFollowTheCurrentRevision() async throws {
        let (fixture, _, oldPath) = try await TileEndpointTests.smallFixture()
        defer { fixture.remove() }
        let (newImage, newPath) = try TileEndpointTests.randomImage(width: 300, height: 200, seed: SeededGenerator.suiteSeed &+ 1,
                                                                    in: fixture.folder, name: "small-rev2.png")
        let oldSHA = try TileEndpointTests.sha(oldPath), newSHA = try TileEndpointTests.sha(newPath)
        try #require(oldSHA != newSHA)
        var made: [TileCoordinate: [UInt8]] = [:]
        try TilePyramid(scheme: try #require(TileScheme(width: 300, height: 200, zoom: 8))).makeTiles(of: newImage) { made[$0] = $1 }
        let expected = made
        _ = try await fixture.store.reviseDrawing("small", NewRevision(imagePath: newPath), dryRun: false, author: nil)

        try await fixture.application(tileCache: TileEndpointTests.cache(fixture)).test(.router) { client in
            let image = try await client.get("/drawings/small/image")
            #expect(image.status == .ok)
            #expect(image.headers[.eTag] == "\"" + newSHA + "\"")
            #expect(sha256sum(Array(image.body.readableBytesView)) == newSHA)
            let drawing = try await client.get("/drawings/small")
            let template = (drawing.object["tiles"] as? [String: Any])?["template"] as? String ?? ""
            #expect(template.contains(newSHA) && !template.contains(oldSHA), "\(template)")
            for (z, x) in [(8, 0), (8, 1), (7, 0)] {
                let tile = try await client.get("/drawings/small/tiles/\(z)/\(x)/0.png?v=\(newSHA)")
                #expect(tile.status == .ok)
                #expect(Array(tile.body.readableBytesView) == expected[TileCoordinate(z: z, x: x, y: 0)], "tile \(z)/\(x)/0")
            }
        }
    }
}
