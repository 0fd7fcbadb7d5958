import GRDB
import Dispatch
import Foundation
import PlanMarkFormats
import PlanMarkGeometry
import Testing
@testable import PlanMarkStore
@testable import PlanMarkSQLite

/// Offline capture: the same item (same uuid) reaching the store twice is stored once.
@Suite struct OfflineCaptureTests {
    static let uuid = MarkerUUID(text: "5F0C1A2B-3C4D-4E5F-8A6B-7C8D9E0F1A2B")!
    static let item = NewMarker(position: PixelPoint(x: 50, y: 60), uuid: uuid, status: .open, note: "crack", category: "Tiling",
                                priority: .high, assignee: "Ben", due: DueDate(text: "2026-12-01"),
                                capturedAt: CaptureTime(text: "2026-11-20T09:41:07.250+01:00"))

    @Test(arguments: StoreFixtures.kinds) func sameItemTwiceIsStoredOnce(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        let first = try await store.addMarker(to: "A", Self.item, author: "ana")
        #expect(first.created && first.marker.number == 1 && first.marker.uuid.text == "5f0c1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b")
        #expect(first.marker.capturedAt?.text == "2026-11-20T09:41:07.250+01:00" && first.marker.rooms == ["R1"])
        let before = try await StoreFixtures.counts(store)
        let again = try await store.addMarker(to: "A", Self.item, author: "ana")
        #expect(!again.created && again.marker == first.marker)
        #expect(try await StoreFixtures.counts(store) == before)
        // Still the same item after the server changed it: the retry is compared with what was created.
        _ = try await store.setStatus(.inProgress, ofMarker: 1, in: "A", author: "bo")
        #expect(try await store.addMarker(to: "A", Self.item, author: "ana").created == false)
    }

    @Test(arguments: StoreFixtures.kinds, [
        NewMarker(position: PixelPoint(x: 51, y: 60), uuid: uuid, note: "crack", category: "Tiling", priority: .high, assignee: "Ben",
                  due: DueDate(text: "2026-12-01"), capturedAt: CaptureTime(text: "2026-11-20T09:41:07.250+01:00")),
        NewMarker(position: PixelPoint(x: 50, y: 60), uuid: uuid, note: "crack!", category: "Tiling", priority: .high, assignee: "Ben",
                  due: DueDate(text: "2026-12-01"), capturedAt: CaptureTime(text: "2026-11-20T09:41:07.250+01:00")),
        NewMarker(position: PixelPoint(x: 50, y: 60), uuid: uuid, note: "crack", category: "Tiling", priority: .high, assignee: "Ben",
                  due: nil, capturedAt: CaptureTime(text: "2026-11-20T09:41:07.250+01:00")),
        NewMarker(position: PixelPoint(x: 50, y: 60), uuid: uuid, note: "crack", category: "Tiling", priority: .normal, assignee: "Ben",
                  due: DueDate(text: "2026-12-01"), capturedAt: CaptureTime(text: "2026-11-20T09:41:07.250+01:00")),
    ])
    func sameUUIDOtherContentIsAConflict(kind: StoreKind, other: NewMarker) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        _ = try await store.addMarker(to: "A", Self.item, author: "ana")
        let before = try await StoreFixtures.counts(store)
        await #expect(throws: StoreError.uuidConflict(uuid: Self.uuid, drawing: "A", number: 1)) { try await store.addMarker(to: "A", other, author: "ana") }
        #expect(try await StoreFixtures.counts(store) == before)
    }

    @Test(arguments: StoreFixtures.kinds) func uuidIsUniqueInTheStore(kind: StoreKind) async throws {
        let (store, folder) = try await StoreFixtures.storeWithDrawing(kind)
        _ = try await store.addDrawing(NewDrawing(name: "B", imagePath: try StoreFixtures.png(in: folder, name: "b.png")), regions: StoreFixtures.regions)
        _ = try await store.addMarker(to: "A", Self.item, author: nil)
        await #expect(throws: StoreError.uuidConflict(uuid: Self.uuid, drawing: "A", number: 1)) { try await store.addMarker(to: "B", Self.item, author: nil) }
    }

    /// Eight clients at once (each with its own connection to the store file) send one item: one marker.
    @Test(arguments: StoreFixtures.kinds) func eightClientsAtOnce(kind: StoreKind) async throws {
        let (store, folder) = try await StoreFixtures.storeWithDrawing(kind)
        _ = folder
        // Each client opens its own store first; then all send at once.
        var clients: [any AnnotationStore] = []
        for _ in 0..<8 { clients.append(try await StoreFixtures.reopen(store)) }
        let results = await withTaskGroup(of: Int.self) { group in
            for (client, own) in clients.enumerated() {
                group.addTask {
                    guard let creation = try? await own.addMarker(to: "A", Self.item, author: "client \(client)") else { return -1 }
                    return creation.created ? 1 : 0
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Array(results).filter { $0 == 1 }.count == 1)
        #expect(Array(results).filter { $0 == 0 }.count == 7)
        #expect(try await store.drawing(named: "A").markerCount == 1)
        #expect(try await store.history(of: "A", number: nil).count == 1)
    }

    /// Store-made uuids: version 8 (RFC 9562), the drawing's seed then the number, different per drawing,
    /// found again by `addMarker`/`import`, and a number not given yet refused.
    @Test(arguments: StoreFixtures.kinds) func madeUUIDs(kind: StoreKind) async throws {
        let (store, folder) = try await StoreFixtures.storeWithDrawing(kind)
        _ = try await store.addDrawing(NewDrawing(name: "B", imagePath: try StoreFixtures.png(in: folder, name: "b.png")), regions: [])
        var made: [String] = []
        for k in 0..<20 { await made.append(try store.addMarker(to: "A", at: PixelPoint(x: 20 + Double(k), y: 20), note: nil, author: nil).uuid.text) }
        var source = MarkerRowList((0..<300).map { MarkerRow(id: "r\($0)", line: $0 + 2, position: PixelPoint(x: 30, y: 30)) })
        _ = try await store.importMarkers(into: "A", from: &source, skipInvalid: false, author: nil)
        try await store.forEachMarker(in: "A", filter: MarkerFilter()) { marker in
            if marker.number > 20 { made.append(marker.uuid.text) }
            return true
        }
        let b = try await store.addMarker(to: "B", at: PixelPoint(x: 5, y: 5), note: nil, author: nil).uuid.text
        #expect(made.count == 320 && Set(made + [b]).count == 321)
        // xxxxxxxx-xxxx-8xxx-8nnn-nnnnnnnnnnnn: version 8, variant 10, the number (hexadecimal) last.
        for (index, text) in made.enumerated() {
            let chars = Array(text)
            #expect(chars[14] == "8" && chars[19] == "8" && MarkerUUID(text: text)?.text == text)
            #expect(Int(String(chars[20...]).replacingOccurrences(of: "-", with: ""), radix: 16) == index + 1)
            #expect(text.prefix(18) == made[0].prefix(18))
        }
        #expect(b.prefix(18) != made[0].prefix(18) && b.hasSuffix("-8000-000000000001"))
        // The same uuid again (marker 7 sent twice) is that marker; nothing is stored.
        let seven = try await store.marker(7, in: "A")
        let before = try await StoreFixtures.counts(store)
        let again = try await store.addMarker(to: "A", NewMarker(position: seven.position, uuid: seven.uuid), author: nil)
        #expect(!again.created && again.marker == seven)
        #expect(try await StoreFixtures.counts(store) == before)
        // A number the drawing has not given: refused; a removed marker's: a conflict.
        let future = MarkerUUID(text: String(made[0].prefix(19)) + "8000-000000000999")!
        await #expect(throws: StoreError.self) { try await store.addMarker(to: "A", NewMarker(position: seven.position, uuid: future), author: nil) }
        _ = try await store.removeMarker(7, in: "A", author: nil)
        await #expect(throws: StoreError.uuidConflict(uuid: seven.uuid, drawing: "A", number: 7)) {
            try await store.addMarker(to: "A", NewMarker(position: seven.position, uuid: seven.uuid), author: nil)
        }
        #expect(try await StoreFixtures.counts(store)[2] == before[2] - 1)
    }

    /// Nothing is stored for a store-made uuid: the column holds clients' uuids only.
    @Test(arguments: StoreFixtures.kinds) func madeUUIDsAreNotStored(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 20, y: 20), note: nil, author: nil)
        _ = try await store.addMarker(to: "A", Self.item, author: nil)
        _ = try await store.updateMarker(1, in: "A", MarkerChange(note: .set("changed")), author: nil)
        let stored = try await StoreFixtures.texts(store, "SELECT uuid FROM marker ORDER BY number")
        #expect(stored == [nil, "5f0c1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b"])
    }

    /// Importing one file twice stores nothing the second time; a uuid twice in one file is stored once.
    @Test(arguments: StoreFixtures.kinds) func importTwice(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        func rows() -> MarkerRowList {
            MarkerRowList([
                MarkerRow(id: "a", line: 2, position: PixelPoint(x: 20, y: 20), uuid: MarkerUUID(text: "00000000-0000-4000-8000-000000000001")),
                MarkerRow(id: "b", line: 3, position: PixelPoint(x: 30, y: 20), ref: "b", uuid: MarkerUUID(text: "00000000-0000-4000-8000-000000000002"),
                          status: "ready", category: "Paint", priority: "critical", assignee: "Ben", due: DueDate(text: "2027-01-31")),
                MarkerRow(id: "c", line: 4, position: PixelPoint(x: 40, y: 20)),
                MarkerRow(id: "a-again", line: 5, position: PixelPoint(x: 20, y: 20), uuid: MarkerUUID(text: "00000000-0000-4000-8000-000000000001")),
            ])
        }
        var first = rows()
        let one = try await store.importMarkers(into: "A", from: &first, skipInvalid: false, author: "bot")
        #expect(one.stored == 3 && one.alreadyStored == 1 && one.numbers == 1..<4 && one.rejected.isEmpty)
        let b = try await store.marker(2, in: "A")
        #expect(b.ref == "b" && b.status == .ready && b.category == "Paint" && b.priority == .critical && b.assignee == "Ben")
        #expect(b.due?.text == "2027-01-31" && b.uuid.text == "00000000-0000-4000-8000-000000000002")
        let before = try await StoreFixtures.counts(store)
        var second = rows()
        let two = try await store.importMarkers(into: "A", from: &second, skipInvalid: false, author: "bot")
        // The row without uuid (c) cannot be recognised: it is stored again.
        #expect(two.stored == 1 && two.alreadyStored == 3)
        #expect(try await StoreFixtures.counts(store)[2] == before[2] + 1)
    }

    /// Bad punch-item fields in a file are refused with the line named, before anything is stored.
    @Test(arguments: StoreFixtures.kinds) func importRefusesUnknownWords(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        let before = try await StoreFixtures.counts(store)
        var source = MarkerRowList([MarkerRow(id: "a", line: 7, position: PixelPoint(x: 20, y: 20), status: "done")])
        await #expect(throws: StoreError.invalidText(field: "line 7: status", problem: "\"done\" is not one of open, in-progress, ready, closed, void")) {
            try await store.importMarkers(into: "A", from: &source, skipInvalid: false, author: nil)
        }
        var priority = MarkerRowList([MarkerRow(id: "a", line: 3, position: PixelPoint(x: 20, y: 20), priority: "urgent")])
        await #expect(throws: StoreError.self) { try await store.importMarkers(into: "A", from: &priority, skipInvalid: false, author: nil) }
        #expect(try await StoreFixtures.counts(store) == before)
    }
}
