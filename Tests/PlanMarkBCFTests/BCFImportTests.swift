import Foundation
import PlanMarkBCF
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore
import PlanMarkTestSupport
import Testing

/// `BCFImport` into a store: files bcf-client wrote (topics of another tool), and PlanMark's own exports into a new store
/// of each back end, twice.
@Suite(.serialized) struct BCFImportTests {
    /// Reads `path` and stores its topics on the fixture's drawing.
    static func importFile(_ path: String, into store: any AnnotationStore, drawing: String = "Level 2", author: String? = nil)
        async throws -> ItemsImport {
        let archive = try BCFArchive(reading: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        let items = try BCFImport.items(of: archive, drawing: try await store.drawingRecord(named: drawing), users: try await store.users())
        return try await store.importItems(into: drawing, items, author: author)
    }

    /// A topic another tool made has no position: at the sheet's centre (500, 400), flagged no-position, its title and
    /// description in the note, its type, status, priority (in PlanMark's words) and comments kept; authors who are the
    /// store's users (kim@acme.example) by their names.
    @Test(arguments: StoreKind.kinds, BCFVersion.allCases)
    func aFileBCFClientWroteIsImported(kind: StoreKind, version: BCFVersion) async throws {
        guard Oracle.available else { return }
        let fixture = try await BCFFixture.make(kind)
        let path = fixture.folder.appendingPathComponent("bcf-client-\(version.rawValue).bcf").path
        let written = try #require(try Oracle.json(["write", path, version.rawValue]) as? [[String: Any]])
        #expect(written.count == 2)
        let outcome = try await Self.importFile(path, into: fixture.store, author: "ana")
        #expect(outcome.stored.map(\.number) == [4, 5])
        #expect(outcome.comments == 3)
        let markers = try await fixture.markers()
        for (marker, topic) in zip(markers.suffix(2), written) {
            #expect(marker.uuid.text == topic["guid"] as? String)
            #expect(marker.position == PixelPoint(x: 500, y: 400))
            #expect(marker.needsPlacement == "no-position")
            // bcf-client writes its dates without an offset: not a time of capture.
            #expect(marker.capturedAt == nil)
            let description = topic["description"] as! String
            #expect(marker.note == (description.isEmpty ? topic["title"] as! String : "\(topic["title"] as! String)\n\n\(description)"))
            #expect(marker.category == topic["type"] as? String)
            #expect(marker.author == ((topic["author"] as? String) == "kim@acme.example" ? "kim" : topic["author"] as? String))
            let thread = try await fixture.store.comments(ofMarker: marker.number, in: fixture.drawing)
            let expected = (topic["comments"] as! [[String: String]]).map {
                ($0["author"] == "kim@acme.example" ? "kim" : $0["author"]!, $0["text"]!)
            }
            #expect(thread.map { "\($0.author ?? "-"): \($0.text)" } == expected.map { "\($0.0): \($0.1)" })
        }
        // Active and Major, Closed and Minor, in PlanMark's words; the centre (500, 400) is on the wall of both rooms.
        #expect(markers.suffix(2).map(\.status) == [.open, .closed])
        #expect(markers.suffix(2).map(\.priority) == [.high, .low])
        #expect(markers.suffix(2).map(\.rooms) == [["2.01", "2.02"], ["2.01", "2.02"]])
        // The history says who imported them.
        let created = try await fixture.store.history(of: fixture.drawing, number: 4).first
        #expect(created?.action == .created && created?.author == "ana")
        // The same file again stores nothing.
        let again = try await Self.importFile(path, into: fixture.store)
        #expect(again.stored.isEmpty && again.alreadyStored.count == 2 && again.comments == 0)
        #expect(try await fixture.markers().count == 5)
    }

    /// An export of a store imported into a new store (no users in it) gives the same markers: positions, fields, rooms,
    /// authors; and the same comments (the status changes are the status, not comments). A second import stores
    /// nothing.
    @Test(arguments: StoreKind.kinds, StoreKind.kinds)
    func anExportImportedIntoANewStoreGivesTheSameMarkers(from source: StoreKind, into target: StoreKind) async throws {
        let fixture = try await BCFFixture.make(source)
        let before = try await fixture.markers()
        for version in BCFVersion.allCases {
            let bytes = try await BCFExport(version: version).file(from: fixture.store, drawing: fixture.drawing, filter: MarkerFilter())
                .zip(date: Date())
            let path = fixture.folder.appendingPathComponent("round-\(version.rawValue).bcf").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let folder = try TestFolder.make("planmark-bcf-target")
            let store = try await target.store(in: folder)
            _ = try await store.addDrawing(NewDrawing(name: "Level 2", imagePath: fixture.imagePath), regions: BCFFixture.regions)
            let outcome = try await Self.importFile(path, into: store)
            #expect(outcome.stored.count == 3 && outcome.alreadyStored.isEmpty && outcome.comments == 1)
            var after: [Marker] = []
            try await store.forEachMarker(in: "Level 2", filter: MarkerFilter()) { after.append($0); return true }
            #expect(after.count == before.count)
            for (a, b) in zip(before, after) {
                #expect(a.uuid == b.uuid && a.number == b.number && a.position == b.position, "marker \(a.number), BCF \(version.rawValue)")
                #expect(a.status == b.status && a.note == b.note && a.category == b.category && a.priority == b.priority,
                        "marker \(a.number), BCF \(version.rawValue)")
                #expect(a.assignee == b.assignee && a.due == b.due && a.rooms == b.rooms && a.author == b.author,
                        "marker \(a.number), BCF \(version.rawValue)")
                #expect(a.capturedAt == b.capturedAt && a.ref == b.ref && a.needsPlacement == b.needsPlacement,
                        "marker \(a.number), BCF \(version.rawValue)")
                let threadA = try await fixture.store.comments(ofMarker: a.number, in: fixture.drawing).map { "\($0.author ?? "-"): \($0.text)" }
                let threadB = try await store.comments(ofMarker: b.number, in: "Level 2").map { "\($0.author ?? "-"): \($0.text)" }
                #expect(threadA == threadB, "marker \(a.number), BCF \(version.rawValue)")
            }
            let again = try await Self.importFile(path, into: store)
            #expect(again.stored.isEmpty && again.alreadyStored.count == 3)
        }
    }

    /// A topic of another tool keeps its creation date as the time of capture when the date has an offset (bcf-client's
    /// have none: see above); an import reads no snapshot when asked not to.
    @Test func anotherToolsCreationDateIsTheTimeOfCapture() async throws {
        let fixture = try await BCFFixture.make(.sqlite)
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let topics = [
            BCFTopic(guid: "0b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3", title: "Duct clash", creationDate: "2026-11-02T09:30:00+01:00",
                     creationAuthor: "ola@design.example", viewpoints: [BCFViewpoint(guid: "1b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3", snapshot: png)]),
            BCFTopic(guid: "2b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3", title: "No offset", creationDate: "2026-11-02T09:30:00",
                     creationAuthor: "ola@design.example"),
        ]
        let bytes = try BCFArchive(version: .v3_0, topics: topics).zip(date: Date())
        #expect(try BCFArchive(reading: bytes).topics[0].viewpoints.first?.snapshot == png)
        let archive = try BCFArchive(reading: bytes, snapshots: false)
        #expect(archive.topics[0].viewpoints.map(\.snapshot) == [nil])
        let items = try BCFImport.items(of: archive, drawing: try await fixture.store.drawingRecord(named: fixture.drawing), users: [])
        #expect(items.map { $0.marker.capturedAt?.text } == ["2026-11-02T09:30:00+01:00", nil])
        let outcome = try await fixture.store.importItems(into: fixture.drawing, items, author: nil)
        #expect(outcome.stored.map { $0.capturedAt?.text } == ["2026-11-02T09:30:00+01:00", nil])
        #expect(outcome.stored.map(\.note) == ["Duct clash", "No offset"])
    }

    /// A topic whose position is outside the allowed area refuses the whole import: nothing stored.
    @Test func aRefusedPositionStoresNothing() async throws {
        let fixture = try await BCFFixture.make(.sqlite)
        let bytes = try await BCFExport().file(from: fixture.store, drawing: fixture.drawing, filter: MarkerFilter()).zip(date: Date())
        var archive = try BCFArchive(reading: bytes)
        archive.topics[1].placement?.x = 10  // the allowed area starts at x = 20
        let folder = try TestFolder.make("planmark-bcf-target")
        let store = try await StoreKind.sqlite.store(in: folder)
        _ = try await store.addDrawing(NewDrawing(name: "Level 2", imagePath: fixture.imagePath), regions: BCFFixture.regions)
        let items = try BCFImport.items(of: archive, drawing: try await store.drawingRecord(named: "Level 2"), users: [])
        await #expect(throws: StoreError.self) { try await store.importItems(into: "Level 2", items, author: nil) }
        var count = 0
        try await store.forEachMarker(in: "Level 2", filter: MarkerFilter()) { _ in count += 1; return true }
        #expect(count == 0)
        #expect(try await store.history(of: "Level 2", number: nil).isEmpty)
    }
}
