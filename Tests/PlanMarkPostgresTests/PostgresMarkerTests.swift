import Dispatch
import NIOConcurrencyHelpers
import PlanMarkFormats
import PlanMarkGeometry
@testable import PlanMarkPostgres
import PlanMarkStore
import PlanMarkStoreTestSupport
import Testing

/// Markers, history and attachments in the PostgreSQL store: what only it can get wrong (numbers given by several
/// servers at once, paging through a large drawing, shared attachment bytes). The store's behaviour tests cover the rest.
@Suite(.enabled(if: TestDatabases.required, "no PostgreSQL test cluster (PLANMARK_TEST_POSTGRES) and not CI"))
struct PostgresMarkerTests {
    /// A 400 x 300 drawing "A": allowed area 10...390 x 10...290, room R1 50...150 x 50...150.
    static func storeWithDrawing(_ url: PostgresURL? = nil, name: String = "A", maximumConnections: Int = 4) async throws -> (PostgresStore, PostgresURL) {
        let url = try url ?? TestDatabases.fresh()
        let store = try await PostgresStore(url: url, create: true, maximumConnections: maximumConnections)
        let allowed = try Region(id: "A", kind: .allowed, coordinates: [[[PixelPoint(x: 10, y: 10), PixelPoint(x: 390, y: 10),
                                                                         PixelPoint(x: 390, y: 290), PixelPoint(x: 10, y: 290)]]])
        let room = try Region(id: "R1", kind: .room, coordinates: [[[PixelPoint(x: 50, y: 50), PixelPoint(x: 150, y: 50),
                                                                    PixelPoint(x: 150, y: 150), PixelPoint(x: 50, y: 150)]]])
        var new = NewDrawing(name: name, imagePath: "/nowhere/\(name).png")
        new.imageBytes = PostgresDrawingTests.png
        _ = try await store.addDrawing(new, regions: [allowed, room])
        return (store, url)
    }

    static let uuid = MarkerUUID(text: "5F0C1A2B-3C4D-4E5F-8A6B-7C8D9E0F1A2B")!

    /// A drawing's history read in pages of two entries (`forEachHistoryEntry(in:pageSize:)`): every entry once, in
    /// order, across page ends, and a stop in the middle of a page ends the reading.
    @Test func historyIsReadInPages() async throws {
        let (store, _) = try await Self.storeWithDrawing()
        for index in 0..<5 { _ = try await store.addMarker(to: "A", NewMarker(position: PixelPoint(x: 20 + Double(index), y: 200)), author: nil) }
        var numbers: [Int] = []
        try await store.forEachHistoryEntry(in: "A", pageSize: 2) { numbers.append($0.number); return true }
        #expect(numbers == [1, 2, 3, 4, 5])
        numbers = []
        try await store.forEachHistoryEntry(in: "A", pageSize: 2) { numbers.append($0.number); return $0.number < 3 }
        #expect(numbers == [1, 2, 3])
    }

    /// Four servers (four stores, each its own pool) add 50 markers each at once: the numbers are exactly 1...200.
    @Test func numbersAreContiguousUnderConcurrentServers() async throws {
        let (first, url) = try await Self.storeWithDrawing()
        var stores = [first]
        for _ in 1..<4 { await stores.append(try PostgresStore(url: url, create: false, maximumConnections: 4)) }
        let numbers = NIOLockedValueBox<[Int]>([])
        let failures = NIOLockedValueBox<[String]>([])
        let servers = stores
        // Eight at a time, two to a server (the threaded test before it ran one a core): more would queue in the pools, whose
        // wait for a connection is bounded (`connectTimeout`), and the test is about numbering, not queueing.
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                if index >= 8 { await group.next() }
                group.addTask {
                    do {
                        let made = try await servers[index % 4].addMarker(to: "A", NewMarker(position: PixelPoint(x: 20 + Double(index), y: 200)),
                                                                          author: "s\(index % 4)")
                        numbers.withLockedValue { $0.append(made.marker.number) }
                    } catch {
                        failures.withLockedValue { $0.append("\(error)") }
                    }
                }
            }
        }
        #expect(failures.withLockedValue { $0 } == [])
        #expect(numbers.withLockedValue { $0 }.sorted() == Array(1...200))
        #expect(try await first.drawingRecord(named: "A").nextNumber == 201)
        let history = try await first.history(of: "A", number: nil)
        #expect(history.count == 200 && history.allSatisfy { $0.action == .created })
        #expect(Set(history.map(\.number)) == Set(1...200))
    }

    @Test func theSameItemTwiceIsStoredOnceAndOtherContentIsAConflict() async throws {
        let (store, url) = try await Self.storeWithDrawing()
        _ = try await Self.storeWithDrawing(url, name: "B")
        let item = NewMarker(position: PixelPoint(x: 60, y: 70), uuid: Self.uuid, note: "crack", category: "Tiling", priority: .high,
                             due: DueDate(text: "2026-12-01"))
        let first = try await store.addMarker(to: "A", item, author: "ana")
        #expect(first.created && first.marker.number == 1 && first.marker.rooms == ["R1"])
        #expect(first.marker.uuid.text == "5f0c1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b")
        let again = try await store.addMarker(to: "A", item, author: "ana")
        #expect(!again.created && again.marker == first.marker)
        // Changed since by the server: the retry is compared with what was created.
        _ = try await store.setNote("crack, wider", ofMarker: 1, in: "A", author: "bo")
        #expect(try await store.addMarker(to: "A", item, author: "ana").created == false)
        var other = item
        other.note = "crack!"
        await #expect(throws: StoreError.uuidConflict(uuid: Self.uuid, drawing: "A", number: 1)) { try await store.addMarker(to: "A", other, author: nil) }
        await #expect(throws: StoreError.uuidConflict(uuid: Self.uuid, drawing: "A", number: 1)) { try await store.addMarker(to: "B", item, author: nil) }
        // Nothing more was stored, and no number was used up.
        #expect(try await store.history(of: "A", number: nil).map(\.action) == [.created, .edited])
        #expect(try await store.drawingRecord(named: "A").nextNumber == 2)
        #expect(try await store.drawingRecord(named: "B").nextNumber == 1)
        // A uuid of the store's own form, re-sent for the marker it names, is that marker.
        let plain = try await store.addMarker(to: "A", NewMarker(position: PixelPoint(x: 300, y: 200)), author: nil).marker
        #expect(plain.number == 2)
        let resent = try await store.addMarker(to: "A", NewMarker(position: PixelPoint(x: 300, y: 200), uuid: plain.uuid), author: nil)
        #expect(!resent.created && resent.marker == plain)
    }

    @Test func aMoveIsOneHistoryEntryWithOldAndNewPositionAndRooms() async throws {
        let (store, _) = try await Self.storeWithDrawing()
        let marker = try await store.addMarker(to: "A", NewMarker(position: PixelPoint(x: 100, y: 100)), author: "ana").marker
        let before = try await store.markersVersion(of: "A")
        await #expect(throws: StoreError.self) { try await store.moveMarker(1, in: "A", to: PixelPoint(x: 5, y: 5), author: "bo") }
        #expect(try await store.markersVersion(of: "A") == before)
        let moved = try await store.moveMarker(1, in: "A", to: PixelPoint(x: 200, y: 150), author: "bo")
        #expect(moved.position == PixelPoint(x: 200, y: 150) && moved.rooms == [] && moved.updatedAt >= marker.createdAt)
        #expect(try await store.marker(1, in: "A") == moved)
        let history = try await store.history(of: "A", number: 1)
        #expect(history.map(\.action) == [.created, .moved])
        #expect(history[1].author == "bo")
        #expect(history[1].old == MarkerState(x: 100, y: 100, rooms: ["R1"]))
        #expect(history[1].new == MarkerState(x: 200, y: 150, rooms: []))
        #expect(history[0].new == marker.state && history[0].old == nil)
        let after = try await store.markersVersion(of: "A")
        #expect(after != before && after.drawingID == before.drawingID && after.latestHistoryID > before.latestHistoryID)
        // Moving to where it is changes nothing.
        _ = try await store.moveMarker(1, in: "A", to: PixelPoint(x: 200, y: 150), author: "bo")
        #expect(try await store.markersVersion(of: "A") == after)
        await #expect(throws: StoreError.unknownMarker(drawing: "A", number: 2)) { try await store.history(of: "A", number: 2) }
    }

    /// 25,000 markers (more than two pages) written straight into the tables: listed once each, by number.
    @Test func forEachMarkerPagesThroughALargeDrawing() async throws {
        let (store, url) = try await Self.storeWithDrawing()
        let id = try await store.drawingRecord(named: "A").id!
        try url.execute([
            """
            INSERT INTO marker (drawingId, number, x, y, status, createdAt)
            SELECT \(id), n, 20 + n % 300, 200, n % 5, 1000 FROM generate_series(1, 25000) AS n
            """,
            "UPDATE drawing SET nextNumber = 25001 WHERE id = \(id)",
        ])
        var numbers: [Int] = []
        try await store.forEachMarker(in: "A", filter: MarkerFilter()) { marker in
            numbers.append(marker.number)
            return true
        }
        #expect(numbers == Array(1...25000))
        // Status 3 is closed: numbers 3, 8, 13 ... 24998.
        var closed: [Int] = []
        try await store.forEachMarker(in: "A", filter: MarkerFilter(statuses: [.closed])) { marker in
            closed.append(marker.number)
            return marker.status == .closed
        }
        #expect(closed == Array(stride(from: 3, through: 24998, by: 5)))
        var seen = 0
        try await store.forEachMarker(in: "A", filter: MarkerFilter()) { _ in
            seen += 1
            return seen < 12_345
        }
        #expect(seen == 12_345)
        let summary = try await store.summary(of: "A", filter: MarkerFilter())
        #expect(summary.total == 25000 && summary.byStatus[.void] == 5000)
        // The store still answers on the same pool after a listing stopped early.
        #expect(try await store.marker(25000, in: "A").position == PixelPoint(x: 120, y: 200))  // 20 + 25000 % 300
    }

    @Test func attachmentBytesAreSharedAndGoWithTheirLastUse() async throws {
        let (store, _) = try await Self.storeWithDrawing()
        _ = try await store.addMarker(to: "A", NewMarker(position: PixelPoint(x: 100, y: 100)), author: nil)
        _ = try await store.addMarker(to: "A", NewMarker(position: PixelPoint(x: 300, y: 200)), author: nil)
        let photo = PostgresDrawingTests.png
        let one = try await store.attach(photo, declaredType: .png, caption: "crack", toMarker: 1, in: "A", author: "ana")
        let two = try await store.attach(photo, declaredType: nil, caption: nil, toMarker: 2, in: "A", author: "ana")
        #expect(one.id != two.id && one.sha256 == two.sha256 && one.size == photo.count && one.type == .png)
        #expect(try await store.attachments(ofMarker: 1, in: "A") == [one])
        await #expect(throws: StoreError.self) { try await store.attach(photo, declaredType: .pdf, caption: nil, toMarker: 1, in: "A", author: nil) }
        #expect(try await store.detach(one.id, fromMarker: 1, in: "A", author: "bo") == one)
        await #expect(throws: StoreError.unknownAttachment(drawing: "A", number: 1, id: one.id)) { try await store.attachment(one.id, ofMarker: 1, in: "A") }
        // The bytes stay for marker 2's attachment.
        let (stored, bytes) = try await store.attachment(two.id, ofMarker: 2, in: "A")
        #expect(stored == two && bytes == photo)
        #expect(try await store.history(of: "A", number: 1).map(\.action) == [.created, .attached, .detached])
        // The history keeps the attachment as the SQLite store does (id, digest, size, type, caption: its JSON).
        #expect(try await store.history(of: "A", number: 1)[1].new?.jsonText == MarkerState(attachment: one).jsonText)
        #expect(try await store.history(of: "A", number: 1)[1].new?.attachment?.id == one.id)
        // Removing marker 2 removes its attachment; its number is not given again.
        let removed = try await store.removeMarker(2, in: "A", author: "bo")
        #expect(removed.number == 2)
        await #expect(throws: StoreError.unknownMarker(drawing: "A", number: 2)) { try await store.attachments(ofMarker: 2, in: "A") }
        #expect(try await store.history(of: "A", number: 2).map(\.action) == [.created, .attached, .removed])
        #expect(try await store.addMarker(to: "A", NewMarker(position: PixelPoint(x: 300, y: 200)), author: nil).marker.number == 3)
        // And the same bytes can be attached again (stored anew).
        let three = try await store.attach(photo, declaredType: nil, caption: nil, toMarker: 3, in: "A", author: nil)
        #expect(try await store.attachment(three.id, ofMarker: 3, in: "A").1 == photo)
    }
}
