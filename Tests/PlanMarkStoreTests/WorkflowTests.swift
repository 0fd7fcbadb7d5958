import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkTestSupport
import Testing
@testable import PlanMarkStore

/// The status workflow: every transition of the issue's table, allowed and refused.
@Suite struct WorkflowTests {
    /// The issue's table, written out by hand once for every test target (`WorkflowTable`).
    static let allowed = WorkflowTable.allowed
    static let names = WorkflowTable.statuses
    static let pairs = WorkflowTable.pairs

    /// A store with marker 1 brought to `status` from open (each first step is allowed from open).
    static func marker(in status: String, _ kind: StoreKind = .sqlite) async throws -> any AnnotationStore {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 50), note: nil, author: "ana")
        if status != "open" { _ = try await store.setStatus(MarkerStatus(rawValue: status)!, ofMarker: 1, in: "A", author: "ana") }
        return store
    }

    @Test(arguments: StoreFixtures.kinds, pairs)
    func transition(kind: StoreKind, _ arguments: (String, String)) async throws {
        let (from, to) = arguments
        let store = try await Self.marker(in: from, kind)
        let target = try #require(MarkerStatus(rawValue: to))
        let before = try await StoreFixtures.counts(store)
        if Self.allowed[from]!.contains(to) {
            let reason: String? = from == "ready" && to == "open" ? "tiles still loose" : nil
            let marker = try await store.setStatus(target, reason: reason, ofMarker: 1, in: "A", author: "bo")
            #expect(marker.status.rawValue == to)
            let entry = try #require(try await store.history(of: "A", number: 1).last)
            #expect(entry.old?.status?.rawValue == from && entry.new?.status?.rawValue == to && entry.author == "bo")
            #expect(entry.new?.reason == reason)
            let action: HistoryAction = to == "closed" ? .resolved : to == "open" ? .reopened : .status
            #expect(entry.action == action)
        } else {
            await #expect(throws: StoreError.transitionRefused(drawing: "A", number: 1, from: MarkerStatus(rawValue: from)!, to: target)) {
                try await store.setStatus(target, reason: "because", ofMarker: 1, in: "A", author: "bo")
            }
            #expect(try await StoreFixtures.counts(store) == before)
            #expect(try await store.marker(1, in: "A").status.rawValue == from)
            let message = StoreError.transitionRefused(drawing: "A", number: 1, from: MarkerStatus(rawValue: from)!, to: target).description
            #expect(message.contains("is \(from) and cannot become \(to)"))
        }
    }

    /// Ready work sent back to open needs a reason; a blank one is none.
    @Test(arguments: StoreFixtures.kinds, [nil, "", "   "] as [String?])
    func rejectingNeedsAReason(kind: StoreKind, reason: String?) async throws {
        let store = try await Self.marker(in: "ready", kind)
        let before = try await StoreFixtures.counts(store)
        await #expect(throws: StoreError.self) { try await store.setStatus(.open, reason: reason, ofMarker: 1, in: "A", author: "bo") }
        #expect(try await StoreFixtures.counts(store) == before)
        #expect(try await store.marker(1, in: "A").status == .ready)
    }

    /// `setStatus` refuses the status a marker has already; `updateMarker` takes it as no change.
    @Test(arguments: StoreFixtures.kinds, names)
    func sameStatus(kind: StoreKind, status: String) async throws {
        let store = try await Self.marker(in: status, kind)
        let target = MarkerStatus(rawValue: status)!
        await #expect(throws: StoreError.refused(.alreadyInStatus(drawing: "A", number: 1, status: target))) {
            try await store.setStatus(target, ofMarker: 1, in: "A", author: nil)
        }
        let before = try await StoreFixtures.counts(store)
        #expect(try await store.updateMarker(1, in: "A", MarkerChange(status: target), author: nil).status == target)
        #expect(try await StoreFixtures.counts(store) == before)
    }

    /// The legacy word `resolved` names closed.
    @Test func legacyResolved() async {
        #expect(MarkerStatus(text: "resolved") == .closed)
        #expect(MarkerStatus(text: "in-progress") == .inProgress)
        #expect(MarkerStatus(text: "inProgress") == nil && MarkerStatus(text: "Open") == nil)
    }

    /// Every field changes in one entry; a refused status leaves every other field of the change unapplied.
    @Test(arguments: StoreFixtures.kinds) func fieldsChangeTogetherOrNotAtAll(kind: StoreKind) async throws {
        let store = try await Self.marker(in: "closed", kind)
        let before = try await StoreFixtures.counts(store)
        let refused = MarkerChange(status: .ready, category: .set("Tiling"), priority: .high, assignee: .set("Ben"),
                                   due: .set(DueDate(text: "2026-12-01")!))
        await #expect(throws: StoreError.self) { try await store.updateMarker(1, in: "A", refused, author: "bo") }
        #expect(try await StoreFixtures.counts(store) == before)
        let marker = try await store.marker(1, in: "A")
        #expect(marker.category == nil && marker.priority == .normal && marker.assignee == nil && marker.due == nil)

        let change = MarkerChange(status: .open, category: .set("Tiling"), priority: .high, assignee: .set("Ben"),
                                  due: .set(DueDate(text: "2026-12-01")!))
        let changed = try await store.updateMarker(1, in: "A", change, author: "bo")
        #expect(changed.status == .open && changed.category == "Tiling" && changed.priority == .high)
        #expect(changed.assignee == "Ben" && changed.due?.text == "2026-12-01")
        let entry = try #require(try await store.history(of: "A", number: 1).last)
        #expect(entry.action == .reopened)
        #expect(entry.old?.jsonText == #"{"status":"closed","category":null,"priority":"normal","assignee":null,"due":null}"#)
        #expect(entry.new?.jsonText == #"{"status":"open","category":"Tiling","priority":"high","assignee":"Ben","due":"2026-12-01"}"#)
        // Clearing: `.some(nil)`.
        let cleared = try await store.updateMarker(1, in: "A", MarkerChange(category: .clear, assignee: .clear, due: .clear), author: "bo")
        #expect(cleared.category == nil && cleared.assignee == nil && cleared.due == nil)
        #expect(try await store.history(of: "A", number: 1).last?.action == .edited)
    }

    /// A category over 100 characters is refused; exactly 100 (counted as characters, not bytes) is kept.
    @Test(arguments: StoreFixtures.kinds) func categoryLength(kind: StoreKind) async throws {
        let store = try await Self.marker(in: "open", kind)
        let hundred = String(repeating: "é", count: 100)
        #expect(try await store.updateMarker(1, in: "A", MarkerChange(category: .set(hundred)), author: nil).category == hundred)
        await #expect(throws: StoreError.invalidText(field: "category", problem: "is 101 characters long; at most 100")) {
            try await store.updateMarker(1, in: "A", MarkerChange(category: .set(hundred + "x")), author: nil)
        }
    }

    /// `updateMarkers`: all listed markers or none.
    @Test(arguments: StoreFixtures.kinds) func bulkUpdateIsAllOrNone(kind: StoreKind) async throws {
        let store = try await Self.marker(in: "open", kind)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 60, y: 60), note: nil, author: nil)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 70, y: 60), note: nil, author: nil)
        _ = try await store.setStatus(.closed, ofMarker: 3, in: "A", author: nil)
        let before = try await StoreFixtures.counts(store)
        // 3 is closed: closed -> ready is refused, so 1 and 2 stay as they were.
        await #expect(throws: StoreError.transitionRefused(drawing: "A", number: 3, from: .closed, to: .ready)) {
            try await store.updateMarkers([1, 2, 3], in: "A", MarkerChange(status: .ready, assignee: .set("Ben")), author: nil)
        }
        await #expect(throws: StoreError.unknownMarker(drawing: "A", number: 9)) {
            try await store.updateMarkers([1, 9], in: "A", MarkerChange(assignee: .set("Ben")), author: nil)
        }
        #expect(try await StoreFixtures.counts(store) == before)
        for number in [1, 2, 3] { #expect(try await store.marker(number, in: "A").assignee == nil) }
        let updated = try await store.updateMarkers([1, 2], in: "A", MarkerChange(status: .ready, assignee: .set("Ben")), author: nil)
        #expect(updated.map(\.number) == [1, 2] && updated.allSatisfy { $0.status == .ready && $0.assignee == "Ben" })
    }
}
