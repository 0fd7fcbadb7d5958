import Foundation
import Hummingbird
import PlanMarkGeometry
import PlanMarkStore
import Testing
@testable import PlanMarkServer

/// Each refusal reaches a client as its own code (409), which the OpenAPI document lists for the operation that
/// answered it; nothing is changed by a refused request.
@Suite struct RefusalCodeTests {
    /// The codes the OpenAPI document lists for `method` on `path` and `status` (from the response's schema enum).
    static func documentedCodes(_ path: String, _ method: String, _ status: Int) throws -> [String] {
        let document = try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as! [String: Any]
        let operation = ((document["paths"] as! [String: Any])[path] as! [String: Any])[method] as! [String: Any]
        let response = (operation["responses"] as! [String: Any])[String(status)] as! [String: Any]
        let schema = ((response["content"] as! [String: Any])["application/json"] as! [String: Any])["schema"] as! [String: Any]
        let error = (schema["properties"] as! [String: Any])["error"] as! [String: Any]
        return ((error["properties"] as! [String: Any])["code"] as! [String: Any])["enum"] as! [String]
    }

    @Test func workflowRefusalsHaveTheirOwnCodes() async throws {
        let fixture = try await ServerFixture(extra: [NewDrawing(name: "Level 2", imagePath: ServerFixture.samplePlan)])
        defer { fixture.remove() }
        _ = try await fixture.store.addMarker(to: "plan", NewMarker(position: PixelPoint(x: 450, y: 400), status: .ready), author: nil)
        _ = try await fixture.store.addMarker(to: "plan", NewMarker(position: PixelPoint(x: 460, y: 400), status: .closed), author: nil)
        let patchCodes = try Self.documentedCodes("/drawings/{name}/markers/{number}", "patch", 409)
        let deleteCodes = try Self.documentedCodes("/drawings/{name}", "delete", 409)
        try await fixture.application().test(.router) { client in
            let noReason = try await client.send(.patch, "/drawings/plan/markers/1", json: #"{"status":"open"}"#)
            #expect(noReason.status == .conflict && noReason.errorCode == "reason-required", "\(noReason.text)")
            #expect(noReason.errorMessage == "drawing \"plan\": marker 1 is ready; sending it back to open needs a reason")
            #expect(patchCodes.contains("reason-required"))

            let transition = try await client.send(.patch, "/drawings/plan/markers/2", json: #"{"status":"ready"}"#)
            #expect(transition.status == .conflict && transition.errorCode == "transition-refused", "\(transition.text)")
            #expect(patchCodes.contains("transition-refused"))

            let remove = try await client.execute(uri: "/drawings/plan", method: .delete)
            #expect(remove.status == .conflict && remove.errorCode == "drawing-has-markers", "\(remove.text)")
            #expect(deleteCodes == ["drawing-has-markers"])

            let rename = try await client.send(.patch, "/drawings/plan", json: #"{"name":"Level 2"}"#)
            #expect(rename.status == .conflict && rename.errorCode == "name-taken", "\(rename.text)")
            #expect(try Self.documentedCodes("/drawings/{name}", "patch", 409) == ["name-taken"])
        }
        #expect(try await fixture.store.marker(1, in: "plan").status == .ready)
        #expect(try await fixture.store.marker(2, in: "plan").status == .closed)
        #expect(try await fixture.store.drawing(named: "plan").markerCount == 2)
    }

    @Test func uuidConflictIsItsOwnCode() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let uuid = "0f4c8a52-8e1b-4d3f-9a6b-2c5e7d9f1a3b"
        try await fixture.application().test(.router) { client in
            let first = try await client.send(.post, "/drawings/plan/markers", json: #"{"x":450,"y":400,"uuid":"\#(uuid)"}"#)
            #expect(first.status == .created, "\(first.text)")
            let other = try await client.send(.post, "/drawings/plan/markers", json: #"{"x":460,"y":400,"uuid":"\#(uuid)"}"#)
            #expect(other.status == .conflict && other.errorCode == "uuid-conflict", "\(other.text)")
        }
        #expect(try Self.documentedCodes("/drawings/{name}/markers", "post", 409) == ["uuid-conflict", "uuid-not-issued"])
        #expect(try await fixture.store.drawing(named: "plan").markerCount == 1)
    }
}
