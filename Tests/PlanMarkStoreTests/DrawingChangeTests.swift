import GRDB
import PlanMarkFormats
import PlanMarkGeometry
import Testing
@testable import PlanMarkStore
@testable import PlanMarkSQLite

/// Renaming and removing drawings.
@Suite struct DrawingChangeTests {
    @Test(arguments: StoreFixtures.kinds) func renameKeepsEverything(kind: StoreKind) async throws {
        let (store, folder) = try await StoreFixtures.storeWithDrawing(kind)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 50), note: "n", author: nil)
        _ = try await store.addDrawing(NewDrawing(name: "B", imagePath: try StoreFixtures.png(in: folder, name: "b.png")), regions: [])
        await #expect(throws: StoreError.duplicateDrawing("B")) { try await store.renameDrawing("A", to: "B") }
        await #expect(throws: StoreError.self) { try await store.renameDrawing("A", to: "") }
        await #expect(throws: StoreError.unknownDrawing("Z")) { try await store.renameDrawing("Z", to: "Y") }
        #expect(try await store.renameDrawing("A", to: "Level 2").name == "Level 2")
        await #expect(throws: StoreError.unknownDrawing("A")) { try await store.drawing(named: "A") }
        #expect(try await store.marker(1, in: "Level 2").note == "n")
        #expect(try await store.history(of: "Level 2", number: 1).count == 1)
        #expect(try await store.regions(of: "Level 2").count == 3)
    }

    @Test(arguments: StoreFixtures.kinds) func removeIsRefusedWithMarkersUnlessForced(kind: StoreKind) async throws {
        let (store, folder) = try await StoreFixtures.storeWithDrawing(kind)
        _ = try await store.addDrawing(NewDrawing(name: "B", imagePath: try StoreFixtures.png(in: folder, name: "b.png", width: 500)), regions: [])
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 50), note: nil, author: nil)
        _ = try await store.attach(AttachmentTests.pdf, declaredType: nil, caption: nil, toMarker: 1, in: "A", author: nil)
        var imported = MarkerRowList([MarkerRow(id: "a", line: 2, position: PixelPoint(x: 60, y: 60)), MarkerRow(id: "b", line: 3, position: PixelPoint(x: 70, y: 70))])
        _ = try await store.importMarkers(into: "B", from: &imported, skipInvalid: false, author: nil)
        #expect(try await StoreFixtures.int(store, "SELECT count(*) FROM importRange") == 1)
        _ = try await store.removeDrawing("B", force: true)
        // The import's range in the change feed goes with its drawing.
        #expect(try await StoreFixtures.int(store, "SELECT count(*) FROM importRange") == 0)
        _ = try await store.addDrawing(NewDrawing(name: "B", imagePath: try StoreFixtures.png(in: folder, name: "b.png", width: 500)), regions: [])
        let before = try await StoreFixtures.counts(store)
        await #expect(throws: StoreError.refused(.drawingHasMarkers(drawing: "A", count: 1))) {
            try await store.removeDrawing("A", force: false)
        }
        #expect(try await StoreFixtures.counts(store) == before)
        #expect(try await store.removeDrawing("A", force: true) == DrawingRemoval(name: "A", markers: 1, attachments: 1))
        // drawing, region, marker, history, attachment, attachmentBlob; B (no regions) stays, and so does A's history
        // (created, attached) and the first B's (its import): the hash chain goes through them.
        #expect(try await StoreFixtures.counts(store).prefix(6) == [1, 0, 0, 3, 0, 0])
        #expect(try await StoreFixtures.int(store, "SELECT count(*) FROM image") == 1)
        #expect(try await store.removeDrawing("B", force: false) == DrawingRemoval(name: "B", markers: 0, attachments: 0))
        #expect(try await StoreFixtures.int(store, "SELECT count(*) FROM image") == 0)
    }
}
