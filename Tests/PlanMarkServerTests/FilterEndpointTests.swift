import Foundation
import Hummingbird
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore
import Testing
@testable import PlanMarkServer

/// The filters of `GET .../markers`, `.../summary` and `.../review.png`, each against an expectation
/// worked out by hand from six markers (rooms of the sample drawing by hand: 2.01 [200, 700] x [150, 650],
/// 2.02 [700, 1100] x [150, 650], 2.05 [950, 1250] x [800, 1250], 2.06 [1250, 1500] x [800, 1250],
/// 2.10 [200, 1800] x [650, 800]). Due dates are far in the past or the future, so "today" does not matter.
@Suite struct FilterEndpointTests {
    /// | n | at | room | status | category | priority | assignee | due | note |
    /// |---|---|---|---|---|---|---|---|---|
    /// | 1 | 450, 400 | 2.01 | open | Paint | high | Ana | 2020-01-01 (overdue) | crack in wall |
    /// | 2 | 900, 300 | 2.02 | ready | paint | normal | Bo | 2999-12-31 | scratch |
    /// | 3 | 1100, 1000 | 2.05 | in-progress | Electrical | critical | ana | 2020-06-01 (overdue) | - |
    /// | 4 | 1100, 1100 | 2.05 | closed | Electrical | low | - | 2020-01-01 (closed: not overdue) | Crack fixed |
    /// | 5 | 1400, 1000 | 2.06 | void | - | normal | Cy | - | dup |
    /// | 6 | 1300, 700 | 2.10 | open | - | normal | - | - | - |
    static func makeFixture() async throws -> ServerFixture {
        let fixture = try await ServerFixture()
        let rows: [NewMarker] = [
            NewMarker(position: PixelPoint(x: 450, y: 400), status: .open, note: "crack in wall", category: "Paint", priority: .high,
                      assignee: "Ana", due: DueDate(text: "2020-01-01")),
            NewMarker(position: PixelPoint(x: 900, y: 300), status: .ready, note: "scratch", category: "paint", priority: .normal,
                      assignee: "Bo", due: DueDate(text: "2999-12-31")),
            NewMarker(position: PixelPoint(x: 1100, y: 1000), status: .inProgress, category: "Electrical", priority: .critical,
                      assignee: "ana", due: DueDate(text: "2020-06-01")),
            NewMarker(position: PixelPoint(x: 1100, y: 1100), status: .closed, note: "Crack fixed", category: "Electrical", priority: .low,
                      due: DueDate(text: "2020-01-01")),
            NewMarker(position: PixelPoint(x: 1400, y: 1000), status: .void, note: "dup", assignee: "Cy"),
            NewMarker(position: PixelPoint(x: 1300, y: 700)),
        ]
        for row in rows { _ = try await fixture.store.addMarker(to: "plan", row, author: nil) }
        return fixture
    }

    @Test(arguments: [
        ("", [1, 2, 3, 4, 5, 6]),
        ("status=open,ready", [1, 2, 6]),
        ("status=resolved", [4]),
        ("status=in-progress,void", [3, 5]),
        ("category=paint", [1, 2]),
        ("category=PAINT&status=ready", [2]),
        ("assignee=ANA", [1, 3]),
        ("priority=high,critical", [1, 3]),
        ("priority=normal", [2, 5, 6]),
        ("room=2.05", [3, 4]),
        ("room=2.10", [6]),
        ("room=9.99", []),
        ("overdue=true", [1, 3]),
        ("overdue=false", [1, 2, 3, 4, 5, 6]),
        ("q=crack", [1, 4]),
        ("q=ELEC", [3, 4]),
        ("q=bo", [2]),
        ("status=open,in-progress&room=2.05", [3]),
        ("assignee=ana&overdue=true&room=2.05", [3]),
        ("status=open,ready&category=&assignee=&priority=&room=2.01&overdue=true&q=crack", [1]),
    ])
    func markersFilter(query: String, numbers: [Int]) async throws {
        let fixture = try await Self.makeFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.get("/drawings/plan/markers?" + query)
            #expect(response.status == .ok, "\(response.text)")
            #expect(features(response).map { $0.properties["number"] as? Int } == numbers, "\(query)")
            let summary = try await client.get("/drawings/plan/summary?" + query)
            #expect(summary.object["total"] as? Int == numbers.count, "\(query)")
        }
    }

    @Test(arguments: [
        ("status=done", "status:"), ("status=open,", "status:"), ("priority=urgent", "priority:"), ("overdue=maybe", "overdue:"),
        ("colour=red", "colour:"), ("zoom=3&q=x&sort=number", "sort:"),
    ])
    func badFilterIs400(query: String, prefix: String) async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            for path in ["/drawings/plan/markers", "/drawings/plan/summary", "/drawings/plan/review.png"] {
                if path.hasSuffix("summary") && query.hasPrefix("zoom") { continue }
                let response = try await client.get(path + "?" + query)
                #expect(response.status == .badRequest, "\(path)?\(query)")
                #expect(response.errorMessage?.hasPrefix(prefix) == true, "\(path)?\(query): \(response.errorMessage ?? "nil")")
            }
        }
    }

    /// Counts worked out from the table above.
    @Test func summaryCountsByHand() async throws {
        let fixture = try await Self.makeFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let all = try await client.get("/drawings/plan/summary")
            #expect(all.status == .ok)
            let object = all.object
            #expect(object["drawing"] as? String == "plan")
            #expect(object["filters"] is NSNull)
            #expect(object["total"] as? Int == 6)
            #expect(object["byStatus"] as? [String: Int] == ["open": 2, "in-progress": 1, "ready": 1, "closed": 1, "void": 1])
            #expect(object["byPriority"] as? [String: Int] == ["low": 1, "normal": 3, "high": 1, "critical": 1])
            #expect(object["byRoom"] as? [String: Int] == ["2.01": 1, "2.02": 1, "2.05": 2, "2.06": 1, "2.10": 1])
            #expect(object["withoutRoom"] as? Int == 0)
            #expect(object["byAssignee"] as? [String: Int] == ["Ana": 1, "Bo": 1, "ana": 1, "Cy": 1])
            #expect(object["unassigned"] as? Int == 2)
            #expect(object["overdue"] as? Int == 2)
            // Statuses in workflow order, whatever the counts.
            #expect(all.text.contains(#""byStatus":{"open":2,"in-progress":1,"ready":1,"closed":1,"void":1}"#))

            let kitchen = try await client.get("/drawings/plan/summary?room=2.05")
            #expect(kitchen.object["filters"] as? String == "room=2.05")
            #expect(kitchen.object["total"] as? Int == 2)
            #expect(kitchen.object["byStatus"] as? [String: Int] == ["open": 0, "in-progress": 1, "ready": 0, "closed": 1, "void": 0])
            #expect(kitchen.object["byRoom"] as? [String: Int] == ["2.05": 2])
            #expect(kitchen.object["overdue"] as? Int == 1)
            #expect(kitchen.object["unassigned"] as? Int == 1)
            #expect(try await client.get("/drawings/nope/summary").status == .notFound)
        }
    }

    /// The review image takes the same filters (and `status=all`). The sheet is 2400 x 1600 at scale 0.25, 600 x 400;
    /// a filter line or a legend is set in a margin beside or below it, so the image is then larger.
    @Test func reviewImageTakesTheFilters() async throws {
        let fixture = try await Self.makeFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            for query in ["status=all", "status=open,ready&room=2.01&overdue=true&q=crack", "assignee=ana&legend=true"] {
                let review = try await client.get("/drawings/plan/review.png?scale=0.25&" + query)
                #expect(review.status == .ok, "\(query): \(review.text.prefix(200))")
                let size = try #require(pngSize(review.body))
                if query == "status=all" {
                    #expect(size == (600, 400))
                } else {
                    #expect(size.width >= 600 && size.height >= 400 && (size.width > 600 || size.height > 400), "\(query): \(size)")
                }
            }
            // The same markers with and without a filter line: every status named is a filter (the legend
            // says so), status=all is none; the images differ by that line only.
            let named = try await client.get("/drawings/plan/review.png?scale=0.25&status=open,in-progress,ready,closed,void")
            let all = try await client.get("/drawings/plan/review.png?scale=0.25&status=all")
            let none = try await client.get("/drawings/plan/review.png?scale=0.25")
            #expect(all.body == none.body)
            #expect(named.body != all.body)
        }
    }

    /// `around` names a marker the filter leaves out: 404, as for a marker that does not exist.
    @Test func reviewAroundAFilteredOutMarkerIs404() async throws {
        let fixture = try await Self.makeFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            #expect(try await client.get("/drawings/plan/review.png?around=3&room=2.05").status == .ok)
            let response = try await client.get("/drawings/plan/review.png?around=1&room=2.05")
            #expect(response.status == .notFound)
            #expect(response.errorCode == "unknown-marker")
        }
    }
}
