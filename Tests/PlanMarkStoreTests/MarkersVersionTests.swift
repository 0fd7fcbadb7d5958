import GRDB
import PlanMarkFormats
import PlanMarkGeometry
import Testing
@testable import PlanMarkStore
@testable import PlanMarkSQLite

/// `markersVersion(of:)`: changes with every kind of marker write, stays equal otherwise, and is never
/// given twice (history and drawing ids are not reused).
@Suite struct MarkersVersionTests {
    @Test(arguments: StoreFixtures.kinds) func changesWithEveryKindOfMarkerWrite(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        var seen: [MarkersVersion] = await [try store.markersVersion(of: "A")]
        /// Runs `write`, then checks the version is new (never seen before) and stays while nothing is written.
        func expectNewVersion(_ what: String, _ write: () async throws -> Void) async throws {
            try await write()
            let version = try await store.markersVersion(of: "A")
            #expect(!seen.contains(version), "\(what) left the version at \(version)")
            #expect(try await store.markersVersion(of: "A") == version, "\(what): the version changed without a write")
            seen.append(version)
        }
        try await expectNewVersion("add") { _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 50), note: nil, author: nil) }
        try await expectNewVersion("move") { _ = try await store.moveMarker(1, in: "A", to: PixelPoint(x: 60, y: 50), author: nil) }
        try await expectNewVersion("note") { _ = try await store.setNote("cracked tile", ofMarker: 1, in: "A", author: nil) }
        try await expectNewVersion("status") { _ = try await store.setStatus(.inProgress, ofMarker: 1, in: "A", author: nil) }
        let photo = StoreFixtures.pngHeader(width: 1, height: 1) + [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
        var attachmentID: Int64 = 0
        try await expectNewVersion("attach") {
            attachmentID = try await store.attach(photo, declaredType: nil, caption: nil, toMarker: 1, in: "A", author: nil).id
        }
        try await expectNewVersion("detach") { _ = try await store.detach(attachmentID, fromMarker: 1, in: "A", author: nil) }
        try await expectNewVersion("import") {
            var rows = MarkerRowList([MarkerRow(id: "a", line: 2, position: PixelPoint(x: 20, y: 20))])
            _ = try await store.importMarkers(into: "A", from: &rows, skipInvalid: false, author: nil)
        }
        try await expectNewVersion("remove") { _ = try await store.removeMarker(1, in: "A", author: nil) }
        // Marker 2 (imported at x = 20, in R1) moves to R2 when R1 and R2 swap sides.
        try await expectNewVersion("regions") {
            _ = try await store.replaceRegions(of: "A", with: [StoreFixtures.rectangle("A", .allowed, 10, 10, 390, 290),
                                                         StoreFixtures.rectangle("R1", .room, 200, 10, 390, 290),
                                                         StoreFixtures.rectangle("R2", .room, 10, 10, 200, 290)],
                                         force: false, author: nil)
        }
    }

    /// Refused writes and reads leave the version alone; another drawing's writes too.
    @Test(arguments: StoreFixtures.kinds) func staysEqualOtherwise(kind: StoreKind) async throws {
        let (store, folder) = try await StoreFixtures.storeWithDrawing(kind)
        _ = try await store.addDrawing(NewDrawing(name: "B", imagePath: try StoreFixtures.png(in: folder, name: "b.png")), regions: StoreFixtures.regions)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 50), note: nil, author: nil)
        let before = try await store.markersVersion(of: "A")
        await #expect(throws: StoreError.self) { try await store.addMarker(to: "A", at: PixelPoint(x: 5, y: 5), note: nil, author: nil) }
        _ = try await store.marker(1, in: "A")
        _ = try await store.history(of: "A", number: nil)
        _ = try await store.addMarker(to: "B", at: PixelPoint(x: 50, y: 50), note: nil, author: nil)
        #expect(try await store.markersVersion(of: "A") == before)
    }

    /// A drawing removed and added again under its name, with the newest history entries gone with it,
    /// gets a version never seen before: ids come from AUTOINCREMENT keys.
    @Test(arguments: StoreFixtures.kinds) func idsAreNotReusedAfterRemoval(kind: StoreKind) async throws {
        let (store, folder) = try await StoreFixtures.storeWithDrawing(kind)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 50), note: nil, author: nil)
        let first = try await store.markersVersion(of: "A")
        _ = try await store.removeDrawing("A", force: true)
        _ = try await store.addDrawing(NewDrawing(name: "A", imagePath: try StoreFixtures.png(in: folder, name: "again.png")), regions: StoreFixtures.regions)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 50), note: nil, author: nil)
        let second = try await store.markersVersion(of: "A")
        #expect(second.drawingID > first.drawingID)
        #expect(second.latestHistoryID > first.latestHistoryID)
        await #expect(throws: StoreError.unknownDrawing("C")) { try await store.markersVersion(of: "C") }
    }

    /// The version is found with the `history_latest` index, not a scan of the drawing's entries.
    @Test func readsOneIndexSearch() async throws {
        let (store, _) = try await StoreFixtures.sqliteStoreWithDrawing()
        let plan = try await store.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT max(id) FROM history WHERE drawingId = ?", arguments: [1])
                .map { (row: Row) -> String in row["detail"] }.joined(separator: "\n")
        }
        #expect(plan.contains("history_latest"), "\(plan)")
    }
}
