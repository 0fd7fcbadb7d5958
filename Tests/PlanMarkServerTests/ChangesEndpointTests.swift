import Foundation
import Hummingbird
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkSQLite
import PlanMarkTestSupport
import Testing
@testable import PlanMarkServer
@testable import PlanMarkStore

/// `GET /changes` (issue 26, item 1): pages in cursor order with tombstones, `next` and `more`; bad parameters are 400;
/// a signed-in user sees the drawings of their projects, a subcontractor the upserts of their markers only.
@Suite struct ChangesEndpointTests {
    /// The changes of a page as `kind drawing number`, and its next and more.
    static func page(_ response: TestResponse) -> (changes: [String], next: Int, more: Bool) {
        let object = response.object
        let changes = (object["changes"] as? [[String: Any]] ?? []).map { change in
            [change["kind"] as? String ?? "?", change["drawing"] as? String ?? "?", (change["number"] as? Int).map(String.init) ?? "-"]
                .joined(separator: " ")
        }
        return (changes, object["next"] as? Int ?? -1, object["more"] as? Bool ?? false)
    }

    @Test func pagesWithTombstones() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            for x in [450, 460, 470] { _ = try await client.send(.post, "/drawings/plan/markers", json: #"{"x":\#(x),"y":400}"#) }
            _ = try await client.send(.patch, "/drawings/plan/markers/1", json: #"{"note":"later"}"#)
            _ = try await client.execute(uri: "/drawings/plan/markers/2", method: .delete)
            let all = try await client.get("/changes")
            #expect(all.status == .ok, "\(all.text)")
            #expect(Self.page(all).changes == ["drawing-added plan -", "upsert plan 3", "upsert plan 1", "remove plan 2"])
            #expect(Self.page(all).more == false)
            let first = try #require((all.object["changes"] as? [[String: Any]])?[2])
            #expect((first["marker"] as? [String: Any])?["note"] as? String == "later" && first["uuid"] is String)
            let tombstone = try #require((all.object["changes"] as? [[String: Any]])?[3])
            #expect(tombstone["marker"] is NSNull && tombstone["uuid"] is String)
            // Two at a time, each page after the last one's next.
            var seen: [String] = []
            var since = 0
            var more = true
            while more {
                let page = Self.page(try await client.get("/changes?since=\(since)&limit=2"))
                seen += page.changes
                (since, more) = (page.next, page.more)
            }
            #expect(seen == Self.page(all).changes)
            let none = Self.page(try await client.get("/changes?since=\(since)&drawing=plan"))
            #expect(none.changes.isEmpty && none.next == since && !none.more)
            for bad in ["since=-1", "since=x", "limit=0", "limit=10001", "other=1"] {
                #expect(try await client.get("/changes?\(bad)").status == .badRequest, "\(bad)")
            }
            #expect(try await client.get("/changes?drawing=nope").status == .notFound)
        }
    }

    /// A subcontractor's feed: the upserts of the markers assigned to their company, nothing of the others (not even
    /// tombstones); a user without a role in the drawing's project sees none of it.
    @Test func theFeedRespectsRoles() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let store = fixture.store
        let (sam, eve) = try await fixture.subcontractorAndOutsider()
        var theirs = NewMarker(position: PixelPoint(x: 450, y: 400))
        theirs.assignee = "Acme"
        _ = try await store.addMarker(to: "plan", theirs, author: nil)                                       // 1: Acme's
        _ = try await store.addMarker(to: "plan", NewMarker(position: PixelPoint(x: 460, y: 400)), author: nil) // 2
        _ = try await store.removeMarker(2, in: "plan", author: nil)
        try await fixture.application().test(.router) { client in
            let samFeed = try await client.get("/changes", headers: [.authorization: "Bearer \(sam)"])
            #expect(Self.page(samFeed).changes == ["drawing-added plan -", "upsert plan 1"], "\(samFeed.text)")
            let eveFeed = try await client.get("/changes", headers: [.authorization: "Bearer \(eve)"])
            #expect(Self.page(eveFeed).changes.isEmpty && Self.page(eveFeed).next > 0)
            #expect(try await client.get("/changes?drawing=plan", headers: [.authorization: "Bearer \(eve)"]).status == .notFound)
        }
    }
}
