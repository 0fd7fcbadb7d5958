import Foundation
import Hummingbird
import PlanMarkGeometry
import PlanMarkStore
import Testing
@testable import PlanMarkServer

/// POST, GET, PATCH, DELETE and history of markers. Expected rooms come from the sample regions by hand:
/// 2.01 is [200, 700] x [150, 650], 2.02 is [700, 1100] x [150, 650]; the allowed area A1 is
/// [200, 1800] x [150, 1250] with a hole [650, 950] x [800, 1000]; the image is 2400 x 1600.
@Suite struct MarkerEndpointTests {
    @Test func postInPixelsStoresAndNumbers() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let first = try await client.send(.post, "/drawings/plan/markers", json: #"{"x":450,"y":400,"note":"crack","author":"ana"}"#)
            #expect(first.status == .created)
            #expect(first.object["number"] as? Int == 1)
            #expect(first.object["x"] as? Double == 450)
            #expect(first.object["y"] as? Double == 400)
            #expect(first.object["rooms"] as? [String] == ["2.01"])
            #expect(first.object["note"] as? String == "crack")
            #expect(first.headers[.location] == "/drawings/plan/markers/1")
            let wall = try await client.send(.post, "/drawings/plan/markers", json: #"{"x":700,"y":400}"#)
            #expect(wall.object["number"] as? Int == 2)
            #expect(wall.object["rooms"] as? [String] == ["2.01", "2.02"])
        }
        let stored = try await fixture.store.marker(1, in: "plan")
        #expect(stored.position == PixelPoint(x: 450, y: 400))
        #expect(stored.author == "ana")
    }

    @Test(arguments: [
        (#"{"x":2500,"y":10}"#, "outside-drawing"),
        (#"{"x":-1,"y":10}"#, "outside-drawing"),
        (#"{"x":2000,"y":100}"#, "outside-allowed-area"),
        (#"{"x":800,"y":900}"#, "outside-allowed-area"),
        (#"{"lat":1e308,"lng":1,"zoom":64}"#, "invalid-coordinate"),
        (#"{"lat":1,"lng":1}"#, "outside-drawing"),
    ])
    func refusedTapIs422AndStoresNothing(body: String, code: String) async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.send(.post, "/drawings/plan/markers", json: body)
            #expect(response.status == .unprocessableContent)
            #expect(response.errorCode == code)
        }
        #expect(try await fixture.store.drawing(named: "plan").markerCount == 0)
        #expect(try await fixture.store.drawing(named: "plan").drawing.nextNumber == 1)
    }

    /// Leaflet zoom 3 scales by 8: lat -50, lng 56.25 is pixel (450, 400), in room 2.01.
    @Test func postInLatLngConvertsAtTheClientsZoom() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.send(.post, "/drawings/plan/markers", json: #"{"lat":-50,"lng":56.25,"zoom":3}"#)
            #expect(response.status == .created)
            #expect(response.object["x"] as? Double == 450)
            #expect(response.object["y"] as? Double == 400)
            #expect(response.object["lat"] as? Double == -50)
            #expect(response.object["lng"] as? Double == 56.25)
            #expect(response.object["rooms"] as? [String] == ["2.01"])
            // Without zoom: the drawing's zoom 8 (scale 256): lat -1.5625, lng 1.7578125 is (450, 400) too.
            let defaultZoom = try await client.send(.post, "/drawings/plan/markers", json: #"{"lat":-1.5625,"lng":1.7578125}"#)
            #expect(defaultZoom.object["x"] as? Double == 450)
            #expect(defaultZoom.object["y"] as? Double == 400)
        }
    }

    /// flutter_map zoom 1 scales by 512: lat -0.78125, lng 0.87890625 is pixel (450, 400).
    @Test func postInFlutterLatLng() async throws {
        let fixture = try await ServerFixture(extra: [NewDrawing(name: "f", imagePath: ServerFixture.samplePlan, zoom: 0, crs: .flutter)])
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.send(.post, "/drawings/f/markers", json: #"{"lat":-0.78125,"lng":0.87890625,"zoom":1}"#)
            #expect(response.status == .created)
            #expect(response.object["x"] as? Double == 450)
            #expect(response.object["y"] as? Double == 400)
            let markers = try await client.get("/drawings/f/markers?zoom=1")
            #expect(features(markers).first?.coordinates == [0.87890625, -0.78125])
        }
    }

    @Test func singleMarkerDrawingReplacesItsMarker() async throws {
        let fixture = try await ServerFixture(extra: [NewDrawing(name: "one", imagePath: ServerFixture.samplePlan, singleMarker: true)])
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let first = try await client.send(.post, "/drawings/one/markers", json: #"{"x":450,"y":400}"#)
            let second = try await client.send(.post, "/drawings/one/markers", json: #"{"x":900,"y":300}"#)
            #expect(first.object["number"] as? Int == 1)
            #expect(second.object["number"] as? Int == 2)
            let list = features(try await client.get("/drawings/one/markers"))
            #expect(list.count == 1)
            #expect(list.first?.coordinates == [900, 300])
            #expect(try await client.get("/drawings/one").object["markers"] as? Int == 1)
            #expect(try await client.get("/drawings/one/markers/1").status == .notFound)
            let history = try await client.get("/drawings/one/markers/1/history")
            #expect(history.status == .ok)
            let actions = (history.object["history"] as? [[String: Any]])?.compactMap { $0["action"] as? String }
            #expect(actions == ["created", "removed"])
        }
    }

    @Test func getMarkersAsGeoJSONWithStatusFilter() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        _ = try await fixture.store.addMarker(to: "plan", at: .init(x: 450, y: 400), note: "a", author: nil)
        _ = try await fixture.store.addMarker(to: "plan", at: .init(x: 900, y: 300), note: nil, author: nil)
        _ = try await fixture.store.setStatus(.closed, ofMarker: 2, in: "plan", author: nil)
        try await fixture.application().test(.router) { client in
            let all = try await client.get("/drawings/plan/markers")
            #expect(all.status == .ok)
            #expect(all.headers[.contentType]?.hasPrefix("application/geo+json") == true)
            let list = features(all)
            #expect(list.map(\.coordinates) == [[450, 400], [900, 300]])
            #expect(list.map { $0.properties["number"] as? Int } == [1, 2])
            #expect(list.map { $0.properties["status"] as? String } == ["open", "closed"])
            #expect(list.first?.properties["rooms"] as? [String] == ["2.01"])
            #expect(list.first?.properties["note"] as? String == "a")
            #expect(list.last?.properties["note"] is NSNull)
            let open = features(try await client.get("/drawings/plan/markers?status=open"))
            #expect(open.map { $0.properties["number"] as? Int } == [1])
            // Leaflet zoom 0: lat = -y, lng = x. `resolved`, the name before the workflow, is `closed`.
            let latLng = features(try await client.get("/drawings/plan/markers?zoom=0&status=resolved"))
            #expect(latLng.map(\.coordinates) == [[900, -300]])
        }
    }

    @Test func patchMovesResolvesAndEditsNote() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        _ = try await fixture.store.addMarker(to: "plan", at: .init(x: 450, y: 400), note: nil, author: nil)
        try await fixture.application().test(.router) { client in
            let moved = try await client.send(.patch, "/drawings/plan/markers/1", json: #"{"x":900,"y":300,"author":"bo"}"#)
            #expect(moved.status == .ok)
            #expect(moved.object["x"] as? Double == 900)
            #expect(moved.object["rooms"] as? [String] == ["2.02"])
            // Leaflet zoom 1 scales by 2: lat -200, lng 300 is pixel (600, 400) in 2.01.
            let movedLatLng = try await client.send(.patch, "/drawings/plan/markers/1", json: #"{"lat":-200,"lng":300,"zoom":1}"#)
            #expect(movedLatLng.object["x"] as? Double == 600)
            #expect(movedLatLng.object["y"] as? Double == 400)
            let resolved = try await client.send(.patch, "/drawings/plan/markers/1", json: #"{"status":"resolved","note":"fixed"}"#)
            #expect(resolved.object["status"] as? String == "closed")
            #expect(resolved.object["note"] as? String == "fixed")
            let cleared = try await client.send(.patch, "/drawings/plan/markers/1", json: #"{"note":null,"status":"open"}"#)
            #expect(cleared.object["note"] is NSNull)
            #expect(cleared.object["status"] as? String == "open")
            let history = try await client.get("/drawings/plan/markers/1/history")
            let entries = history.object["history"] as? [[String: Any]] ?? []
            // One entry per PATCH: the status change carries the note changed with it.
            #expect(entries.compactMap { $0["action"] as? String } == ["created", "moved", "moved", "resolved", "reopened"])
            #expect((entries.last?["old"] as? [String: Any])?["note"] as? String == "fixed")
            #expect((entries.last?["new"] as? [String: Any])?["note"] is NSNull)
            #expect(entries.dropFirst().first?["author"] as? String == "bo")
            #expect((entries.dropFirst().first?["old"] as? [String: Any])?["x"] as? Double == 450)
            #expect((entries.dropFirst().first?["new"] as? [String: Any])?["x"] as? Double == 900)
        }
    }

    @Test func refusedMoveChangesNothing() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        _ = try await fixture.store.addMarker(to: "plan", at: .init(x: 450, y: 400), note: nil, author: nil)
        try await fixture.application().test(.router) { client in
            let response = try await client.send(.patch, "/drawings/plan/markers/1", json: #"{"x":800,"y":900,"status":"resolved"}"#)
            #expect(response.status == .unprocessableContent)
            #expect(response.errorCode == "outside-allowed-area")
            let bad = try await client.send(.patch, "/drawings/plan/markers/1", json: #"{"status":"done"}"#)
            #expect(bad.status == .badRequest)
            #expect(bad.errorMessage?.hasPrefix("$.status:") == true)
            let nothing = try await client.send(.patch, "/drawings/plan/markers/1", json: "{}")
            #expect(nothing.status == .badRequest)
            #expect(try await client.send(.patch, "/drawings/plan/markers/9", json: #"{"status":"resolved"}"#).status == .notFound)
        }
        let marker = try await fixture.store.marker(1, in: "plan")
        #expect(marker.position == PixelPoint(x: 450, y: 400))
        #expect(marker.status == .open)
    }

    @Test func deleteRemovesAndNumbersAreNotReused() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            _ = try await client.send(.post, "/drawings/plan/markers", json: #"{"x":450,"y":400}"#)
            _ = try await client.send(.post, "/drawings/plan/markers", json: #"{"x":900,"y":300}"#)
            let removed = try await client.execute(uri: "/drawings/plan/markers/2?author=cy", method: .delete)
            #expect(removed.status == .ok)
            #expect(removed.object["removed"] as? Bool == true)
            #expect(try await client.execute(uri: "/drawings/plan/markers/2", method: .delete).status == .notFound)
            #expect(try await client.get("/drawings/plan/markers/2").status == .notFound)
            let next = try await client.send(.post, "/drawings/plan/markers", json: #"{"x":1300,"y":500}"#)
            #expect(next.object["number"] as? Int == 3)
            let history = try await client.get("/drawings/plan/markers/2/history")
            let entries = history.object["history"] as? [[String: Any]] ?? []
            #expect(entries.compactMap { $0["action"] as? String } == ["created", "removed"])
            #expect(entries.last?["author"] as? String == "cy")
            #expect(try await client.get("/drawings/plan/markers/abc").status == .badRequest)
        }
    }

    @Test func getOneMarkerWithLatLng() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        _ = try await fixture.store.addMarker(to: "plan", at: .init(x: 450, y: 400), note: nil, author: nil)
        try await fixture.application().test(.router) { client in
            let response = try await client.get("/drawings/plan/markers/1?zoom=2")
            #expect(response.status == .ok)
            #expect(response.object["lat"] as? Double == -100)
            #expect(response.object["lng"] as? Double == 112.5)
        }
    }
}
