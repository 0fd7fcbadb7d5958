@testable import PlanMarkPostgres
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore
import PlanMarkStoreTestSupport
import PostgresNIO
import Testing

@Suite(.enabled(if: TestDatabases.required, "no PostgreSQL test cluster (PLANMARK_TEST_POSTGRES) and not CI"))
struct PostgresImportTests {
    /// A store with drawing "A" (400 x 300): allowed area 10...390 x 10...290, room "R1" over 0...100 x 0...100.
    static func storeWithDrawing(_ name: String = "A", singleMarker: Bool = false, in given: PostgresStore? = nil) async throws -> PostgresStore {
        let store: PostgresStore
        if let given { store = given } else { store = try await PostgresStore(url: try TestDatabases.fresh(), create: true) }
        var new = NewDrawing(name: name, imagePath: "/nowhere/plan.png")
        new.imageBytes = PostgresDrawingTests.png
        new.singleMarker = singleMarker
        _ = try await store.addDrawing(new, regions: [rectangle("A", .allowed, 10, 10, 390, 290), rectangle("R1", .room, 0, 0, 100, 100)])
        return store
    }

    static func rectangle(_ id: String, _ kind: RegionKind, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) throws -> Region {
        try Region(id: id, kind: kind, coordinates: [[[PixelPoint(x: x0, y: y0), PixelPoint(x: x1, y: y0), PixelPoint(x: x1, y: y1),
                                                       PixelPoint(x: x0, y: y1)]]])
    }

    /// A CSV reader over `text`, in small blocks so that an import takes many chunks.
    static func csv(_ text: String) throws -> MarkerFileReader {
        try MarkerFileReader(input: InputFile(bytes: Array(text.utf8), source: "m.csv"), format: .csv, conversion: nil, blockSize: 4096)
    }

    /// Rows of `sql` (one text column a row, NULL as nil), read with the store's own connection.
    static func texts(_ store: PostgresStore, _ sql: String) async throws -> [String?] {
        try await store.read { connection, logger in
            var result: [String?] = []
            for try await (value) in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode(String?.self) {
                result.append(value)
            }
            return result
        }
    }

    static func markerCount(_ store: PostgresStore) async throws -> Int {
        await Int(try texts(store, "SELECT count(*)::text FROM marker").first!!)!
    }

    /// Positions of row k (0-based): x = 20 + k % 300 (an integer), y = 20 + (k / 300) * 0.25 (exact in binary).
    static func position(_ k: Int) -> (x: Double, y: Double) { (Double(20 + k % 300), 20 + Double(k / 300) * 0.25) }

    @Test func aCSVOfThousandsOfRowsImportsNumberedOneToN() async throws {
        let store = try await Self.storeWithDrawing()
        let n = 5000
        var text = "x,y\n"
        for k in 0..<n {
            let (x, y) = Self.position(k)
            text += "\(x),\(y)\n"
        }
        var reader = try Self.csv(text)
        let outcome = try await store.importMarkers(into: "A", from: &reader, skipInvalid: false, author: "ana\tb")
        #expect(outcome == ImportOutcome(total: n, stored: n, numbers: 1..<(n + 1), rejected: [], alreadyStored: 0))
        #expect(try await store.drawingRecord(named: "A").nextNumber == n + 1)
        #expect(try await Self.markerCount(store) == n)
        // Every row where the file put it, numbered in file order.
        let rows = try await Self.texts(store, "SELECT number || ' ' || x || ' ' || y || ' ' || rooms || ' ' || author FROM marker ORDER BY number")
        let expected = (0..<n).map { k -> String? in
            let (x, y) = Self.position(k)
            let rooms = x <= 100 && y <= 100 ? "[\"R1\"]" : "[]"
            return "\(k + 1) \(Self.format(x)) \(Self.format(y)) \(rooms) ana\tb"
        }
        #expect(rows == expected)
        // One history entry for the range.
        #expect(try await Self.texts(store, "SELECT number || '-' || lastNumber || ' ' || action || ' ' || author FROM history") == ["1-5000 created ana\tb"])
        // A second import goes on from the counter.
        var again = try Self.csv("x,y\n50,50\n60,60\n")
        let second = try await store.importMarkers(into: "A", from: &again, skipInvalid: false, author: nil)
        #expect(second.numbers == (n + 1)..<(n + 3))
        #expect(try await Self.texts(store, "SELECT author FROM marker WHERE number > \(n)") == [nil, nil])
    }

    /// PostgreSQL's text of a float8 (no ".0" for integers).
    static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    @Test func anInvalidRowRefusesTheWholeImport() async throws {
        let store = try await Self.storeWithDrawing()
        var text = "x,y\n"
        for k in 0..<3000 { text += k == 2500 ? "395,20\n" : "\(20 + k % 300),30\n" }
        text += "abc,20\n"
        var reader = try Self.csv(text)
        let outcome = try await store.importMarkers(into: "A", from: &reader, skipInvalid: false, author: nil)
        #expect(outcome.total == 3001 && outcome.stored == 0 && outcome.numbers == 0..<0)
        // Line 2 is row 0: row 2500 is on line 2502, the last on line 3002.
        #expect(outcome.rejected.map(\.line) == [2502, 3002])
        #expect(outcome.rejected.map(\.reason) == [.outsideAllowedArea, .invalidCoordinate])
        #expect(try await Self.markerCount(store) == 0)
        #expect(try await store.drawingRecord(named: "A").nextNumber == 1)
        #expect(try await Self.texts(store, "SELECT action FROM history") == [])
    }

    @Test func skipInvalidStoresTheValidRows() async throws {
        let store = try await Self.storeWithDrawing()
        var text = "x,y\n"
        for k in 0..<3000 { text += k == 2500 ? "395,20\n" : "\(20 + k % 300),30\n" }
        var reader = try Self.csv(text)
        let outcome = try await store.importMarkers(into: "A", from: &reader, skipInvalid: true, author: nil)
        #expect(outcome.total == 3000 && outcome.stored == 2999 && outcome.numbers == 1..<3000)
        #expect(outcome.rejected == [RejectedRow(id: outcome.rejected.first?.id ?? "", line: 2502, position: PixelPoint(x: 395, y: 20),
                                                 reason: .outsideAllowedArea)])
        #expect(try await Self.markerCount(store) == 2999)
        #expect(try await store.drawingRecord(named: "A").nextNumber == 3000)
        // Row 2501 (x = 20 + 2501 % 300 = 121) is marker 2501: the numbers close over the refused row.
        #expect(try await Self.texts(store, "SELECT x::text FROM marker WHERE number = 2501") == ["121"])
    }

    @Test func textWithTabsNewlinesAndBackslashesRoundTrips() async throws {
        let store = try await Self.storeWithDrawing()
        let notes = ["a\tb", "line 1\nline 2\r\nline 3\r", "back\\slash \\N \\t", "\\N", "", "é ü 漢字 🚧", "trailing\\"]
        var rows: [MarkerRow] = []
        for (k, note) in notes.enumerated() {
            rows.append(MarkerRow(id: "\(k + 1)", line: 0, position: PixelPoint(x: 50 + Double(k), y: 200), note: note,
                                  author: k % 2 == 0 ? "o'neil\t\\" : nil, ref: "ref\n\(k)", category: "c\\\(k)", assignee: "as\tsi\r"))
        }
        var source = MarkerRowList(rows)
        let outcome = try await store.importMarkers(into: "A", from: &source, skipInvalid: false, author: "imp\\orter\n")
        #expect(outcome.stored == notes.count)
        #expect(try await Self.texts(store, "SELECT note FROM marker ORDER BY number") == notes)
        let authors = (0..<notes.count).map { k -> String? in k % 2 == 0 ? "o'neil\t\\" : "imp\\orter\n" }
        #expect(try await Self.texts(store, "SELECT author FROM marker ORDER BY number") == authors)
        #expect(try await Self.texts(store, "SELECT ref FROM marker ORDER BY number") == (0..<notes.count).map { "ref\n\($0)" })
        #expect(try await Self.texts(store, "SELECT category || '|' || assignee FROM marker ORDER BY number")
            == (0..<notes.count).map { "c\\\($0)|as\tsi\r" })
        #expect(try await Self.texts(store, "SELECT status::text || priority::text || coalesce(uuid, 'none') FROM marker LIMIT 1") == ["01none"])
    }

    @Test func punchItemFieldsAreStoredAsCodes() async throws {
        let store = try await Self.storeWithDrawing()
        let uuid = MarkerUUID(text: "0b5c4a53-6a1e-4d0b-9a7b-1a2b3c4d5e6f")!
        var source = MarkerRowList([MarkerRow(id: "1", line: 0, position: PixelPoint(x: 50, y: 50), uuid: uuid, status: "closed",
                                              priority: "high", due: DueDate(text: "2026-12-01"), capturedAt: CaptureTime(text: "2026-11-01T10:00:00Z"))])
        _ = try await store.importMarkers(into: "A", from: &source, skipInvalid: false, author: nil)
        let status = MarkerStatus.closed.storedCode, priority = MarkerPriority.high.storedCode
        #expect(try await Self.texts(store, "SELECT status || ' ' || priority || ' ' || uuid || ' ' || due || ' ' || capturedAt FROM marker")
            == ["\(status) \(priority) \(uuid.text) 2026-12-01 \(CaptureTime(text: "2026-11-01T10:00:00Z")!.text)"])
    }

    @Test func uuidsStoredAlreadyAreSkippedAndAnotherDrawingsAreAConflict() async throws {
        let store = try await Self.storeWithDrawing()
        _ = try await Self.storeWithDrawing("B", in: store)
        let u1 = MarkerUUID(text: "0b5c4a53-6a1e-4d0b-9a7b-000000000001")!
        let u2 = MarkerUUID(text: "0b5c4a53-6a1e-4d0b-9a7b-000000000002")!
        func rows(_ uuids: [MarkerUUID]) -> MarkerRowList {
            MarkerRowList(uuids.enumerated().map { MarkerRow(id: "\($0.offset + 1)", line: 0, position: PixelPoint(x: 50, y: 50), uuid: $0.element) })
        }
        var first = rows([u1, u2, u1])
        let outcome = try await store.importMarkers(into: "A", from: &first, skipInvalid: false, author: nil)
        #expect(outcome == ImportOutcome(total: 3, stored: 2, numbers: 1..<3, rejected: [], alreadyStored: 1))
        // The same file again: nothing new.
        var again = rows([u1, u2, u1])
        #expect(try await store.importMarkers(into: "A", from: &again, skipInvalid: false, author: nil)
            == ImportOutcome(total: 3, stored: 0, numbers: 3..<3, rejected: [], alreadyStored: 3))
        // On another drawing: a conflict, nothing stored there.
        var other = rows([MarkerUUID(text: "0b5c4a53-6a1e-4d0b-9a7b-000000000003")!, u2])
        await #expect(throws: StoreError.uuidConflict(uuid: u2, drawing: "A", number: 2)) {
            try await store.importMarkers(into: "B", from: &other, skipInvalid: false, author: nil)
        }
        #expect(try await Self.markerCount(store) == 2)
        #expect(try await store.drawingRecord(named: "B").nextNumber == 1)
        // A marker without uuid (number 3) has the store's own, made from the number: importing it again skips it.
        var plain = try Self.csv("x,y\n60,60\n")
        #expect(try await store.importMarkers(into: "A", from: &plain, skipInvalid: false, author: nil).numbers == 3..<4)
        let seed = try await store.drawingRecord(named: "A").uuidSeed
        var own = rows([DerivedUUID.make(seed: seed, number: 3)])
        #expect(try await store.importMarkers(into: "A", from: &own, skipInvalid: false, author: nil)
            == ImportOutcome(total: 1, stored: 0, numbers: 4..<4, rejected: [], alreadyStored: 1))
        // The store's form for marker 1, whose stored uuid is u1: a conflict (as SQLite); for a number not given: refused.
        var taken = rows([DerivedUUID.make(seed: seed, number: 1)])
        await #expect(throws: StoreError.uuidConflict(uuid: DerivedUUID.make(seed: seed, number: 1), drawing: "A", number: 1)) {
            try await store.importMarkers(into: "B", from: &taken, skipInvalid: false, author: nil)
        }
        var future = rows([DerivedUUID.make(seed: seed, number: 9)])
        await #expect(throws: StoreError.refused(.uuidNotIssued(uuid: DerivedUUID.make(seed: seed, number: 9), drawing: "A", number: 9))) {
            try await store.importMarkers(into: "A", from: &future, skipInvalid: false, author: nil)
        }
        #expect(try await Self.markerCount(store) == 3)
    }

    @Test func singleMarkerImportKeepsTheLastValidRow() async throws {
        let store = try await Self.storeWithDrawing(singleMarker: true)
        var first = try Self.csv("x,y\n50,60\n")
        _ = try await store.importMarkers(into: "A", from: &first, skipInvalid: false, author: nil)
        var source = try Self.csv("x,y\n20,20\n30,30\n")
        let outcome = try await store.importMarkers(into: "A", from: &source, skipInvalid: false, author: "ana")
        #expect(outcome.stored == 1 && outcome.numbers == 2..<3)
        #expect(try await Self.texts(store, "SELECT number || ' ' || x || ' ' || y FROM marker") == ["2 30 30"])
        #expect(try await Self.texts(store, "SELECT number || ' ' || action || ' ' || coalesce(newValue, '') FROM history ORDER BY id")
            == ["1 created ", "1 removed \(MarkerState(replacedBy: 2).jsonText)", "2 created "])
    }
}
