import Foundation
import Hummingbird
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore
import PlanMarkTestSupport
import Testing
@testable import PlanMarkServer

/// Punch items through the API: every field on POST and PATCH, idempotent creation by uuid, the status
/// workflow, drawing rename and removal. Rooms of the sample drawing by hand: 2.01 is [200, 700] x [150, 650],
/// 2.02 [700, 1100] x [150, 650], 2.05 [950, 1250] x [800, 1250], 2.06 [1250, 1500] x [800, 1250],
/// 2.10 [200, 1800] x [650, 800].
@Suite struct PunchItemEndpointTests {
    static let uuid = "0F8FAD5B-D9CB-469F-A165-70867728950E"
    static let fullBody = """
        {"x":450,"y":400,"note":"crack","author":"ana","uuid":"\(uuid)","status":"in-progress","category":"Drywall",\
        "priority":"high","assignee":"Bo","due":"2026-12-01","capturedAt":"2026-11-20T09:41:07.250+01:00"}
        """

    @Test func postWithEveryFieldStoresEachOne() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.send(.post, "/drawings/plan/markers", json: Self.fullBody)
            #expect(response.status == .created, "\(response.text)")
            #expect(response.object["number"] as? Int == 1)
            #expect(response.object["status"] as? String == "in-progress")
            #expect(response.headers[.location] == "/drawings/plan/markers/1")
            // The answer carries every field (the uuid in lower case, capturedAt as sent).
            #expect(response.object["uuid"] as? String == "0f8fad5b-d9cb-469f-a165-70867728950e")
            #expect(response.object["category"] as? String == "Drywall")
            #expect(response.object["priority"] as? String == "high")
            #expect(response.object["assignee"] as? String == "Bo")
            #expect(response.object["due"] as? String == "2026-12-01")
            #expect(response.object["capturedAt"] as? String == "2026-11-20T09:41:07.250+01:00")
            #expect(response.object["note"] as? String == "crack")
        }
        let marker = try await fixture.store.marker(1, in: "plan")
        #expect(marker.uuid.text == "0f8fad5b-d9cb-469f-a165-70867728950e")
        #expect(marker.status == .inProgress)
        #expect(marker.note == "crack")
        #expect(marker.author == "ana")
        #expect(marker.category == "Drywall")
        #expect(marker.priority == .high)
        #expect(marker.assignee == "Bo")
        #expect(marker.due == DueDate(year: 2026, month: 12, day: 1))
        #expect(marker.capturedAt?.text == "2026-11-20T09:41:07.250+01:00")
        #expect(marker.rooms == ["2.01"])
    }

    /// Offline capture: the same POST twice is one marker (200 the second time, same number, no history
    /// entry); the same uuid with other content is 409 and stores nothing.
    @Test func samePostTwiceIsOneMarker() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let first = try await client.send(.post, "/drawings/plan/markers", json: Self.fullBody)
            #expect(first.status == .created)
            let again = try await client.send(.post, "/drawings/plan/markers", json: Self.fullBody)
            #expect(again.status == .ok, "\(again.text)")
            #expect(again.object["number"] as? Int == 1)
            #expect(again.headers[.location] == "/drawings/plan/markers/1")
            let other = try await client.send(.post, "/drawings/plan/markers", json: Self.fullBody.replacingOccurrences(of: "crack", with: "dent"))
            #expect(other.status == .conflict)
            #expect(other.errorCode == "uuid-conflict")
            let moved = try await client.send(.post, "/drawings/plan/markers", json: Self.fullBody.replacingOccurrences(of: "\"x\":450", with: "\"x\":451"))
            #expect(moved.status == .conflict)
        }
        #expect(try await fixture.store.drawing(named: "plan").markerCount == 1)
        #expect(try await fixture.store.drawing(named: "plan").drawing.nextNumber == 2)
        #expect(try await fixture.store.history(of: "plan", number: 1).map(\.action) == [.created])
    }

    /// 8 clients on their own connections send one item (one uuid) at once: exactly one marker; one 201,
    /// seven 200, all with the same number.
    @Test(.hangGuard)
    func eightClientsAtOnceWithOneUUIDStoreOneMarker() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let body = Self.fullBody
        let answers = try await fixture.application().test(.live) { client in
            let port = try #require(client.port)
            return try await withThrowingTaskGroup(of: (Int, Int).self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await TestClient.withClient(host: "127.0.0.1", port: port) { connection in
                            let response = try await connection.execute(TestClient.Request(
                                "/drawings/plan/markers", method: .post, authority: "127.0.0.1:\(port)",
                                headers: [.contentType: "application/json"], body: ByteBuffer(string: body)))
                            let object = try response.body.flatMap { try JSONSerialization.jsonObject(with: Data($0.readableBytesView)) as? [String: Any] }
                            return (Int(response.status.code), object?["number"] as? Int ?? -1)
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(answers.map(\.0).sorted() == [200, 200, 200, 200, 200, 200, 200, 201])
        #expect(answers.allSatisfy { $0.1 == 1 })
        #expect(try await fixture.store.drawing(named: "plan").markerCount == 1)
        #expect(try await fixture.store.history(of: "plan", number: 1).count == 1)
    }

    @Test(arguments: [
        (#"{"x":450,"y":400,"uuid":"not-a-uuid"}"#, "$.uuid:"),
        (#"{"x":450,"y":400,"uuid":"{0f8fad5b-d9cb-469f-a165-70867728950e}"}"#, "$.uuid:"),
        (#"{"x":450,"y":400,"status":"done"}"#, "$.status:"),
        (#"{"x":450,"y":400,"category":"\#(String(repeating: "c", count: 101))"}"#, "$.category:"),
        (#"{"x":450,"y":400,"priority":"urgent"}"#, "$.priority:"),
        (#"{"x":450,"y":400,"priority":3}"#, "$.priority:"),
        (#"{"x":450,"y":400,"assignee":5}"#, "$.assignee:"),
        (#"{"x":450,"y":400,"due":"2026-02-30"}"#, "$.due:"),
        (#"{"x":450,"y":400,"due":"1 Dec 2026"}"#, "$.due:"),
        (#"{"x":450,"y":400,"capturedAt":"2026-11-20T09:41:07"}"#, "$.capturedAt:"),
        (#"{"x":450,"y":400,"capturedAt":"2026-11-20 09:41:07Z"}"#, "$.capturedAt:"),
        (#"{"x":450,"y":400,"reason":"why"}"#, "$.reason:"),
        (#"{"x":450,"y":400,"colour":"red"}"#, "$.colour:"),
    ])
    func badFieldIs400NamingItsPath(body: String, prefix: String) async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.send(.post, "/drawings/plan/markers", json: body)
            #expect(response.status == .badRequest)
            #expect(response.errorMessage?.hasPrefix(prefix) == true, "\(response.errorMessage ?? "nil")")
        }
        #expect(try await fixture.store.drawing(named: "plan").drawing.nextNumber == 1)
    }

    @Test func aCategoryOfExactly100CharactersIsTaken() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let category = String(repeating: "é", count: 100)
            let response = try await client.send(.post, "/drawings/plan/markers", json: #"{"x":450,"y":400,"category":"\#(category)"}"#)
            #expect(response.status == .created)
        }
        #expect(try await fixture.store.marker(1, in: "plan").category?.count == 100)
    }

    // MARK: Workflow

    /// The issue's table, written out by hand once for every test target (`WorkflowTable`).
    static let allowed = WorkflowTable.allowed
    static let statuses = WorkflowTable.statuses

    /// Every ordered pair of different statuses through PATCH: allowed ones answer 200 and change the
    /// status; the others 409 `transition-refused` naming both statuses, and change nothing.
    @Test(arguments: statuses)
    func everyTransitionFrom(_ from: String) async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let start = try #require(MarkerStatus(rawValue: from))
        for (index, _) in Self.statuses.enumerated() {
            _ = try await fixture.store.addMarker(to: "plan", NewMarker(position: PixelPoint(x: 300 + Double(index) * 10, y: 400), status: start), author: nil)
        }
        let store = fixture.store
        try await fixture.application().test(.router) { client in
            for (index, to) in Self.statuses.enumerated() where to != from {
                let number = index + 1
                let response = try await client.send(.patch, "/drawings/plan/markers/\(number)", json: #"{"status":"\#(to)","reason":"not finished"}"#)
                if Self.allowed[from]!.contains(to) {
                    #expect(response.status == .ok, "\(from) -> \(to): \(response.text)")
                    #expect(response.object["status"] as? String == to)
                } else {
                    #expect(response.status == .conflict, "\(from) -> \(to): \(response.text)")
                    #expect(response.errorCode == "transition-refused")
                    let message = response.errorMessage ?? ""
                    #expect(message.contains("is \(from)") && message.contains("cannot become \(to)"), "\(message)")
                    #expect(try await store.marker(number, in: "plan").status == start)
                }
            }
        }
    }

    /// Ready back to open rejects the work: refused without a reason, kept in the history with one.
    @Test func readyToOpenNeedsAReason() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        _ = try await fixture.store.addMarker(to: "plan", NewMarker(position: PixelPoint(x: 450, y: 400), status: .ready), author: nil)
        let store = fixture.store
        try await fixture.application().test(.router) { client in
            let refused = try await client.send(.patch, "/drawings/plan/markers/1", json: #"{"status":"open"}"#)
            #expect(refused.status == .conflict)
            #expect(try await store.marker(1, in: "plan").status == .ready)
            let rejected = try await client.send(.patch, "/drawings/plan/markers/1", json: #"{"status":"open","reason":"paint still wet","author":"insp"}"#)
            #expect(rejected.status == .ok)
            #expect(rejected.object["status"] as? String == "open")
            let history = try await client.get("/drawings/plan/markers/1/history")
            let last = (history.object["history"] as? [[String: Any]])?.last
            #expect(last?["author"] as? String == "insp")
            #expect((last?["new"] as? [String: Any])?["reason"] as? String == "paint still wet")
            #expect((last?["old"] as? [String: Any])?["status"] as? String == "ready")
        }
    }

    /// One PATCH with every field is one store change with one history entry; null clears; a PATCH whose
    /// position is refused changes none of its other fields either.
    @Test func patchWithEveryFieldIsAllOrNothing() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        _ = try await fixture.store.addMarker(to: "plan", at: PixelPoint(x: 450, y: 400), note: nil, author: nil)
        let store = fixture.store
        try await fixture.application().test(.router) { client in
            let all = #"{"x":900,"y":300,"status":"in-progress","note":"n","category":"Paint","priority":"critical","assignee":"Cy","due":"2027-01-31","author":"pm"}"#
            let response = try await client.send(.patch, "/drawings/plan/markers/1", json: all)
            #expect(response.status == .ok, "\(response.text)")
            #expect(response.object["rooms"] as? [String] == ["2.02"])
            var marker = try await store.marker(1, in: "plan")
            #expect(marker.position == PixelPoint(x: 900, y: 300))
            #expect(marker.status == .inProgress)
            #expect(marker.note == "n" && marker.category == "Paint" && marker.priority == .critical && marker.assignee == "Cy")
            #expect(marker.due == DueDate(year: 2027, month: 1, day: 31))
            #expect(try await store.history(of: "plan", number: 1).count == 2)

            // Refused position: the status, category and due given with it are not applied.
            let refused = try await client.send(.patch, "/drawings/plan/markers/1",
                                                json: #"{"x":800,"y":900,"status":"ready","category":"X","due":"2028-01-01"}"#)
            #expect(refused.status == .unprocessableContent)
            #expect(try await store.marker(1, in: "plan") == marker)
            #expect(try await store.history(of: "plan", number: 1).count == 2)

            let cleared = try await client.send(.patch, "/drawings/plan/markers/1", json: #"{"category":null,"assignee":null,"due":null,"note":null}"#)
            #expect(cleared.status == .ok)
            marker = try await store.marker(1, in: "plan")
            #expect(marker.category == nil && marker.assignee == nil && marker.due == nil && marker.note == nil)
            #expect(marker.priority == .critical)

            for (body, prefix) in [(#"{"priority":null}"#, "$.priority:"), (#"{"due":"2027-13-01"}"#, "$.due:"),
                                   (#"{"reason":"x"}"#, "$.reason:"), (#"{"uuid":"\#(Self.uuid)"}"#, "$.uuid:"), ("{}", "$:")] {
                let bad = try await client.send(.patch, "/drawings/plan/markers/1", json: body)
                #expect(bad.status == .badRequest, "\(body)")
                #expect(bad.errorMessage?.hasPrefix(prefix) == true, "\(body): \(bad.errorMessage ?? "nil")")
            }
        }
    }

    /// A refused transition in a PATCH that also changes other fields changes nothing.
    @Test func refusedTransitionChangesNoOtherField() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        _ = try await fixture.store.addMarker(to: "plan", NewMarker(position: PixelPoint(x: 450, y: 400), status: .void, note: "dup"), author: nil)
        try await fixture.application().test(.router) { client in
            let response = try await client.send(.patch, "/drawings/plan/markers/1", json: #"{"status":"ready","note":"changed","x":900,"y":300}"#)
            #expect(response.status == .conflict)
            #expect(response.errorMessage?.contains("void") == true && response.errorMessage?.contains("ready") == true)
        }
        let marker = try await fixture.store.marker(1, in: "plan")
        #expect(marker.note == "dup" && marker.position == PixelPoint(x: 450, y: 400) && marker.status == .void)
    }

    // MARK: Drawings

    @Test func renameAndRemoveDrawings() async throws {
        let fixture = try await ServerFixture(extra: [NewDrawing(name: "other", imagePath: ServerFixture.samplePlan)])
        defer { fixture.remove() }
        _ = try await fixture.store.addMarker(to: "plan", at: PixelPoint(x: 450, y: 400), note: "kept", author: nil)
        try await fixture.application().test(.router) { client in
            let renamed = try await client.send(.patch, "/drawings/plan", json: #"{"name":"Level 2"}"#)
            #expect(renamed.status == .ok, "\(renamed.text)")
            #expect(renamed.object["name"] as? String == "Level 2")
            #expect(renamed.headers[.location] == "/drawings/Level%202")
            #expect(try await client.get("/drawings/plan").status == .notFound)
            #expect(try await client.get("/drawings/Level%202/markers/1").object["note"] as? String == "kept")
            let taken = try await client.send(.patch, "/drawings/Level%202", json: #"{"name":"other"}"#)
            #expect(taken.status == .conflict)
            #expect(try await client.send(.patch, "/drawings/Level%202", json: #"{"title":"x"}"#).status == .badRequest)
            #expect(try await client.send(.patch, "/drawings/nope", json: #"{"name":"x"}"#).status == .notFound)

            let refused = try await client.execute(uri: "/drawings/Level%202", method: .delete)
            #expect(refused.status == .conflict)
            #expect(try await client.get("/drawings/Level%202").status == .ok)
            let forced = try await client.execute(uri: "/drawings/Level%202?force=true", method: .delete)
            #expect(forced.status == .ok, "\(forced.text)")
            #expect(forced.object["removed"] as? Bool == true)
            #expect(forced.object["markers"] as? Int == 1)
            #expect(try await client.get("/drawings/Level%202").status == .notFound)
            let empty = try await client.execute(uri: "/drawings/other", method: .delete)
            #expect(empty.status == .ok)
            #expect(empty.object["markers"] as? Int == 0)
            #expect(try await client.execute(uri: "/drawings/other", method: .delete).status == .notFound)
        }
        #expect(try await fixture.store.drawings().isEmpty)
    }
}
