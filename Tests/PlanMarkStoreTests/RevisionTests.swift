import Foundation
import GRDB
import PlanMarkFormats
import PlanMarkGeometry
import Testing
@testable import PlanMarkStore
@testable import PlanMarkSQLite

/// `reviseDrawing`: markers carried to a new sheet, flagged when they no longer validate; dry runs; the v7 migration.
@Suite struct RevisionTests {
    /// Drawing "A" (400 x 300, allowed 10...390 x 10...290, rooms R1 x 10...200, R2 x 200...390) with markers
    /// 1 at (50, 50) in R1, 2 at (300, 100) in R2, 3 at (380, 280) in R2.
    static func storeWithMarkers(_ kind: StoreKind = .sqlite) async throws -> (any AnnotationStore, URL) {
        let (store, folder) = try await StoreFixtures.storeWithDrawing(kind)
        for (x, y) in [(50.0, 50.0), (300, 100), (380, 280)] {
            _ = try await store.addMarker(to: "A", at: PixelPoint(x: x, y: y), note: nil, author: "ana")
        }
        return (store, folder)
    }

    static func alignment(_ pairs: [(Double, Double, Double, Double)]) throws -> Alignment {
        try Alignment.fit(pairs.map { AlignmentPair(from: PixelPoint(x: $0.0, y: $0.1), to: PixelPoint(x: $0.2, y: $0.3)) })
    }

    /// Everything the store holds that a revise may change, to check that a dry run or a refusal wrote nothing.
    static func contents(_ store: any AnnotationStore) async throws -> [String] {
        // Every row as the text of its columns, in a fixed order (both kinds of store).
        let tables = ["drawing": "id", "region": "drawingId, position", "marker": "drawingId, number", "history": "id",
                      "revision": "drawingId, number", "image": "sha256"]
        var contents: [String] = []
        for table in tables.keys.sorted() {
            contents += try await StoreFixtures.rows(store, table, order: tables[table]!).map { "\(table): \($0)" }
        }
        return contents
    }

    /// The sheet re-exported at twice the size: every marker doubled, rooms kept, nothing flagged.
    @Test(arguments: StoreFixtures.kinds) func twoTimesScaleCarriesEveryMarker(kind: StoreKind) async throws {
        let (store, folder) = try await Self.storeWithMarkers(kind)
        let png = try StoreFixtures.png(in: folder, name: "rev2.png", width: 800, height: 600)
        let outcome = try await store.reviseDrawing("A", NewRevision(imagePath: png, alignment: try Self.alignment([(0, 0, 0, 0), (100, 0, 200, 0)])),
                                              dryRun: false, author: "ben")
        #expect(outcome.revision.number == 2 && outcome.previous == 1 && outcome.carried == 3)
        #expect(outcome.unplaced.isEmpty && outcome.roomsChanged == 0 && !outcome.dryRun)
        var positions: [PixelPoint] = []
        try await store.forEachMarker(in: "A", status: nil) { positions.append($0.position); #expect($0.needsPlacement == nil); return true }
        #expect(positions == [PixelPoint(x: 100, y: 100), PixelPoint(x: 600, y: 200), PixelPoint(x: 760, y: 560)])
        #expect(try await store.marker(1, in: "A").rooms == ["R1"])
        #expect(try await store.marker(3, in: "A").rooms == ["R2"])
        let drawing = try await store.drawingRecord(named: "A")
        #expect(drawing.revision == 2 && drawing.width == 800 && drawing.height == 600 && drawing.imagePath == png)
        // The regions went through the same transform: the allowed area is now 20...780 x 20...580.
        let allowed = try await store.regions(of: "A").first { $0.id == "A" }!
        #expect(allowed.bounds == BoundingBox(minX: 20, minY: 20, maxX: 780, maxY: 580))
        let revisions = try await store.revisions(of: "A")
        #expect(revisions.map(\.number) == [1, 2])
        #expect(revisions[0].transform == nil && revisions[0].width == 400)
        #expect(revisions[1].transform == AffineMap(a: 2, b: 0, c: 0, d: 0, e: 2, f: 0) && revisions[1].author == "ben")
        // One revised entry per marker, old and new position with the revision numbers.
        let entry = try await store.history(of: "A", number: 2).last!
        #expect(entry.action == .revised && entry.author == "ben")
        #expect(entry.old?.x == 300 && entry.old?.y == 100 && entry.old?.revision == 1)
        #expect(entry.new?.x == 600 && entry.new?.y == 200 && entry.new?.revision == 2 && entry.new?.rooms == ["R2"])
        // Where the markers were on revision 1, from that history.
        #expect(try await store.markerPositions(of: "A", onRevision: 1) == [1: PixelPoint(x: 50, y: 50), 2: PixelPoint(x: 300, y: 100),
                                                                      3: PixelPoint(x: 380, y: 280)])
        // A marker placed on revision 2 is not on revision 1.
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 500, y: 500), note: nil, author: nil)
        #expect(try await store.markerPositions(of: "A", onRevision: 1).count == 3)
        #expect(try await store.markerPositions(of: "A", onRevision: 2).count == 4)
        await #expect(throws: StoreError.unknownRevision(drawing: "A", number: 3)) { try await store.revisionImage(of: "A", revision: 3) }
    }

    /// Shifted by +50 px on a sheet of the same size: marker 3 at (380, 280) lands at (430, 280), off the
    /// 400 px sheet; it is kept there, flagged and listed, and moving it clears the flag.
    @Test(arguments: StoreFixtures.kinds) func markerOffTheNewSheetIsFlaggedAndKept(kind: StoreKind) async throws {
        let (store, folder) = try await Self.storeWithMarkers(kind)
        let png = try StoreFixtures.png(in: folder, name: "rev2.png", width: 400, height: 300)
        let outcome = try await store.reviseDrawing("A", NewRevision(imagePath: png, alignment: try Self.alignment([(0, 0, 50, 0), (100, 100, 150, 100)])),
                                              dryRun: false, author: nil)
        #expect(outcome.unplaced == [UnplacedMarker(number: 3, from: PixelPoint(x: 380, y: 280), to: PixelPoint(x: 430, y: 280),
                                                    reason: "outside-drawing")])
        let flagged = try await store.marker(3, in: "A")
        #expect(flagged.position == PixelPoint(x: 430, y: 280) && flagged.needsPlacement == "outside-drawing")
        #expect(try await store.marker(1, in: "A").position == PixelPoint(x: 100, y: 50))
        #expect(try await store.marker(1, in: "A").needsPlacement == nil)
        let revised = try await store.history(of: "A", number: 3).last!
        #expect(revised.action == .revised && revised.new?.needsPlacement == .set("outside-drawing") && revised.old?.needsPlacement == .clear)
        // Moving it (R2 is now x 250...440) places it again.
        let moved = try await store.moveMarker(3, in: "A", to: PixelPoint(x: 300, y: 200), author: nil)
        #expect(moved.needsPlacement == nil && moved.rooms == ["R2"])
        #expect(try await store.marker(3, in: "A").needsPlacement == nil)
        let entry = try await store.history(of: "A", number: 3).last!
        #expect(entry.action == .moved && entry.old?.needsPlacement == .set("outside-drawing") && entry.new?.needsPlacement == .clear)
    }

    /// New regions given: rooms are reassigned from them; a marker that had a room and lands in none is outside-rooms.
    @Test(arguments: StoreFixtures.kinds) func newRegionsReassignRooms(kind: StoreKind) async throws {
        let (store, folder) = try await Self.storeWithMarkers(kind)
        let png = try StoreFixtures.png(in: folder, name: "rev2.png")
        let regions = [StoreFixtures.rectangle("K", .room, 0, 0, 250, 300)]
        let outcome = try await store.reviseDrawing("A", NewRevision(imagePath: png, regions: regions), dryRun: false, author: nil)
        #expect(outcome.roomsChanged == 3 && outcome.regionCount == 1)
        #expect(outcome.unplaced.map(\.number) == [2, 3] && outcome.unplaced.allSatisfy { $0.reason == "outside-rooms" })
        #expect(try await store.marker(1, in: "A").rooms == ["K"])
        #expect(try await store.marker(2, in: "A").rooms == [])
        #expect(try await store.marker(2, in: "A").needsPlacement == "outside-rooms")
    }

    /// The history text a revise writes directly is `MarkerState.jsonText`'s, byte for byte, and parses back.
    @Test(arguments: [(nil, nil), ("outside-drawing", nil), (nil, "outside-rooms")] as [(String?, String?)])
    func revisedEntryTextIsMarkerStateText(reason: String?, other: String?) async throws {
        let rooms = ["2.04", "a\"b"]
        let flagged = reason != nil || other != nil
        let direct = StoreRules.stateJSON(PixelPoint(x: 12.5, y: -3), rooms: RoomList.jsonText(rooms), reason: flagged ? Update(reason) : .keep,
                                           revision: 4)
        var state = MarkerState(x: 12.5, y: -3, rooms: rooms)
        state.revision = 4
        if flagged { state.needsPlacement = Update(reason) }
        #expect(direct == state.jsonText)
        #expect(MarkerState(jsonText: direct) == state)
    }

    /// A dry run computes the same outcome and stores nothing.
    @Test(arguments: StoreFixtures.kinds) func dryRunStoresNothing(kind: StoreKind) async throws {
        let (store, folder) = try await Self.storeWithMarkers(kind)
        let png = try StoreFixtures.png(in: folder, name: "rev2.png", width: 400, height: 300)
        let before = try await Self.contents(store)
        let alignment = try Self.alignment([(0, 0, 50, 0), (100, 100, 150, 100)])
        let dry = try await store.reviseDrawing("A", NewRevision(imagePath: png, alignment: alignment), dryRun: true, author: nil)
        #expect(dry.dryRun && dry.unplaced.map(\.number) == [3] && dry.revision.number == 2)
        #expect(try await Self.contents(store) == before)
        let real = try await store.reviseDrawing("A", NewRevision(imagePath: png, alignment: alignment), dryRun: false, author: nil)
        #expect(real.unplaced == dry.unplaced && real.carried == dry.carried)
        #expect(try await Self.contents(store) != before)
    }

    /// A v6 store (written by hand in v6's columns) upgraded to v7 keeps every row; drawings get revision 1
    /// from their image columns; history keeps its ids and indexes and accepts `revised`.
    @Test func migrationFromV6KeepsEverything() async throws {
        let folder = try StoreFixtures.folder()
        let path = folder.appendingPathComponent("v6.sqlite").path
        do {
            let old = try SQLiteStore(path: path, create: true, migrateUpTo: StoreSchema.v6)
            try await old.write { db in
                try db.execute(sql: """
                    INSERT INTO drawing (name, imagePath, imageSHA256, width, height, zoom, crs, singleMarker, nextNumber, createdAt, uuidSeed)
                    VALUES ('Old', '/x.png', 'ab', 100, 50, 3, 'flutter', 0, 3, 1704067200000, 5);
                    INSERT INTO marker (drawingId, number, x, y, status, note, author, rooms, createdAt, updatedAt, priority)
                    VALUES (1, 1, 4.5, 6, 'open', 'n', 'me', '["R"]', 1704067200000, 1704067200000, 'high');
                    INSERT INTO history (id, drawingId, number, lastNumber, action, at, author, oldValue, newValue)
                    VALUES (7, 1, 1, 2, 'created', 1704067200000, 'me', NULL, NULL),
                           (9, 1, 2, NULL, 'removed', 1704067200001, 'me', '{"x":1,"y":2}', NULL);
                    """)
            }
        }
        let store = try SQLiteStore(path: path, create: false)
        #expect(try await store.appliedMigrations().contains(StoreSchema.v7))
        #expect(try await store.appliedMigrations().last == StoreSchema.identifiers.last)
        let drawing = try await store.drawingRecord(named: "Old")
        #expect(drawing.revision == 1 && drawing.width == 100 && drawing.nextNumber == 3 && drawing.uuidSeed == 5)
        #expect(try await store.revisions(of: "Old") == [Revision(number: 1, imagePath: "/x.png", imageSHA256: "ab", width: 100, height: 50,
                                                             createdAt: Timestamp(milliseconds: 1704067200000))])
        let marker = try await store.marker(1, in: "Old")
        #expect(marker.position == PixelPoint(x: 4.5, y: 6) && marker.note == "n" && marker.priority == .high && marker.needsPlacement == nil)
        let history = try await store.history(of: "Old", number: nil)
        #expect(history.map(\.sequence) == [7, 9] && history.map(\.action) == [.created, .removed] && history[0].lastNumber == 2)
        let indexes = try await store.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'history' ORDER BY name") }
        #expect(indexes == ["history_latest", "history_marker", "history_ranges"])
        // The next entry continues after the last id, and `revised` is accepted.
        try await store.write { db in
            try SQLiteStore.appendHistory(db, [HistoryEntry(sequence: 0, drawingID: 1, number: 1, action: .revised, at: Timestamp(milliseconds: 1),
                                                            author: nil, old: nil, new: nil)])
        }
        #expect(try await store.history(of: "Old", number: nil).last?.sequence == 10)
    }
}
