import PlanMarkFormats
import PlanMarkGeometry
import Testing
@testable import PlanMarkStore

/// Filters on a fixture drawing, each against the numbers worked out by hand from the table below.
@Suite struct FilterTests {
    /// number: (x, status, category, priority, assignee, due, note); y = 50 for all. R1 is x 10...200,
    /// R2 200...390 (x = 200 is on both).
    static let table: [(Double, MarkerStatus, String?, MarkerPriority, String?, String?, String?)] = [
        (50, .open, "Tiling", .high, "Ben", "2020-01-01", "Cracked tile"),      // 1: R1, overdue
        (100, .inProgress, "tiling", .normal, "ben", "2999-01-01", nil),        // 2: R1
        (200, .ready, "Paint", .low, "Cy", "2020-06-30", "scuff near door"),    // 3: R1+R2, overdue
        (300, .closed, "Paint", .critical, nil, "2020-01-01", "CRACK fixed"),   // 4: R2, closed: not overdue
        (350, .void, nil, .normal, "Ben", "2020-01-01", nil),                   // 5: R2, void: not overdue
        (360, .open, "Electrical", .critical, nil, nil, "socket"),              // 6: R2
    ]
    static let today = DueDate(text: "2026-11-23")!

    static func store(_ kind: StoreKind = .sqlite) async throws -> any AnnotationStore {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        for (x, status, category, priority, assignee, due, note) in table {
            _ = try await store.addMarker(to: "A", NewMarker(position: PixelPoint(x: x, y: 50), status: status, note: note, category: category,
                                                      priority: priority, assignee: assignee, due: due.flatMap(DueDate.init(text:))), author: nil)
        }
        return store
    }

    static func numbers(_ store: any AnnotationStore, _ filter: MarkerFilter) async throws -> [Int] {
        var filter = filter
        filter.today = today
        var numbers: [Int] = []
        try await store.forEachMarker(in: "A", filter: filter) { numbers.append($0.number); return true }
        return numbers
    }

    @Test(arguments: StoreFixtures.kinds) func eachFilter(kind: StoreKind) async throws {
        let store = try await Self.store(kind)
        #expect(try await Self.numbers(store, MarkerFilter()) == [1, 2, 3, 4, 5, 6])
        #expect(try await Self.numbers(store, MarkerFilter(statuses: [.open, .ready])) == [1, 3, 6])
        #expect(try await Self.numbers(store, MarkerFilter(category: "TILING")) == [1, 2])
        #expect(try await Self.numbers(store, MarkerFilter(assignee: "ben")) == [1, 2, 5])
        #expect(try await Self.numbers(store, MarkerFilter(priorities: [.critical])) == [4, 6])
        #expect(try await Self.numbers(store, MarkerFilter(room: "R1")) == [1, 2, 3])
        #expect(try await Self.numbers(store, MarkerFilter(room: "R2")) == [3, 4, 5, 6])
        #expect(try await Self.numbers(store, MarkerFilter(room: "R")) == [])
        #expect(try await Self.numbers(store, MarkerFilter(overdue: true)) == [1, 3])
        #expect(try await Self.numbers(store, MarkerFilter(search: "crack")) == [1, 4])
        #expect(try await Self.numbers(store, MarkerFilter(search: "PAINT")) == [3, 4])
        #expect(try await Self.numbers(store, MarkerFilter(search: "cy")) == [3])
        #expect(try await Self.numbers(store, MarkerFilter(statuses: [.open, .ready], assignee: "Ben", room: "R1", overdue: true)) == [1])
    }

    @Test(arguments: StoreFixtures.kinds) func summaryCounts(kind: StoreKind) async throws {
        let store = try await Self.store(kind)
        let summary = try await store.summary(of: "A", filter: MarkerFilter(today: Self.today))
        #expect(summary.total == 6 && summary.overdue == 2)
        #expect(summary.byStatus == [.open: 2, .inProgress: 1, .ready: 1, .closed: 1, .void: 1])
        #expect(summary.byPriority == [.low: 1, .normal: 2, .high: 1, .critical: 2])
        #expect(summary.byRoom == ["R1": 3, "R2": 4])
        #expect(summary.byAssignee == ["Ben": 2, "ben": 1, "Cy": 1] && summary.unassigned == 2 && summary.withoutRoom == 0)
        let open = try await store.summary(of: "A", filter: MarkerFilter(statuses: [.open], today: Self.today))
        #expect(open.total == 2 && open.byRoom == ["R1": 1, "R2": 1] && open.overdue == 1)
    }

    @Test func describedForTheLegend() async {
        #expect(MarkerFilter().summary == nil)
        let filter = MarkerFilter(statuses: [.ready, .open], assignee: "Ben", room: "2.05", overdue: true, search: "crack")
        #expect(filter.summary == "status=open,ready; assignee=Ben; room=2.05; overdue; search=crack")
    }
}
