import GRDB
import PlanMarkFormats
import PlanMarkGeometry
import Testing
@testable import PlanMarkStore

/// Renaming and removing drawings.
@Suite struct DrawingChangeTests {
    @Test(arguments: StoreFixtures.kinds) func renameKeepsEverything(kind: StoreKind) throws {
        let (store, folder) = try StoreFixtures.storeWithDrawing(kind)
        _ = try store.addMarker(to: "A", at: PixelPoint(x: 50, y: 50), note: "n", author: nil)
        _ = try store.addDrawing(NewDrawing(name: "B", imagePath: try StoreFixtures.png(in: folder, name: "b.png")), regions: [])
        #expect(throws: StoreError.duplicateDrawing("B")) { try store.renameDrawing("A", to: "B") }
        #expect(throws: StoreError.self) { try store.renameDrawing("A", to: "") }
        #expect(throws: StoreError.unknownDrawing("Z")) { try store.renameDrawing("Z", to: "Y") }
        #expect(try store.renameDrawing("A", to: "Level 2").name == "Level 2")
        #expect(throws: StoreError.unknownDrawing("A")) { try store.drawing(named: "A") }
        #expect(try store.marker(1, in: "Level 2").note == "n")
        #expect(try store.history(of: "Level 2", number: 1).count == 1 && (try store.regions(of: "Level 2")).count == 3)
    }

    @Test(arguments: StoreFixtures.kinds) func removeIsRefusedWithMarkersUnlessForced(kind: StoreKind) throws {
        let (store, folder) = try StoreFixtures.storeWithDrawing(kind)
        _ = try store.addDrawing(NewDrawing(name: "B", imagePath: try StoreFixtures.png(in: folder, name: "b.png", width: 500)), regions: [])
        _ = try store.addMarker(to: "A", at: PixelPoint(x: 50, y: 50), note: nil, author: nil)
        _ = try store.attach(AttachmentTests.pdf, declaredType: nil, caption: nil, toMarker: 1, in: "A", author: nil)
        let before = try StoreFixtures.counts(store)
        #expect(throws: StoreError.refused(.drawingHasMarkers(drawing: "A", count: 1))) {
            try store.removeDrawing("A", force: false)
        }
        #expect(try StoreFixtures.counts(store) == before)
        #expect(try store.removeDrawing("A", force: true) == DrawingRemoval(name: "A", markers: 1, attachments: 1))
        // drawing, region, marker, history, attachment, attachmentBlob; B (no regions) stays.
        #expect(try StoreFixtures.counts(store).prefix(6) == [1, 0, 0, 0, 0, 0])
        #expect(try StoreFixtures.int(store, "SELECT count(*) FROM image") == 1)
        #expect(try store.removeDrawing("B", force: false) == DrawingRemoval(name: "B", markers: 0, attachments: 0))
        #expect(try StoreFixtures.int(store, "SELECT count(*) FROM image") == 0)
    }
}
