import Foundation
import GRDB
import PlanMarkFormats
import PlanMarkGeometry
import Testing
@testable import PlanMarkStore
@testable import PlanMarkSQLite

/// A store written by planmark 1.1.0 (schema v4, `Fixtures/store-v4.sqlite`, made as its README says)
/// upgrades in place to punch items. Expected values come from that binary's own listing (README).
@Suite struct PunchItemMigrationTests {
    static func upgradedCopy() throws -> SQLiteStore {
        let folder = try StoreFixtures.folder()
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/store-v4.sqlite")
        let path = folder.appendingPathComponent("store.sqlite").path
        try FileManager.default.copyItem(atPath: source.path, toPath: path)
        let before = try DatabaseQueue(path: path)
        #expect(try before.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") }
            == [StoreSchema.v1, StoreSchema.v2, StoreSchema.v3, StoreSchema.v4])
        try before.close()
        return try SQLiteStore(path: path, create: false)
    }

    @Test func resolvedBecomesClosedAndEverythingElseStays() async throws {
        let store = try Self.upgradedCopy()
        #expect(try await store.appliedMigrations().contains(StoreSchema.v5))
        var markers: [Int: Marker] = [:]
        try await store.forEachMarker(in: "Level 2", filter: MarkerFilter()) { markers[$0.number] = $0; return true }
        #expect(markers.keys.sorted() == Array(1...4) + Array(6...18))
        #expect(markers.values.filter { $0.status == .closed }.map(\.number).sorted() == [2, 3, 18])
        #expect(markers.values.filter { $0.status == .open }.count == 14)
        #expect(markers[2]?.note == #"paint, "two" coats"#)
        #expect(markers[6]?.position == PixelPoint(x: 1440, y: 410) && markers[6]?.rooms == [])
        #expect(markers[18]?.position == PixelPoint(x: 1200, y: 1000) && markers[18]?.rooms == ["2.05"] && markers[18]?.author == "ana")
        #expect(markers[9]?.rooms == ["2.01", "2.02", "2.10"])
        // New fields: defaults, and the store's own uuid each (version 8, the number in the last bits), all different.
        #expect(markers.values.allSatisfy { $0.priority == .normal && $0.category == nil && $0.assignee == nil && $0.due == nil })
        #expect(markers.values.allSatisfy { $0.ref == nil && $0.capturedAt == nil })
        let uuids = markers.values.map(\.uuid.text)
        #expect(Set(uuids).count == 17)
        #expect(uuids.allSatisfy { Array($0)[14] == "8" && "89ab".contains(Array($0)[19]) })
        #expect(markers[18]?.uuid.text.hasSuffix("-8000-000000000012") == true)
    }

    @Test func historyReadsInTheNewWords() async throws {
        let store = try Self.upgradedCopy()
        let all = try await store.history(of: "Level 2", number: nil)
        #expect(all.count == 10)
        #expect(all[0].action == .created && all[0].number == 1 && all[0].lastNumber == 17)
        let four = try await store.history(of: "Level 2", number: 4)
        #expect(four.map(\.action) == [.created, .resolved, .reopened])
        #expect(four[1].new == MarkerState(status: .closed) && four[2].old == MarkerState(status: .closed))
        // Imported marker 3, closed since: its values at creation are rebuilt.
        let three = try await store.history(of: "Level 2", number: 3)
        #expect(three[0].new?.x == 1300 && three[0].new?.y == 500 && three[0].new?.status == .open && three[0].new?.rooms == ["2.03"])
        // Removed marker 5 keeps its history.
        #expect(try await store.history(of: "Level 2", number: 5).last?.old == MarkerState(x: 1450, y: 400, status: .open, note: .clear, rooms: []))
        // The next number continues, and the workflow works on old markers.
        #expect(try await store.addMarker(to: "Level 2", at: PixelPoint(x: 1300, y: 520), note: nil, author: nil).number == 19)
        #expect(try await store.setStatus(.open, ofMarker: 18, in: "Level 2", author: nil).status == .open)
        await #expect(throws: StoreError.transitionRefused(drawing: "Level 2", number: 2, from: .closed, to: .ready)) {
            try await store.setStatus(.ready, ofMarker: 2, in: "Level 2", author: nil)
        }
    }
}
