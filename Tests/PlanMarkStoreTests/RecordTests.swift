import GRDB
import PlanMarkFormats
import PlanMarkGeometry
import Testing
@testable import PlanMarkStore
@testable import PlanMarkSQLite

/// Records survive a write and a read unchanged.
@Suite struct RecordTests {
    @Test func drawingRoundTrip() async throws {
        let (store, _) = try await StoreFixtures.sqliteStoreWithDrawing()
        var drawing = Drawing(name: "Ünïcode \"quoted\"", imagePath: "/a/b.png", imageSHA256: String(repeating: "f", count: 64),
                              width: 7, height: 9, zoom: -2.5, crs: .flutter, singleMarker: true, nextNumber: 42,
                              regionsRevision: 3, createdAt: Timestamp(milliseconds: 1_735_787_045_678))
        try await store.write { db in try drawing.insert(db) }
        #expect(drawing.id != nil)
        let fetched = try await store.read { db in try Drawing.fetchOne(db, key: drawing.id!) }
        #expect(fetched == drawing)
    }

    @Test func markerRoundTrip() async throws {
        let (store, _) = try await StoreFixtures.sqliteStoreWithDrawing()
        let marker = Marker(drawingID: 1, number: 9, uuid: MarkerUUID(text: "0192F3A4-5B6C-7D8E-9FA0-B1C2D3E4F5A6")!, position: PixelPoint(x: 0.1, y: 1e-7), status: .closed,
                            note: "line\nbreak, \"quote\" \\ é", author: nil, rooms: ["2.04", "a\"b", "c,d"],
                            createdAt: Timestamp(milliseconds: 1_735_787_045_678), updatedAt: Timestamp(milliseconds: 1_735_862_400_000))
        try await store.write { db in try marker.insert(db) }
        let fetched = try await store.read { db in try Marker.fetchOne(db, key: ["drawingId": 1, "number": 9]) }
        #expect(fetched == marker)
        let roomsText = try await store.read { db in try String.fetchOne(db, sql: "SELECT rooms FROM marker WHERE number = 9") }
        #expect(roomsText == #"["2.04","a\"b","c,d"]"#)
    }

    @Test func historyRoundTrip() async throws {
        let (store, _) = try await StoreFixtures.sqliteStoreWithDrawing()
        var entry = HistoryEntry(sequence: 0, drawingID: 1, number: 3, action: .moved, at: Timestamp(milliseconds: 1_735_787_045_678),
                                 author: "ana", old: MarkerState(x: 1, y: 2.5, rooms: []),
                                 new: MarkerState(x: 3, y: 4, rooms: ["R1", "R2"]))
        entry.sequence = try await store.write { db in try SQLiteStore.appendHistory(db, [entry]) }
        #expect(entry.sequence > 0)
        let fetched = try await store.read { db in try HistoryEntry.fetchOne(db, key: entry.sequence) }
        #expect(fetched == entry)
    }

    /// The JSON of a state is fixed by hand here (field order, number spelling, escapes).
    @Test func markerStateJSON() async {
        let state = MarkerState(x: 40, y: 12.5, status: .open, note: "a\"b", rooms: ["R1"], replacedBy: 7)
        #expect(state.jsonText == #"{"x":40,"y":12.5,"status":"open","note":"a\"b","rooms":["R1"],"replacedBy":7}"#)
        #expect(MarkerState(jsonText: state.jsonText) == state)
        #expect(MarkerState().jsonText == "{}")
        #expect(MarkerState(jsonText: "[1]") == nil)
    }

    @Test func timestampFormat() async {
        #expect(Timestamp(secondsSinceEpoch: 0).text == "1970-01-01T00:00:00.000Z")
        // 2000-02-29T12:34:56Z = 951827696 (leap day), checked with `date -u -d @951827696`.
        #expect(Timestamp(secondsSinceEpoch: 951_827_696, milliseconds: 7).text == "2000-02-29T12:34:56.007Z")
        #expect(Timestamp(secondsSinceEpoch: 1) < Timestamp(secondsSinceEpoch: 2))
        // 2025-01-02T03:04:05.678Z = 1735787045.678 s (`date -u -d @1735787045`); before 1970 too.
        #expect(Timestamp(milliseconds: 1_735_787_045_678).text == "2025-01-02T03:04:05.678Z")
        #expect(Timestamp(milliseconds: -1).text == "1969-12-31T23:59:59.999Z")
    }
}
