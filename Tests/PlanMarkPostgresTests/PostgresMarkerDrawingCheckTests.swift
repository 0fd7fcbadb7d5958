import PlanMarkGeometry
import PlanMarkPostgres
import PlanMarkStore
import PlanMarkStoreTestSupport
import Testing

/// `marker.drawingId` is checked per statement by triggers (migration `pg3-marker-drawing-check`) instead of a
/// declared foreign key: these cases are what the key guaranteed, written against the tables directly.
@Suite(.enabled(if: TestDatabases.required, "no PostgreSQL test cluster (PLANMARK_TEST_POSTGRES) and not CI"))
struct PostgresMarkerDrawingCheckTests {
    /// The id of drawing "A" in `store`.
    static func drawingID(_ store: PostgresStore) async throws -> String {
        try #require(try await store.texts("SELECT id FROM drawing WHERE name = 'A'").first ?? nil)
    }

    static func expectRefused(_ message: Testing.Comment, _ body: () async throws -> Void) async {
        do {
            try await body()
            Issue.record("accepted: \(message)")
        } catch {
            #expect(String(describing: error).contains("SQLSTATE 23503"), "\(message): \(error)")
        }
    }

    @Test func aMarkerOfNoDrawingIsRefusedAndNothingOfItsStatementIsStored() async throws {
        let (store, _) = try await PostgresMarkerTests.storeWithDrawing()
        let id = try await Self.drawingID(store)
        await Self.expectRefused("a marker of drawing 999999") {
            try await store.execute("INSERT INTO marker (drawingId, number, x, y, createdAt) VALUES (999999, 1, 20, 20, 0)")
        }
        // One statement with a good row and a bad one stores neither.
        await Self.expectRefused("a statement with one marker of no drawing") {
            try await store.execute("INSERT INTO marker (drawingId, number, x, y, createdAt) VALUES (\(id), 1, 20, 20, 0), (999999, 2, 20, 20, 0)")
        }
        #expect(try await store.texts("SELECT count(*) FROM marker") == ["0"])
        // The same statement with only the good row is stored.
        try await store.execute("INSERT INTO marker (drawingId, number, x, y, createdAt) VALUES (\(id), 1, 20, 20, 0)")
        #expect(try await store.texts("SELECT drawingId FROM marker") == [id])
    }

    @Test func aStatementNamingTwoDrawingsNeedsBothAndAnEmptyOneIsAccepted() async throws {
        let (store, url) = try await PostgresMarkerTests.storeWithDrawing()
        _ = try await PostgresMarkerTests.storeWithDrawing(url, name: "B")
        let ids = try await store.texts("SELECT id FROM drawing ORDER BY name").compactMap { $0 }
        try #require(ids.count == 2)
        // Both drawings exist: all four rows are stored.
        try await store.execute("""
            INSERT INTO marker (drawingId, number, x, y, createdAt)
            VALUES (\(ids[0]), 1, 20, 20, 0), (\(ids[1]), 1, 20, 20, 0), (\(ids[0]), 2, 20, 20, 0), (\(ids[1]), 2, 20, 20, 0)
            """)
        #expect(try await store.texts("SELECT count(*) FROM marker") == ["4"])
        // Two known drawings and one unknown: the unknown one is found although the known ones are named more often.
        await Self.expectRefused("a statement naming drawings A, B and 999999") {
            try await store.execute("""
                INSERT INTO marker (drawingId, number, x, y, createdAt)
                VALUES (\(ids[0]), 3, 20, 20, 0), (\(ids[1]), 3, 20, 20, 0), (999999, 1, 20, 20, 0), (\(ids[0]), 4, 20, 20, 0)
                """)
        }
        #expect(try await store.texts("SELECT count(*) FROM marker") == ["4"])
        // A statement that inserts no row names no drawing and is accepted.
        try await store.execute("INSERT INTO marker (drawingId, number, x, y, createdAt) SELECT 999999, 9, 20, 20, 0 WHERE false")
        #expect(try await store.texts("SELECT count(*) FROM marker") == ["4"])
    }

    @Test func aMarkerCannotMoveToNoDrawing() async throws {
        let (store, _) = try await PostgresMarkerTests.storeWithDrawing()
        _ = try await store.addMarker(to: "A", NewMarker(position: PixelPoint(x: 20, y: 20)), author: nil)
        await Self.expectRefused("a marker moved to drawing 999999") {
            try await store.execute("UPDATE marker SET drawingId = 999999")
        }
        // An update that leaves drawingId alone is not checked and goes through.
        try await store.execute("UPDATE marker SET note = 'kept'")
        #expect(try await store.marker(1, in: "A").note == "kept")
    }

    @Test func removingADrawingRemovesItsMarkersAndItsIdCannotChangeUnderThem() async throws {
        let (store, url) = try await PostgresMarkerTests.storeWithDrawing()
        let id = try await Self.drawingID(store)
        for x in [20.0, 30, 40] { _ = try await store.addMarker(to: "A", NewMarker(position: PixelPoint(x: x, y: 20)), author: nil) }
        await Self.expectRefused("drawing id changed under its markers") {
            try await store.execute("UPDATE drawing SET id = 999999 WHERE id = \(id)")
        }
        #expect(try await store.texts("SELECT count(*) FROM marker WHERE drawingId = \(id)") == ["3"])
        // A second drawing's markers stay when the first goes.
        let (other, _) = try await PostgresMarkerTests.storeWithDrawing(url, name: "B")
        _ = try await other.addMarker(to: "B", NewMarker(position: PixelPoint(x: 20, y: 20)), author: nil)
        _ = try await store.removeDrawing("A", force: true)
        #expect(try await store.texts("SELECT count(*) FROM marker WHERE drawingId = \(id)") == ["0"])
        #expect(try await store.texts("SELECT count(*) FROM marker") == ["1"])
    }
}
