import Foundation
import HTTPTypes
import Hummingbird
import PlanMarkGeometry
import PlanMarkStore
import PlanMarkTestSupport
import Testing
@testable import PlanMarkServer

/// `/drawings/{name}/markers/{n}/comments`: the thread as the store keeps it, refusals with their codes, the signed-in
/// user as the author.
@Suite struct CommentEndpointTests {
    static let base = "/drawings/plan/markers/1/comments"

    @Test func postAndListComments() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        _ = try await fixture.store.addMarker(to: "plan", at: PixelPoint(x: 450, y: 400), note: nil, author: nil)
        try await fixture.application().test(.router) { client in
            let empty = try await client.get(Self.base)
            #expect(empty.status == .ok && empty.text == "[]\n")
            let posted = try await client.send(.post, Self.base, json: #"{"text":"Tile cracked\nby the door <b>"}"#)
            #expect(posted.status == .created, "\(posted.text)")
            #expect(Set(posted.object.keys) == ["id", "author", "createdAt", "text"])
            #expect(posted.object["text"] as? String == "Tile cracked\nby the door <b>")
            #expect(posted.object["author"] is NSNull)
            let second = try await client.send(.post, Self.base, json: #"{"text":"fixed","author":"ana"}"#)
            #expect(second.status == .created)
            let list = try await client.get(Self.base)
            let items = try #require(list.json as? [[String: Any]])
            #expect(items.map { $0["id"] as? Int } == [posted.object["id"] as? Int, second.object["id"] as? Int])
            #expect(items.map { $0["author"] as? String } == [nil, "ana"])
            // Refused: each with its code, and nothing stored.
            for (body, status, code) in [(#"{"text":"  "}"#, HTTPResponse.Status.badRequest, "invalid-field"), (#"{}"#, .badRequest, "invalid-field"),
                                         (#"{"text":"x","note":"y"}"#, .badRequest, "invalid-field"), (#"{"text":7}"#, .badRequest, "invalid-field")] {
                let refused = try await client.send(.post, Self.base, json: body)
                #expect(refused.status == status && refused.errorCode == code, "\(body): \(refused.text)")
            }
            let missing = try await client.send(.post, "/drawings/plan/markers/9/comments", json: #"{"text":"x"}"#)
            #expect(missing.status == .notFound && missing.errorCode == "unknown-marker")
            #expect(try await client.get("/drawings/plan/markers/9/comments").status == .notFound)
        }
        let stored = try await fixture.store.comments(ofMarker: 1, in: "plan")
        #expect(stored.map(\.text) == ["Tile cracked\nby the door <b>", "fixed"])
        #expect(try await fixture.store.history(of: "plan", number: 1).map(\.action) == [.created, .commented, .commented])
    }
}
