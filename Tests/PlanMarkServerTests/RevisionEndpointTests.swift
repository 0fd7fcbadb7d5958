import Foundation
import Hummingbird
import PlanMarkGeometry
import PlanMarkStore
import Testing
@testable import PlanMarkServer

/// `GET /drawings/{name}/revisions`, the drawing's `revision` and the markers' `needsPlacement`.
@Suite struct RevisionEndpointTests {
    /// The sample sheet again as revision 2, shifted 500 px left: marker 1 at (450, 400) lands at (-50, 400),
    /// off the sheet, and needs placing again.
    @Test func revisionsAndNeedsPlacement() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        _ = try await fixture.store.addMarker(to: "plan", at: .init(x: 450, y: 400), note: nil, author: nil)
        _ = try await fixture.store.addMarker(to: "plan", at: .init(x: 1200, y: 1000), note: nil, author: nil)
        let alignment = try Alignment.fit([AlignmentPair(from: .init(x: 0, y: 0), to: .init(x: -500, y: 0)),
                                           AlignmentPair(from: .init(x: 100, y: 0), to: .init(x: -400, y: 0))])
        let outcome = try await fixture.store.reviseDrawing("plan", NewRevision(imagePath: ServerFixture.samplePlan, alignment: alignment),
                                                      dryRun: false, author: "ben")
        #expect(outcome.unplaced.map(\.reason) == ["outside-drawing"] && outcome.unplaced.map(\.number) == [1])
        try await fixture.application().test(.router) { client in
            let response = try await client.get("/drawings/plan/revisions")
            #expect(response.status == .ok)
            #expect(response.object["drawing"] as? String == "plan" && response.object["revision"] as? Int == 2)
            let revisions = response.object["revisions"] as? [[String: Any]] ?? []
            #expect(revisions.map { $0["number"] as? Int } == [1, 2])
            #expect(revisions[0]["transform"] is NSNull && revisions[0]["image"] == nil)
            #expect(revisions[1]["transform"] as? [String: Double] == ["a": 1, "b": 0, "c": -500, "d": 0, "e": 1, "f": 0])
            #expect(revisions[1]["author"] as? String == "ben" && revisions[1]["width"] as? Int == 2400)
            #expect(try await client.get("/drawings/plan").object["revision"] as? Int == 2)
            let marker = try await client.get("/drawings/plan/markers/1")
            #expect(marker.object["needsPlacement"] as? String == "outside-drawing")
            #expect(marker.object["x"] as? Double == -50)
            let all = try await client.get("/drawings/plan/markers")
            #expect(features(all).first?.properties["needsPlacement"] as? String == "outside-drawing")
            #expect(features(try await client.get("/drawings/plan/markers?needsPlacement=true")).count == 1)
            #expect(try await client.get("/drawings/nope/revisions").status == .notFound)
        }
    }
}
