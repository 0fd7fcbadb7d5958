import Foundation
import Hummingbird
import PlanMarkStore
import Testing
@testable import PlanMarkServer

/// `/drawings`, `/drawings/{name}`, its image and its regions.
@Suite struct DrawingEndpointTests {
    @Test func listsDrawings() async throws {
        let fixture = try await ServerFixture(extra: [NewDrawing(name: "Level 2", imagePath: ServerFixture.samplePlan, zoom: 0, crs: .flutter)])
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.get("/drawings")
            #expect(response.status == .ok)
            let names = (response.object["drawings"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
            #expect(names == ["Level 2", "plan"])
        }
    }

    /// Bounds by hand: Leaflet at zoom 8 divides pixels by 2^8 = 256 and negates y, so the image
    /// (2400 x 1600) spans lat -6.25...0 and lng 0...9.375.
    @Test func showsDrawingWithLeafletBounds() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        _ = try await fixture.store.addMarker(to: "plan", at: .init(x: 450, y: 400), note: nil, author: nil)
        try await fixture.application().test(.router) { client in
            let response = try await client.get("/drawings/plan")
            #expect(response.status == .ok)
            let drawing = response.object
            #expect(drawing["name"] as? String == "plan")
            #expect(drawing["width"] as? Int == 2400)
            #expect(drawing["height"] as? Int == 1600)
            #expect(drawing["zoom"] as? Double == 8)
            #expect(drawing["crs"] as? String == "leaflet")
            #expect(drawing["markers"] as? Int == 1)
            #expect(drawing["image"] as? String == "/drawings/plan/image")
            #expect(drawing["imagePath"] == nil)
            let bounds = drawing["bounds"] as? [String: [Double]]
            #expect(bounds?["southWest"] == [-6.25, 0])
            #expect(bounds?["northEast"] == [0, 9.375])
        }
    }

    /// flutter_map's CrsSimple at zoom 0 scales by 256, so the same image spans lat -6.25...0 and lng 0...9.375;
    /// at zoom 1 by 512: lat -3.125...0, lng 0...4.6875.
    @Test func flutterBoundsAndEncodedNames() async throws {
        let fixture = try await ServerFixture(extra: [NewDrawing(name: "Level 2/east", imagePath: ServerFixture.samplePlan, zoom: 1, crs: .flutter)])
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.get("/drawings/Level%202%2Feast")
            #expect(response.status == .ok)
            #expect(response.object["crs"] as? String == "flutter")
            #expect(response.object["image"] as? String == "/drawings/Level%202%2Feast/image")
            let bounds = response.object["bounds"] as? [String: [Double]]
            #expect(bounds?["southWest"] == [-3.125, 0])
            #expect(bounds?["northEast"] == [0, 4.6875])
        }
    }

    @Test(arguments: ["/drawings/nope", "/drawings/nope/image", "/drawings/nope/regions", "/drawings/nope/markers",
                      "/drawings/nope/markers/1", "/drawings/nope/markers/1/history", "/drawings/nope/review.png",
                      "/drawings/..%2F..%2Fetc%2Fpasswd/image", "/drawings/plan/markers/7", "/drawings/plan/markers/7/history"])
    func unknownDrawingOrMarkerIs404(path: String) async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.get(path)
            #expect(response.status == .notFound)
            #expect(response.errorCode == (path.hasPrefix("/drawings/plan/") ? "unknown-marker" : "unknown-drawing"))
        }
    }

    @Test func imageHasETagAndCacheControl() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let original = try Data(contentsOf: URL(fileURLWithPath: ServerFixture.samplePlan))
        let sha = try await fixture.store.drawing(named: "plan").drawing.imageSHA256
        try await fixture.application().test(.router) { client in
            let response = try await client.get("/drawings/plan/image")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "image/png")
            #expect(Data(response.body.readableBytesView) == original)
            #expect(response.headers[.eTag] == "\"\(sha)\"")
            #expect(response.headers[.cacheControl]?.contains("max-age") == true)
            let again = try await client.get("/drawings/plan/image", headers: [.ifNoneMatch: "\"\(sha)\""])
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
            let other = try await client.get("/drawings/plan/image", headers: [.ifNoneMatch: "\"other\""])
            #expect(other.status == .ok)
        }
    }

    @Test func regionsInPixels() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.get("/drawings/plan/regions")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("application/geo+json") == true)
            let list = response.object["features"] as? [[String: Any]] ?? []
            #expect(list.count == 9)
            let first = list.first
            #expect(first?["id"] as? String == "2.01")
            let ring = ((first?["geometry"] as? [String: Any])?["coordinates"] as? [[[Double]]])?.first
            #expect(ring?.first == [200, 150])
            #expect(ring?.count == 5)
            #expect(Set(ring ?? []) == [[200, 150], [700, 150], [700, 650], [200, 650]])
            #expect((list.last?["properties"] as? [String: Any])?["kind"] as? String == "allowed")
        }
    }

    /// Room 2.01's corner (700, 650) at Leaflet zoom 2 (scale 4) is lat -162.5, lng 175: GeoJSON `[175, -162.5]`.
    @Test func regionsInLatLng() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.get("/drawings/plan/regions?zoom=2")
            let list = response.object["features"] as? [[String: Any]] ?? []
            let ring = ((list.first?["geometry"] as? [String: Any])?["coordinates"] as? [[[Double]]])?.first ?? []
            #expect(Set(ring) == [[50, -37.5], [175, -37.5], [175, -162.5], [50, -162.5]])
        }
    }
}
