import Foundation
import GRDB
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkSQLite
import PlanMarkTestSupport
import Testing
@testable import PlanMarkStore

/// The change feed (issue 26, item 1), both back ends: every change gets a cursor, in commit order; a page lists a
/// marker once, at its last change; removals are tombstones; imports are ranges of cursors; a store from before the
/// feed is put in it by its migration. Expected feeds are written out by hand from the operations' order.
@Suite struct ChangeFeedTests {
    /// The whole feed after `since`, read `limit` changes a page.
    static func feed(_ store: any AnnotationStore, since: Int64 = 0, drawing: String? = nil, limit: Int = 1000) async throws -> [Change] {
        var changes: [Change] = []
        var cursor = since
        while true {
            let page = try await store.changes(since: cursor, drawing: drawing, limit: limit)
            changes += page.changes
            #expect(page.changes.count <= limit)
            cursor = page.next
            if !page.more { return changes }
        }
    }

    /// What a change is, in short: `kind drawing number` (markers) or `kind drawing`.
    static func describe(_ changes: [Change]) -> [String] {
        changes.map { change in change.number.map { "\(change.kind.rawValue) \(change.drawing) \($0)" } ?? "\(change.kind.rawValue) \(change.drawing)" }
    }

    @Test(arguments: StoreFixtures.kinds) func everyChangeInCommitOrderOnceAMarker(kind: StoreKind) async throws {
        let (store, folder) = try await StoreFixtures.storeWithDrawing(kind)
        #expect(Self.describe(try await Self.feed(store)) == ["drawing-added A"])
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 50), note: nil, author: "ana")  // 1
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 300, y: 100), note: nil, author: "ana")  // 2
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 310, y: 100), note: nil, author: "ana")  // 3
        let afterThree = try await store.changes(since: 0, drawing: nil, limit: 1000).next
        _ = try await store.setNote("crack", ofMarker: 1, in: "A", author: "ana")          // 1 moves to the end
        _ = try await store.comment("seen", onMarker: 2, in: "A", author: "bo")            // then 2
        let removed = try await store.removeMarker(3, in: "A", author: "bo")               // 3 becomes a tombstone
        _ = try await store.addDrawing(NewDrawing(name: "B", imagePath: try StoreFixtures.png(in: folder, name: "b.png")),
                                       regions: StoreFixtures.regions)
        _ = try await store.addMarker(to: "B", at: PixelPoint(x: 20, y: 20), note: nil, author: nil)   // B 1
        _ = try await store.renameDrawing("A", to: "A2")

        let all = try await Self.feed(store)
        #expect(Self.describe(all) == ["drawing-added A2", "upsert A2 1", "upsert A2 2", "remove A2 3", "drawing-added B", "upsert B 1",
                                       "drawing-renamed A2"])
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.cursor < $1.cursor })
        let one = try #require(all.first { $0.number == 1 && $0.drawing == "A2" })
        #expect(one.marker?.note == "crack" && one.marker?.version == 2 && one.uuid == one.marker?.uuid)
        let tombstone = try #require(all.first { $0.kind == .remove })
        #expect(tombstone.uuid == removed.uuid && tombstone.marker == nil)
        // Every page size gives the same feed; after a cursor, exactly what came after it.
        for limit in [1, 2, 3] { #expect(try await Self.feed(store, limit: limit) == all) }
        #expect(Self.describe(try await Self.feed(store, since: afterThree)) == ["upsert A2 1", "upsert A2 2", "remove A2 3", "drawing-added B",
                                                                                  "upsert B 1", "drawing-renamed A2"])
        #expect(Self.describe(try await Self.feed(store, drawing: "B")) == ["drawing-added B", "upsert B 1"])
        let last = try #require(all.last).cursor
        let empty = try await store.changes(since: last, drawing: nil, limit: 10)
        #expect(empty.changes.isEmpty && empty.next == last && !empty.more)
        // A removed drawing: its markers go without tombstones of their own; the drawing's removal says it.
        _ = try await store.removeDrawing("B", force: true)
        #expect(Self.describe(try await Self.feed(store, since: last)) == ["drawing-removed B"])
    }

    /// An import is one range of cursors in number order; a marker changed since leaves it for its own cursor, and a
    /// cursor in the middle of the range gives the markers after it.
    @Test(arguments: StoreFixtures.kinds) func importsAreRangesOfCursors(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        var rows = MarkerRowList((0..<5).map { MarkerRow(id: "r\($0)", line: $0 + 2, position: PixelPoint(x: Double(20 + 10 * $0), y: 20)) })
        _ = try await store.importMarkers(into: "A", from: &rows, skipInvalid: false, author: "bot")
        let imported = try await Self.feed(store)
        #expect(Self.describe(imported) == ["drawing-added A"] + (1...5).map { "upsert A \($0)" })
        #expect(imported.map(\.cursor) == Array(imported[0].cursor...(imported[0].cursor + 5)))
        _ = try await store.setNote("moved on", ofMarker: 2, in: "A", author: nil)
        #expect(Self.describe(try await Self.feed(store)) == ["drawing-added A", "upsert A 1", "upsert A 3", "upsert A 4", "upsert A 5", "upsert A 2"])
        // From the cursor of marker 3: 4, 5 (still as imported), then 2 (changed since).
        #expect(Self.describe(try await Self.feed(store, since: imported[3].cursor)) == ["upsert A 4", "upsert A 5", "upsert A 2"])
        for limit in [1, 2] { #expect(try await Self.feed(store, limit: limit) == (try await Self.feed(store))) }
    }

    /// Regions replaced (rooms of both markers change), a revision, a calibration: each drawing change in the feed, each
    /// marker once at its last change.
    @Test(arguments: StoreFixtures.kinds) func drawingChangesAndBulkWrites(kind: StoreKind) async throws {
        let (store, folder) = try await StoreFixtures.storeWithDrawing(kind)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 50), note: nil, author: nil)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 300, y: 100), note: nil, author: nil)
        _ = try await store.replaceRegions(of: "A", with: [StoreFixtures.rectangle("A", .allowed, 10, 10, 390, 290),
                                                          StoreFixtures.rectangle("Z", .room, 0, 0, 400, 300)], force: true, author: nil)
        #expect(Self.describe(try await Self.feed(store)) == ["drawing-added A", "upsert A 1", "upsert A 2", "drawing-regions A"])
        let png = try StoreFixtures.png(in: folder, name: "rev2.png", width: 800, height: 600)
        let alignment = try Alignment.fit([AlignmentPair(from: PixelPoint(x: 0, y: 0), to: PixelPoint(x: 0, y: 0)),
                                           AlignmentPair(from: PixelPoint(x: 100, y: 0), to: PixelPoint(x: 200, y: 0))])
        _ = try await store.reviseDrawing("A", NewRevision(imagePath: png, alignment: alignment), dryRun: false, author: nil)
        _ = try await store.calibrate("A", with: Calibration.twoPoints(from: PixelPoint(x: 0, y: 10), to: PixelPoint(x: 400, y: 10), distance: 4, unit: .m))
        let feed = try await Self.feed(store)
        #expect(Self.describe(feed) == ["drawing-added A", "drawing-regions A", "upsert A 1", "upsert A 2", "drawing-revised A",
                                        "drawing-calibrated A"])
        #expect(feed[2].marker?.position == PixelPoint(x: 100, y: 100) && feed[2].marker?.rooms == ["Z"])
    }

    /// `drawingChanges`: the drawings' changes only (no upsert, no tombstone), named as the drawings are now, in cursor
    /// order, after a cursor, a page at a time.
    @Test(arguments: StoreFixtures.kinds) func drawingChangesLeaveTheMarkersOut(kind: StoreKind) async throws {
        let (store, folder) = try await StoreFixtures.storeWithDrawing(kind)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 50), note: nil, author: nil)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 300, y: 100), note: nil, author: nil)
        _ = try await store.removeMarker(2, in: "A", author: nil)
        _ = try await store.addDrawing(NewDrawing(name: "B", imagePath: try StoreFixtures.png(in: folder, name: "b.png")), regions: StoreFixtures.regions)
        _ = try await store.renameDrawing("A", to: "A2")
        var changes: [Change] = []
        var cursor: Int64 = 0
        while true {
            let page = try await store.drawingChanges(since: cursor, limit: 1)
            #expect(page.changes.count <= 1)
            changes += page.changes
            cursor = page.next
            if !page.more { break }
        }
        #expect(Self.describe(changes) == ["drawing-added A2", "drawing-added B", "drawing-renamed A2"])
        #expect(zip(changes, changes.dropFirst()).allSatisfy { $0.cursor < $1.cursor })
        let added = try #require(changes.first)
        #expect(Self.describe(try await store.drawingChanges(since: added.cursor, limit: 10).changes) == ["drawing-added B", "drawing-renamed A2"])
        let last = try #require(changes.last).cursor
        let empty = try await store.drawingChanges(since: last, limit: 10)
        #expect(empty.changes.isEmpty && empty.next == last && !empty.more)
    }

    /// A store made before the feed: its migration puts each drawing and its markers in the feed, and new changes come
    /// after them. (The store is made whole and then taken back to v12 with SQL: the columns, tables and records of v13
    /// and later dropped, as a store written before them has none.)
    @Test func aStoreFromBeforeIsPutInTheFeed() async throws {
        let folder = try StoreFixtures.folder()
        let path = folder.appendingPathComponent("old.sqlite").path
        do {
            let old = try SQLiteStore(path: path, create: true)
            _ = try await old.addDrawing(NewDrawing(name: "A", imagePath: try StoreFixtures.png(in: folder)), regions: StoreFixtures.regions)
            _ = try await old.addDrawing(NewDrawing(name: "B", imagePath: try StoreFixtures.png(in: folder, name: "b.png")), regions: StoreFixtures.regions)
            for x in [50.0, 60, 70] { _ = try await old.addMarker(to: "A", at: PixelPoint(x: x, y: 50), note: nil, author: nil) }
            _ = try await old.removeMarker(2, in: "A", author: nil)
        }
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(sql: """
                DROP INDEX marker_cursor; ALTER TABLE marker DROP COLUMN cursor; ALTER TABLE historyHead DROP COLUMN lastCursor;
                DROP TABLE feedEvent; DROP TABLE importRange; ALTER TABLE region DROP COLUMN labelBox; DROP INDEX idempotencyKey_createdAt;
                ALTER TABLE drawing DROP COLUMN pdfDPI; ALTER TABLE drawing DROP COLUMN pdfPage;
                ALTER TABLE revision DROP COLUMN pdfDPI; ALTER TABLE revision DROP COLUMN pdfPage;
                DELETE FROM grdb_migrations WHERE identifier IN ('\(StoreSchema.v13)', '\(StoreSchema.v14)', '\(StoreSchema.v15)', '\(StoreSchema.v16)');
                """)
        }
        try queue.close()
        let store = try SQLiteStore(path: path, create: false)
        #expect(Self.describe(try await Self.feed(store)) == ["drawing-added A", "upsert A 1", "upsert A 3", "drawing-added B"])
        _ = try await store.setNote("after", ofMarker: 1, in: "A", author: nil)
        #expect(Self.describe(try await Self.feed(store)) == ["drawing-added A", "upsert A 3", "drawing-added B", "upsert A 1"])
    }
}
