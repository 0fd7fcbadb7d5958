import Foundation
import Hummingbird
import PlanMarkExport
import PlanMarkGeometry
import PlanMarkRender
import PlanMarkStore
import Testing
@testable import PlanMarkServer

/// A calibrated drawing over HTTP: its scale in `GET /drawings/{name}`, areas in its regions' GeoJSON;
/// LabelMe regions in `POST /validate`.
@Suite struct CalibrationEndpointTests {
    /// A 4 x 3 m room (400 x 300 px at 0.01 m/px) with a 1 x 1 m hole: 11 m2, perimeter 14 + 4 = 18 m.
    static let room = try! Region(id: "R", name: "Office", coordinates: [[
        [PixelPoint(x: 100, y: 50), PixelPoint(x: 500, y: 50), PixelPoint(x: 500, y: 350), PixelPoint(x: 100, y: 350)],
        [PixelPoint(x: 200, y: 100), PixelPoint(x: 300, y: 100), PixelPoint(x: 300, y: 200), PixelPoint(x: 200, y: 200)],
    ]])

    @Test func scaleAndAreas() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        _ = try await fixture.store.replaceRegions(of: "plan", with: [Self.room], force: true, author: nil)
        try await fixture.application().test(.router) { client in
            // Not calibrated: neither the scale nor any area (absent, not 0).
            let plain = try await client.get("/drawings/plan")
            #expect(plain.object["metresPerPixel"] == nil && plain.object["calibration"] == nil)
            let plainRegions = try await client.get("/drawings/plan/regions")
            #expect(!plainRegions.text.contains("\"area\"") && !plainRegions.text.contains("\"perimeter\""))
        }
        // 1:1 at 2.54 dpi: a pixel is 0.0254 / 2.54 = 0.01 m.
        _ = try await fixture.store.calibrate("plan", with: .paperScale(paper: 1, reality: 1, dpi: 2.54))
        try await fixture.application().test(.router) { client in
            let drawing = try await client.get("/drawings/plan")
            #expect(drawing.object["metresPerPixel"] as? Double == 0.01)  // 254 / 25,400, worked out exactly
            let calibration = drawing.object["calibration"] as? [String: Any]
            #expect(calibration?["method"] as? String == "paper-scale" && calibration?["scale"] as? String == "1:1")
            for uri in ["/drawings/plan/regions", "/drawings/plan/regions?zoom=2"] {
                let regions = try await client.get(uri)
                let properties = ((regions.object["features"] as? [[String: Any]])?.first?["properties"] as? [String: Any]) ?? [:]
                // Rounded for people (0.01 m², 1 mm) and, beside them, the full doubles.
                #expect(properties["area"] as? Double == 11 && properties["perimeter"] as? Double == 18, "\(uri)")
                #expect(abs((properties["areaExact"] as? Double ?? 0) - 11) < 1e-9, "\(uri)")
                #expect(abs((properties["perimeterExact"] as? Double ?? 0) - 18) < 1e-9, "\(uri)")
            }
            let review = try await client.get("/drawings/plan/review.png?legend=true&scale=0.25")
            #expect(review.status == .ok)
        }
    }

    /// The review legend's room areas (render and review.png): rooms only, in m2, none without a scale.
    @Test func roomAreasForTheLegend() async throws {
        let allowed = try Region(id: "site", kind: .allowed, coordinates: [[
            [PixelPoint(x: 0, y: 0), PixelPoint(x: 600, y: 0), PixelPoint(x: 600, y: 400), PixelPoint(x: 0, y: 400)]]])
        let bare = try Region(id: "L", coordinates: [[
            [PixelPoint(x: 500, y: 0), PixelPoint(x: 600, y: 0), PixelPoint(x: 600, y: 200), PixelPoint(x: 700, y: 200),
             PixelPoint(x: 700, y: 300), PixelPoint(x: 500, y: 300)]]])
        var drawing = Drawing(name: "A", imagePath: "/a.png", imageSHA256: "", width: 800, height: 400, createdAt: .now())
        #expect(RoomAreas.of([allowed, Self.room, bare], drawing: drawing).isEmpty)
        drawing.metresPerPixel = 0.5  // binary: exact products
        drawing.calibration = .twoPoints(from: PixelPoint(x: 0, y: 0), to: PixelPoint(x: 2, y: 0), distance: 1, unit: .m)
        // 110,000 px2 / 4 = 27,500 m2; the L (100 x 300 + 100 x 100 px) 40,000 / 4 = 10,000 m2, named by its id.
        #expect(RoomAreas.of([allowed, Self.room, bare], drawing: drawing)
                == [ReviewRoomArea(id: "R", name: "Office", squareMetres: 27_500),
                    ReviewRoomArea(id: "L", name: "L", squareMetres: 10_000)])
        // The legend names them by id and name, so two offices can be told apart; "L" has no name but its id.
        #expect(RoomAreas.of([Self.room, bare], drawing: drawing).map(\.title) == ["R Office", "L"])
    }

    /// A LabelMe file as the regions of `POST /validate`: its image size is the drawing's size.
    @Test func validateWithLabelMe() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let labelMe = """
            {"version": "5.8.1", "flags": {}, "shapes": [
            {"label": "Kitchen", "points": [[10, 10], [110, 10], [110, 60], [10, 60]], "group_id": null, "description": "", "shape_type": "polygon", "flags": {}, "mask": null},
            {"label": "lamp", "points": [[20, 20], [25, 25]], "group_id": null, "description": "", "shape_type": "circle", "flags": {}, "mask": null}],
            "imagePath": "plan.png", "imageData": null, "imageHeight": 100, "imageWidth": 200}
            """
        let markers = #"[[50, 30], [150, 30], [250, 30]]"#
        try await fixture.application().test(.router) { client in
            let response = try await client.send(.post, "/validate", json: "{\"regions\":\(labelMe),\"markers\":\(markers),\"requireRoom\":true}")
            #expect(response.status == .ok, "\(response.text)")
            #expect(response.text.contains("Kitchen"))
            #expect(response.text.contains("outside-rooms"))
            #expect(response.text.contains("outside-drawing"))
            let mismatch = try await client.send(.post, "/validate", json: "{\"regions\":\(labelMe),\"size\":[300,100],\"markers\":\(markers)}")
            #expect(mismatch.status.code >= 400 && mismatch.status.code < 500)
            #expect(mismatch.errorMessage?.contains("the LabelMe image is 200x100 px but the drawing is 300x100 px") == true, "\(mismatch.text)")
        }
    }
}
