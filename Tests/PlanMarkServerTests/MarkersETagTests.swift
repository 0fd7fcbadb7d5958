import Foundation
import Hummingbird
import PlanMarkGeometry
import PlanMarkStore
import Testing
@testable import PlanMarkServer

/// `GET /drawings/{name}/markers` answers with an ETag that changes with every marker write (this server's
/// or another process's) and stays otherwise, and 304 for `If-None-Match` with it: what the review page polls.
@Suite struct MarkersETagTests {
    static let markers = "/drawings/plan/markers"

    @Test func changesWithEveryKindOfWriteAndAnswers304Otherwise() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let storePath = fixture.storePath
        let csv = fixture.folder.appendingPathComponent("more.csv")
        try "id,x,y\nr1,455,405\n".write(to: csv, atomically: true, encoding: .utf8)
        try await fixture.application().test(.router) { client in
            var seen: [String] = []
            /// After `write`, the listing has a tag never seen before; asking again with it is 304 with no body.
            func expectNewTag(_ what: String, _ write: () async throws -> Void) async throws {
                try await write()
                let response = try await client.get(Self.markers)
                #expect(response.status == .ok, "\(what)")
                let etag = try #require(response.headers[.eTag], "\(what)")
                #expect(!seen.contains(etag), "\(what) left the ETag at \(etag)")
                #expect(response.headers[.cacheControl] == "no-cache")
                let again = try await client.get(Self.markers, headers: [.ifNoneMatch: etag])
                #expect(again.status == .notModified, "\(what)")
                #expect(again.body.readableBytes == 0)
                #expect(again.headers[.eTag] == etag)
                seen.append(etag)
            }
            try await expectNewTag("nothing yet") {}
            try await expectNewTag("POST") {
                let answer1 = try await client.send(.post, Self.markers, json: "{\"x\":450,\"y\":400}")
                #expect(answer1.status == .created)
            }
            try await expectNewTag("move") {
                let answer2 = try await client.send(.patch, Self.markers + "/1", json: "{\"x\":460,\"y\":400}")
                #expect(answer2.status == .ok)
            }
            try await expectNewTag("note") {
                let answer3 = try await client.send(.patch, Self.markers + "/1", json: "{\"note\":\"cracked\"}")
                #expect(answer3.status == .ok)
            }
            try await expectNewTag("status") {
                let answer4 = try await client.send(.patch, Self.markers + "/1", json: "{\"status\":\"closed\"}")
                #expect(answer4.status == .ok)
            }
            try await expectNewTag("attach") {
                let posted = try await client.execute(uri: Self.markers + "/1/attachments", method: .post, headers: [.contentType: "image/png"],
                                                      body: ByteBuffer(bytes: AttachmentFixtures.png))
                #expect(posted.status == .created)
            }
            try await expectNewTag("detach") {
                let answer5 = try await client.execute(uri: Self.markers + "/1/attachments/1", method: .delete)
                #expect(answer5.status == .ok)
            }
            try await expectNewTag("CLI import in another process") {
                let out = try ProcessRunner.run(BuiltProducts.path("planmark"), ["import", "plan", csv.path, "--store", storePath])
                #expect(out.status == 0, "\(out.stderr)")
            }
            try await expectNewTag("CLI mark in another process") {
                let out = try ProcessRunner.run(BuiltProducts.path("planmark"), ["mark", "plan", "470", "400", "--store", storePath])
                #expect(out.status == 0, "\(out.stderr)")
            }
            try await expectNewTag("DELETE") {
                let answer6 = try await client.execute(uri: Self.markers + "/1", method: .delete)
                #expect(answer6.status == .ok)
            }
            // Refused writes and reads change nothing.
            let answer7 = try await client.send(.post, Self.markers, json: "{\"x\":5,\"y\":5}")
                #expect(answer7.status == .unprocessableContent)
            _ = try await client.get("/drawings/plan/markers/2")
            let same = try await client.get(Self.markers, headers: [.ifNoneMatch: seen.last!])
            #expect(same.status == .notModified)
        }
    }

    /// Another query is another listing: another tag, and the first one's tag does not answer it with 304.
    @Test func tagsDependOnTheQueryAndTheDrawing() async throws {
        let fixture = try await ServerFixture(extra: [NewDrawing(name: "copy", imagePath: ServerFixture.samplePlan)])
        defer { fixture.remove() }
        let store = fixture.store
        try await fixture.application().test(.router) { client in
            let all = try #require(try await client.get(Self.markers).headers[.eTag])
            let open = try #require(try await client.get(Self.markers + "?status=open").headers[.eTag])
            let zoomed = try #require(try await client.get(Self.markers + "?zoom=8").headers[.eTag])
            let copy = try #require(try await client.get("/drawings/copy/markers").headers[.eTag])
            #expect(Set([all, open, zoomed, copy]).count == 4)
            let answer8 = try await client.get(Self.markers + "?status=open", headers: [.ifNoneMatch: all])
                #expect(answer8.status == .ok)
            let answer9 = try await client.get(Self.markers + "?status=open", headers: [.ifNoneMatch: open])
                #expect(answer9.status == .notModified)
            // A write to another drawing leaves this one's tag.
            _ = try await store.addMarker(to: "copy", at: PixelPoint(x: 450, y: 400), note: nil, author: nil)
            let answer10 = try await client.get(Self.markers, headers: [.ifNoneMatch: all])
                #expect(answer10.status == .notModified)
        }
    }

    /// A listing the server keeps (`MarkerListCache`) is answered again only while the store has not changed: a note
    /// set by another process is in the next answer, and a listing at another zoom is another listing.
    @Test func aKeptListingFollowsChangesByAnotherProcess() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let storePath = fixture.storePath
        try await fixture.application().test(.router) { client in
            #expect(try await client.send(.post, Self.markers, json: "{\"x\":450,\"y\":400,\"note\":\"first\"}").status == .created)
            /// Marker 1's note in a listing, read by Foundation's JSON parser.
            func note(_ body: ByteBuffer) throws -> String? {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any])
                let features = try #require(object["features"] as? [[String: Any]])
                let first = try #require(features.first { ($0["properties"] as? [String: Any])?["number"] as? Int == 1 })
                return (first["properties"] as? [String: Any])?["note"] as? String
            }
            let made = try await client.get(Self.markers)
            let kept = try await client.get(Self.markers)
            #expect(made.status == .ok && kept.status == .ok)
            #expect(Array(made.body.readableBytesView) == Array(kept.body.readableBytesView))
            #expect(try note(kept.body) == "first")
            let zoomed = try await client.get(Self.markers + "?zoom=3")
            let features = try #require(try JSONSerialization.jsonObject(with: Data(zoomed.body.readableBytesView)) as? [String: Any])
            let geometry = try #require(((features["features"] as? [[String: Any]])?.first?["geometry"]) as? [String: Any])
            // At zoom 3 a pixel is 2^-3 of a map unit: x 450 is lng 56.25 (pixels in the listing without zoom).
            #expect((geometry["coordinates"] as? [Double])?.first == 56.25)

            let out = try ProcessRunner.run(BuiltProducts.path("planmark"), ["note", "plan", "1", "second", "--store", storePath])
            #expect(out.status == 0, "\(out.stderr)")
            let after = try await client.get(Self.markers)
            #expect(try note(after.body) == "second")
        }
    }
}
