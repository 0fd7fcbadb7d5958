import Foundation
import GRDB
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkTestSupport
import Testing
@testable import PlanMarkStore
@testable import PlanMarkSQLite

/// All-or-nothing changes, exact text, images kept in the store, zoom range, a lock held too long.
@Suite struct StoreHardeningTests {
    // MARK: One change, one transaction

    /// A change whose position is refused changes nothing else either: status and note stay, no history.
    @Test(arguments: StoreFixtures.kinds) func refusedPositionLeavesStatusAndNoteUnchanged(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 60), note: "crack", author: "ana")
        let before = try await StoreFixtures.counts(store)
        let change = MarkerChange(position: PixelPoint(x: 5, y: 5), status: .closed, note: .set("fixed"))
        await #expect(throws: StoreError.invalidMarker(reason: .outsideAllowedArea, position: PixelPoint(x: 5, y: 5))) {
            try await store.updateMarker(1, in: "A", change, author: "bo")
        }
        let marker = try await store.marker(1, in: "A")
        #expect(marker.status == .open && marker.note == "crack" && marker.position == PixelPoint(x: 50, y: 60))
        #expect(try await StoreFixtures.counts(store) == before)
        #expect(try await store.history(of: "A", number: 1).map(\.action) == [.created])
    }

    /// Every field at once: one history entry holding every old and new value, the absent note as null.
    @Test(arguments: StoreFixtures.kinds) func oneChangeIsOneHistoryEntry(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 60), note: nil, author: "ana")
        let change = MarkerChange(position: PixelPoint(x: 300, y: 100), status: .closed, note: .set("done"))
        let marker = try await store.updateMarker(1, in: "A", change, author: "bo")
        #expect(marker.position == PixelPoint(x: 300, y: 100) && marker.rooms == ["R2"])
        #expect(marker.status == .closed && marker.note == "done")
        let history = try await store.history(of: "A", number: 1)
        #expect(history.count == 2)
        let entry = try #require(history.last)
        #expect(entry.action == .resolved && entry.author == "bo")
        #expect(entry.old?.jsonText == #"{"x":50,"y":60,"status":"open","note":null,"rooms":["R1"]}"#)
        #expect(entry.new?.jsonText == #"{"x":300,"y":100,"status":"closed","note":"done","rooms":["R2"]}"#)
    }

    /// A change that changes nothing writes nothing.
    @Test(arguments: StoreFixtures.kinds) func unchangedFieldsWriteNoHistory(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 60), note: "n", author: nil)
        let before = try await StoreFixtures.counts(store)
        _ = try await store.updateMarker(1, in: "A", MarkerChange(position: PixelPoint(x: 50, y: 60), status: .open, note: .set("n")), author: nil)
        #expect(try await StoreFixtures.counts(store) == before)
    }

    /// Clearing a note records the old text and the new null; the old null of a first note is exact too.
    @Test(arguments: StoreFixtures.kinds) func historyRecordsNullNotesExactly(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 60), note: nil, author: nil)
        _ = try await store.setNote("first", ofMarker: 1, in: "A", author: nil)
        _ = try await store.setNote(nil, ofMarker: 1, in: "A", author: nil)
        let history = try await store.history(of: "A", number: 1)
        #expect(history.map(\.action) == [.created, .edited, .edited])
        #expect(history[1].old?.jsonText == #"{"note":null}"# && history[1].new?.jsonText == #"{"note":"first"}"#)
        #expect(history[2].old?.jsonText == #"{"note":"first"}"# && history[2].new?.jsonText == #"{"note":null}"#)
        // Read back from its JSON text, a null note stays a null note (not "no note recorded").
        #expect(MarkerState(jsonText: #"{"note":null}"#)?.note == .clear)
        #expect(MarkerState(jsonText: #"{"x":1}"#)?.note == .keep)
    }

    /// Racing changes of one marker from several threads: each either applied whole or not at all, and
    /// the history holds one entry per applied change whose new values are the marker's state then.
    @Test(arguments: StoreFixtures.kinds) func racingChangesAreEachWholeOrAbsent(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 60), note: nil, author: nil)
        // Even workers move inside R1 with a note; odd workers try a refused position with a note.
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    let position = worker % 2 == 0 ? PixelPoint(x: 20 + Double(worker), y: 30) : PixelPoint(x: 1, y: 1)
                    let change = MarkerChange(position: position, status: worker % 4 == 0 ? .closed : .open, note: .set("w\(worker)"))
                    return (try? await store.updateMarker(1, in: "A", change, author: "w\(worker)")) != nil
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 4)
        let history = try await store.history(of: "A", number: 1).dropFirst()
        #expect(history.count == 4)
        for entry in history {
            let author = try #require(entry.author)
            let worker = try #require(Int(author.dropFirst()))
            #expect(worker % 2 == 0, "a refused change wrote history: \(author)")
            #expect(entry.new?.x == nil || entry.new?.x == 20 + Double(worker))
            #expect(entry.new?.note == .keep || entry.new?.note == .set("w\(worker)"))
        }
        let marker = try await store.marker(1, in: "A")
        #expect(marker.position.y == 30 && [20, 22, 24, 26].contains(marker.position.x))
        #expect(marker.note == "w\(Int(marker.position.x) - 20)")
    }

    // MARK: Exact text

    @Test(arguments: StoreFixtures.kinds, ["note", "author"])
    func textWithNULIsRefusedAndNothingStored(kind: StoreKind, field: String) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        let before = try await StoreFixtures.counts(store)
        await #expect(throws: StoreError.invalidText(field: field, problem: "contains a NUL character")) {
            try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 60), note: field == "note" ? "a\u{0}b" : "a",
                                author: field == "author" ? "x\u{0}" : nil)
        }
        #expect(try await StoreFixtures.counts(store) == before)
    }

    @Test(arguments: StoreFixtures.kinds) func noteWithNULIsRefusedOnChange(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 60), note: "kept", author: nil)
        await #expect(throws: StoreError.invalidText(field: "note", problem: "contains a NUL character")) {
            try await store.setNote("cut\u{0}here", ofMarker: 1, in: "A", author: nil)
        }
        #expect(try await store.marker(1, in: "A").note == "kept")
    }

    /// Names with control characters (or empty) are refused before anything is written.
    @Test(arguments: StoreFixtures.kinds, [
        ("Level\u{0}2", "contains the control character U+0000"),
        ("tab\there", "contains the control character U+0009"),
        ("bell\u{7}", "contains the control character U+0007"),
        ("del\u{7F}", "contains the control character U+007F"),
        ("c1\u{85}", "contains the control character U+0085"),
        ("", "is empty"),
    ])
    func drawingNamesWithControlCharactersAreRefused(kind: StoreKind, _ arguments: (String, String)) async throws {
        let (name, problem) = arguments
        let (store, folder) = try await StoreFixtures.storeWithDrawing(kind)
        let before = try await StoreFixtures.counts(store)
        await #expect(throws: StoreError.invalidText(field: "name", problem: problem)) {
            try await store.addDrawing(NewDrawing(name: name, imagePath: try StoreFixtures.png(in: folder, name: "b.png")), regions: [])
        }
        #expect(try await StoreFixtures.counts(store) == before)
    }

    /// A name with text after a NUL does not find the drawing named by the text before it.
    @Test(arguments: StoreFixtures.kinds) func nameWithNULFindsNothing(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        await #expect(throws: StoreError.unknownDrawing("A\u{0}garbage")) { try await store.drawing(named: "A\u{0}garbage") }
        await #expect(throws: StoreError.unknownDrawing("A\u{0}")) { try await store.marker(1, in: "A\u{0}") }
    }

    /// Text that is not ASCII, and text with tabs and newlines, is stored and read back byte for byte.
    @Test(arguments: StoreFixtures.kinds) func unusualTextRoundTrips(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        let note = "Riss\tin der Wand\nÉtage 2 — 日本 🧱 \u{FEFF}"
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 60), note: note, author: "Zoë")
        let marker = try await store.marker(1, in: "A")
        #expect(Array(marker.note!.utf8) == Array(note.utf8) && marker.author == "Zoë")
    }

    // MARK: The image a drawing was added with

    /// The store keeps the bytes: replacing or deleting the file afterwards changes nothing served.
    @Test func imageBytesAreKeptInTheStore() async throws {
        let folder = try StoreFixtures.folder()
        let path = try StoreFixtures.png(in: folder, width: 7, height: 5)
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let store = try SQLiteStore(path: folder.appendingPathComponent("s.sqlite").path, create: true)
        let drawing = try await store.addDrawing(NewDrawing(name: "P", imagePath: path), regions: [])
        #expect(drawing.imageSHA256 == sha256sum(original))
        try Data(StoreFixtures.pngHeader(width: 9, height: 9)).write(to: URL(fileURLWithPath: path))
        var image = try await store.image(of: "P")
        #expect(image.bytes == original && image.sha256 == drawing.imageSHA256)
        try FileManager.default.removeItem(atPath: path)
        image = try await store.image(of: "P")
        #expect(image.bytes == original)
        // Two drawings with the same image share one copy.
        try Data(original).write(to: URL(fileURLWithPath: path))
        _ = try await store.addDrawing(NewDrawing(name: "Q", imagePath: path), regions: [])
        #expect(try await store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM image") } == 1)
    }

    /// Bytes handed over by the caller (already read and checked) are the ones stored, not the file's.
    @Test func givenBytesAreStored() async throws {
        let folder = try StoreFixtures.folder()
        let bytes = StoreFixtures.pngHeader(width: 3, height: 2)
        let store = try SQLiteStore(path: folder.appendingPathComponent("s.sqlite").path, create: true)
        let drawing = try await store.addDrawing(NewDrawing(name: "P", imagePath: "/nonexistent/p.png", imageBytes: bytes), regions: [])
        #expect(drawing.width == 3 && drawing.height == 2)
        #expect(try await store.image(of: "P").bytes == bytes)
    }

    /// A store from before images were kept: the migration copies an unchanged file in; a drawing whose
    /// file changed is refused with `imageChanged` rather than served under its old SHA-256.
    @Test func migrationCopiesUnchangedImagesAndRefusesChangedOnes() async throws {
        let folder = try StoreFixtures.folder()
        let path = folder.appendingPathComponent("old.sqlite").path
        let same = try StoreFixtures.png(in: folder, name: "same.png", width: 4, height: 4)
        let changed = try StoreFixtures.png(in: folder, name: "changed.png", width: 6, height: 6)
        let sameBytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: same)))
        let changedBytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: changed)))
        do {
            let old = try SQLiteStore(path: path, create: true, migrateUpTo: StoreSchema.v2)
            try await old.write { db in
                try db.execute(sql: """
                    INSERT INTO drawing (name, imagePath, imageSHA256, width, height, createdAt) VALUES (?, ?, ?, 4, 4, 0), (?, ?, ?, 6, 6, 0)
                    """, arguments: ["S", same, sha256sum(sameBytes), "C", changed, sha256sum(changedBytes)])
            }
        }
        try Data(StoreFixtures.pngHeader(width: 8, height: 8)).write(to: URL(fileURLWithPath: changed))
        let store = try SQLiteStore(path: path, create: false)
        #expect(try await store.image(of: "S").bytes == sameBytes)
        try FileManager.default.removeItem(atPath: same)
        #expect(try await store.image(of: "S").bytes == sameBytes)
        await #expect(throws: StoreError.imageChanged(drawing: "C", path: changed)) { try await store.image(of: "C") }
    }

    // MARK: Zoom range and a lock held too long

    @Test(arguments: [(64.0, true), (-64, true), (64.5, false), (-65, false), (5000, false), (.infinity, false), (.nan, false)])
    func zoomOutsideTheRangeIsRefused(zoom: Double, accepted: Bool) async throws {
        let folder = try StoreFixtures.folder()
        let store = try SQLiteStore(path: folder.appendingPathComponent("s.sqlite").path, create: true)
        let new = NewDrawing(name: "Z", imagePath: try StoreFixtures.png(in: folder), zoom: Zoom(zoom))
        if accepted {
            #expect(try await store.addDrawing(new, regions: []).zoom == Zoom(zoom))
        } else {
            await #expect(throws: StoreError.self) { try await store.addDrawing(new, regions: []) }
            #expect(try await store.drawings().isEmpty)
        }
    }

    /// Another connection holds the write lock: a writer gives up after its busy timeout with `busy`.
    @Test func lockHeldTooLongIsBusy() async throws {
        let (store, folder) = try await StoreFixtures.sqliteStoreWithDrawing()
        let path = folder.appendingPathComponent("store.sqlite").path
        let impatient = try SQLiteStore(path: path, create: false, busyTimeout: 0.2)
        // The holder's transaction stays open across two database accesses (the store's writer is awaited between them).
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let holder = try DatabaseQueue(path: path, configuration: configuration)
        try holder.inDatabase { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        await #expect(throws: StoreError.busy(path: path, seconds: 1)) {
            try await impatient.addMarker(to: "A", at: PixelPoint(x: 50, y: 60), note: nil, author: nil)
        }
        try holder.inDatabase { db in try db.execute(sql: "ROLLBACK") }
        #expect(try await impatient.addMarker(to: "A", at: PixelPoint(x: 50, y: 60), note: nil, author: nil).number == 1)
        _ = store
    }
}
