import Foundation
import Hummingbird
import PlanMarkStore
import PlanMarkTestSupport
import Testing
@testable import PlanMarkServer

/// What the service acknowledges is what it stored: PATCH all or nothing under racing clients, text
/// with NUL refused, names cut at NUL find nothing, the image served is the one the drawing was added with.
@Suite struct StoredExactlyTests {
    /// 24 clients PATCH one marker at once: half with a position inside the allowed area, half outside
    /// it, each with its own note and a status. Every 200 is one history entry holding exactly that
    /// request's values; every 422 left no trace.
    @Test func racingPatchesAreEachWholeOrAbsent() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        _ = try await fixture.store.addMarker(to: "plan", at: .init(x: 450, y: 400), note: nil, author: nil)
        let statuses = try await fixture.application().test(.router) { client in
            try await withThrowingTaskGroup(of: (Int, Int).self) { group in
                for k in 0..<24 {
                    group.addTask {
                        // (460 + k, 410) lies in room 2.01 of the sample; (5, 5) is outside the allowed area.
                        let x = k % 2 == 0 ? 460 + k : 5
                        let y = k % 2 == 0 ? 410 : 5
                        let status = k % 3 == 0 ? "resolved" : "open"
                        let body = #"{"x":\#(x),"y":\#(y),"status":"\#(status)","note":"client \#(k)","author":"c\#(k)"}"#
                        let response = try await client.send(.patch, "/drawings/plan/markers/1", json: body)
                        return (k, Int(response.status.code))
                    }
                }
                var all: [(Int, Int)] = []
                for try await result in group { all.append(result) }
                return all
            }
        }
        for (k, status) in statuses {
            #expect(status == (k % 2 == 0 ? 200 : 422), "client \(k) got \(status)")
        }
        let history = try await fixture.store.history(of: "plan", number: 1).dropFirst()
        #expect(history.count == 12)
        for entry in history {
            let k = try #require(entry.author.flatMap { Int($0.dropFirst()) })
            #expect(k % 2 == 0)
            #expect(entry.new?.x == Double(460 + k) && entry.new?.y == 410)
            #expect(entry.new?.note == .set("client \(k)"))
        }
        let last = try #require(history.last)
        let marker = try await fixture.store.marker(1, in: "plan")
        #expect(marker.position.x == last.new?.x && marker.note == (last.new?.note ?? .keep).applied(to: nil))
    }

    /// A refused move in a PATCH that also changes status and note changes nothing.
    @Test func refusedPatchChangesNothing() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        _ = try await fixture.store.addMarker(to: "plan", at: .init(x: 450, y: 400), note: "kept", author: nil)
        try await fixture.application().test(.router) { client in
            let response = try await client.send(.patch, "/drawings/plan/markers/1", json: #"{"x":5,"y":5,"status":"resolved","note":"lost"}"#)
            #expect(response.status.code == 422)
        }
        let marker = try await fixture.store.marker(1, in: "plan")
        #expect(marker.status == .open && marker.note == "kept" && marker.position == .init(x: 450, y: 400))
        #expect(try await fixture.store.history(of: "plan", number: 1).count == 1)
    }

    /// `\u0000` in a note or author is refused with 400 naming the field; nothing is stored.
    @Test(arguments: [
        (#"{"x":460,"y":410,"note":"a\u0000b"}"#, "$.note"),
        (#"{"x":460,"y":410,"author":"\u0000"}"#, "$.author"),
    ])
    func textWithNULIsRefused(body: String, field: String) async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.send(.post, "/drawings/plan/markers", json: body)
            #expect(response.status == .badRequest)
            #expect(response.errorMessage?.contains(field + ": ") == true, "\(response.text)")
        }
        #expect(try await fixture.store.drawing(named: "plan").markerCount == 0)
    }

    /// A name with `%00` and text after it does not find the drawing named by the text before it.
    @Test func nameCutAtNULFindsNothing() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let cut = try await client.get("/drawings/plan%00garbage")
            let nul = try await client.get("/drawings/plan%00")
            let plain = try await client.get("/drawings/plan")
            #expect(cut.status == .notFound && nul.status == .notFound && plain.status == .ok)
        }
    }

    /// The image file is replaced and then removed after the drawing was added: the service keeps
    /// serving the original bytes under their own SHA-256, and the review is drawn on them.
    @Test func imageServedIsTheOneAdded() async throws {
        let fixture = try await ServerFixture(extra: [])
        defer { fixture.remove() }
        let copy = fixture.folder.appendingPathComponent("copy.png")
        let original = try Data(contentsOf: URL(fileURLWithPath: ServerFixture.samplePlan))
        try original.write(to: copy)
        _ = try await fixture.store.addDrawing(NewDrawing(name: "copy", imagePath: copy.path), regions: [])
        try Data(original.prefix(100)).write(to: copy)
        try await fixture.application().test(.router) { client in
            let first = try await client.get("/drawings/copy/image")
            #expect(first.status == .ok && Data(buffer: first.body) == original)
            let etag = try #require(first.headers[.eTag])
            #expect(etag == "\"" + sha256sum(original) + "\"")
            try FileManager.default.removeItem(at: copy)
            let again = try await client.get("/drawings/copy/image")
            #expect(again.status == .ok && Data(buffer: again.body) == original && again.headers[.eTag] == etag)
            let review = try await client.get("/drawings/copy/review.png")
            #expect(review.status == .ok)
            #expect(pngSize(review.body).map { [$0.width, $0.height] } == [2400, 1600])
        }
    }
}
