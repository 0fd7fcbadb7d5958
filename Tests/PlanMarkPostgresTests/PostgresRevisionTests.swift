import PlanMarkGeometry
@testable import PlanMarkPostgres
import PlanMarkStore
import PlanMarkStoreTestSupport
import PostgresNIO
import Testing

/// The PostgreSQL store's drawing changes: regions replaced, rename, removal, calibration, revisions. Markers are
/// inserted with plain SQL (the marker methods are another part of the port) and read back the same way.
@Suite(.enabled(if: TestDatabases.required, "no PostgreSQL test cluster (PLANMARK_TEST_POSTGRES) and not CI"))
struct PostgresRevisionTests {
    /// A PNG signature and IHDR of `width` x `height`, then `tag` so that images of one size differ.
    static func png(width: Int, height: Int, tag: UInt8 = 0) -> [UInt8] {
        func be32(_ value: Int) -> [UInt8] { [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + be32(width) + be32(height)
            + [8, 2, 0, 0, 0, 0, 0, 0, 0, tag]
    }

    static func rectangle(_ id: String, _ kind: RegionKind, _ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double) throws -> Region {
        try Region(id: id, kind: kind, coordinates: [[[PixelPoint(x: minX, y: minY), PixelPoint(x: maxX, y: minY),
                                                      PixelPoint(x: maxX, y: maxY), PixelPoint(x: minX, y: maxY)]]])
    }

    /// A store with drawing "A" (400 x 300, allowed 10...390 x 10...290, rooms R1 x 10...200, R2 x 200...390) and
    /// markers 1 at (50, 50) in R1, 2 at (300, 100) in R2, 3 at (380, 280) in R2, created at 1000.
    static func storeWithMarkers(name: String = "A", tag: UInt8 = 0) async throws -> PostgresStore {
        let store = try await PostgresStore(url: try TestDatabases.fresh(), create: true)
        try await addDrawingWithMarkers(store, name: name, tag: tag)
        return store
    }

    static func addDrawingWithMarkers(_ store: PostgresStore, name: String, tag: UInt8 = 0) async throws {
        var new = NewDrawing(name: name, imagePath: "/nowhere/\(name).png")
        new.imageBytes = png(width: 400, height: 300, tag: tag)
        let drawing = try await store.addDrawing(new, regions: [
            try rectangle("A", .allowed, 10, 10, 390, 290), try rectangle("R1", .room, 10, 10, 200, 290), try rectangle("R2", .room, 200, 10, 390, 290),
        ])
        let id = drawing.id!
        try await store.write(lockDrawing: nil) { connection, logger in
            try await connection.query("""
                INSERT INTO marker (drawingId, number, x, y, status, rooms, createdAt, priority) VALUES
                    (\(id), 1, 50, 50, 0, '["R1"]', 1000, 1), (\(id), 2, 300, 100, 0, '["R2"]', 1000, 1), (\(id), 3, 380, 280, 0, '["R2"]', 1000, 1)
                """, logger: logger)
            try await connection.query("UPDATE drawing SET nextNumber = 4 WHERE id = \(id)", logger: logger)
        }
    }

    /// Each row of `sql` (one text column) as text.
    static func texts(_ store: PostgresStore, _ sql: String) async throws -> [String] {
        try await store.read { connection, logger in
            var result: [String] = []
            for try await (text) in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode(String?.self) {
                result.append(text ?? "NULL")
            }
            return result
        }
    }

    /// Every row of the tables a drawing change may touch, as JSON text.
    static func contents(_ store: PostgresStore) async throws -> [String] {
        var contents: [String] = []
        for table in ["drawing", "region", "marker", "history", "revision", "image", "attachment", "attachmentBlob"] {
            contents += try await texts(store, "SELECT '\(table): ' || row_to_json(t)::text FROM \(table) t ORDER BY row_to_json(t)::text")
        }
        return contents
    }

    /// Marker number, x, y, rooms and needsPlacement of drawing "A", by number.
    static func markers(_ store: PostgresStore, drawing: String = "A") async throws -> [String] {
        try await texts(store, """
            SELECT m.number || ' ' || m.x || ' ' || m.y || ' ' || m.rooms || ' ' || coalesce(m.needsPlacement, '-')
            FROM marker m JOIN drawing d ON d.id = m.drawingId WHERE d.name = '\(drawing)' ORDER BY m.number
            """)
    }

    /// History entries (number, action, author, old, new) of drawing "A", in order.
    static func history(_ store: PostgresStore) async throws -> [(Int, String, String?, MarkerState?, MarkerState?)] {
        try await store.read { connection, logger in
            var result: [(Int, String, String?, MarkerState?, MarkerState?)] = []
            for try await (number, action, author, old, new) in try await connection.query(
                "SELECT number, action, author, oldValue, newValue FROM history ORDER BY id", logger: logger
            ).decode((Int, String, String?, String?, String?).self) {
                result.append((number, action, author, old.flatMap(MarkerState.init(jsonText:)), new.flatMap(MarkerState.init(jsonText:))))
            }
            return result
        }
    }

    @Test func replaceRegionsRefusesMarkersOutsideThenForcesAndReassignsRooms() async throws {
        let store = try await Self.storeWithMarkers()
        // Allowed 0...250 (markers 2 and 3 fall outside), one room K over 0...100 x 0...300 (marker 1's).
        let regions = [try Self.rectangle("B", .allowed, 0, 0, 250, 300), try Self.rectangle("K", .room, 0, 0, 100, 300)]
        let before = try await Self.contents(store)
        await #expect(throws: StoreError.refused(.markersOutsideAllowedArea(drawing: "A", numbers: [2, 3]))) {
            try await store.replaceRegions(of: "A", with: regions, force: false, author: "ana")
        }
        await #expect(try Self.contents(store) == before)
        let result = try await store.replaceRegions(of: "A", with: regions, force: true, author: "ana")
        // 1: R1 -> K; 2 and 3: R2 -> none. All three change.
        #expect(result.regionCount == 2 && result.markersOutside == [2, 3] && result.markersReassigned == 3)
        #expect(try await Self.markers(store) == ["1 50 50 [\"K\"] -", "2 300 100 [] -", "3 380 280 [] -"])
        #expect(try await store.regions(of: "A") == regions)
        #expect(try await store.drawingRecord(named: "A").regionsRevision == 1)
        let entries = try await Self.history(store)
        #expect(entries.map(\.0) == [1, 2, 3] && entries.allSatisfy { $0.1 == "edited" && $0.2 == "ana" })
        #expect(entries[0].3?.rooms == ["R1"] && entries[0].4?.rooms == ["K"] && entries[0].4?.x == nil)
        #expect(entries[2].3?.rooms == ["R2"] && entries[2].4?.rooms == [])
        #expect(try await Self.texts(store, "SELECT (updatedAt IS NOT NULL AND updatedAt > 1000)::text FROM marker ORDER BY number") == ["true", "true", "true"])
        // The same regions again: no room changes, no history, but a new regions revision.
        let again = try await store.replaceRegions(of: "A", with: regions, force: true, author: nil)
        #expect(again.markersReassigned == 0)
        #expect(try await Self.history(store).count == 3)
        #expect(try await store.drawingRecord(named: "A").regionsRevision == 2)
        await #expect(throws: StoreError.unknownDrawing("B")) { try await store.replaceRegions(of: "B", with: [], force: true, author: nil) }
    }

    @Test func renameKeepsMarkersAndRefusesTakenNames() async throws {
        let store = try await Self.storeWithMarkers()
        try await Self.addDrawingWithMarkers(store, name: "B", tag: 1)
        await #expect(throws: StoreError.duplicateDrawing("B")) { try await store.renameDrawing("A", to: "B") }
        #expect(try await store.renameDrawing("A", to: "A").name == "A")
        let renamed = try await store.renameDrawing("A", to: "Level 2")
        let stored = try await store.drawingRecord(named: "Level 2")
        #expect(renamed.name == "Level 2" && renamed.id == stored.id)
        await #expect(throws: StoreError.unknownDrawing("A")) { try await store.drawingRecord(named: "A") }
        #expect(try await store.drawing(named: "Level 2").markerCount == 3)
        await #expect(throws: StoreError.self) { try await store.renameDrawing("Level 2", to: "") }
    }

    @Test func removeDrawingCascadesAndKeepsSharedBytes() async throws {
        let store = try await Self.storeWithMarkers()
        // B has the same image as A (tag 0), so the image row is shared.
        try await Self.addDrawingWithMarkers(store, name: "B", tag: 0)
        let a = try await store.drawingRecord(named: "A").id!
        let b = try await store.drawingRecord(named: "B").id!
        try await store.write(lockDrawing: nil) { connection, logger in
            try await connection.query("INSERT INTO attachmentBlob (sha256, bytes) VALUES ('x', '\\x01'), ('y', '\\x02')", logger: logger)
            try await connection.query("""
                INSERT INTO attachment (drawingId, number, sha256, size, contentType, createdAt) VALUES
                    (\(a), 1, 'x', 1, 'image/png', 1), (\(a), 2, 'y', 1, 'image/png', 1), (\(b), 1, 'y', 1, 'image/png', 1)
                """, logger: logger)
        }
        await #expect(throws: StoreError.refused(.drawingHasMarkers(drawing: "A", count: 3))) {
            try await store.removeDrawing("A", force: false)
        }
        let removal = try await store.removeDrawing("A", force: true)
        #expect(removal == DrawingRemoval(name: "A", markers: 3, attachments: 2))
        #expect(try await store.drawings().map(\.drawing.name) == ["B"])
        #expect(try await Self.texts(store, "SELECT sha256 FROM attachmentBlob ORDER BY sha256") == ["y"])
        #expect(try await Self.texts(store, "SELECT count(*)::text FROM marker") == ["3"])
        #expect(try await Self.texts(store, "SELECT count(*)::text FROM revision") == ["1"])
        #expect(try await store.image(of: "B").bytes == Self.png(width: 400, height: 300, tag: 0))
        _ = try await store.removeDrawing("B", force: true)
        #expect(try await Self.texts(store, "SELECT count(*)::text FROM image") == ["0"])
        #expect(try await Self.texts(store, "SELECT count(*)::text FROM attachmentBlob") == ["0"])
        await #expect(throws: StoreError.unknownDrawing("B")) { try await store.removeDrawing("B", force: true) }
    }

    @Test func calibrateStoresTheScale() async throws {
        let store = try await Self.storeWithMarkers()
        // 100 px is 5 m: 0.05 m per pixel.
        let calibration = Calibration.twoPoints(from: PixelPoint(x: 0, y: 0), to: PixelPoint(x: 100, y: 0), distance: 5, unit: .m)
        let drawing = try await store.calibrate("A", with: calibration)
        #expect(drawing.metresPerPixel == 0.05 && drawing.calibration == calibration)
        let stored = try await store.drawingRecord(named: "A")
        #expect(stored.metresPerPixel == 0.05 && stored.calibration == calibration)
        let same = Calibration.twoPoints(from: PixelPoint(x: 1, y: 1), to: PixelPoint(x: 1, y: 1), distance: 5, unit: .m)
        await #expect(throws: StoreError.self) { try await store.calibrate("A", with: same) }
        await #expect(throws: StoreError.unknownDrawing("Z")) { try await store.calibrate("Z", with: calibration) }
    }

    /// The sheet at twice the size: every marker doubled, rooms kept, one `revised` entry each, the image stored.
    @Test func reviseCarriesMarkersAndRecordsHistory() async throws {
        let store = try await Self.storeWithMarkers()
        let bytes = Self.png(width: 800, height: 600, tag: 9)
        let alignment = try Alignment.fit([AlignmentPair(from: PixelPoint(x: 0, y: 0), to: PixelPoint(x: 0, y: 0)),
                                           AlignmentPair(from: PixelPoint(x: 100, y: 0), to: PixelPoint(x: 200, y: 0))])
        let new = NewRevision(imagePath: "/nowhere/rev2.png", imageBytes: bytes, alignment: alignment)
        let before = try await Self.contents(store)
        let dry = try await store.reviseDrawing("A", new, dryRun: true, author: "ben")
        #expect(dry.dryRun && dry.carried == 3 && dry.revision.number == 2 && dry.unplaced.isEmpty)
        await #expect(try Self.contents(store) == before)
        let outcome = try await store.reviseDrawing("A", new, dryRun: false, author: "ben")
        #expect(outcome.revision.number == 2 && outcome.previous == 1 && outcome.carried == 3 && outcome.roomsChanged == 0 && !outcome.dryRun)
        #expect(try await Self.markers(store) == ["1 100 100 [\"R1\"] -", "2 600 200 [\"R2\"] -", "3 760 560 [\"R2\"] -"])
        let drawing = try await store.drawingRecord(named: "A")
        #expect(drawing.revision == 2 && drawing.width == 800 && drawing.height == 600 && drawing.regionsRevision == 1)
        #expect(try await store.image(of: "A").bytes == bytes)
        #expect(try await store.regions(of: "A").first { $0.id == "A" }?.bounds == BoundingBox(minX: 20, minY: 20, maxX: 780, maxY: 580))
        let revisions = try await store.revisions(of: "A")
        #expect(revisions.map(\.number) == [1, 2] && revisions[0].transform == nil && revisions[0].width == 400)
        #expect(revisions[1].transform == AffineMap(a: 2, b: 0, c: 0, d: 0, e: 2, f: 0) && revisions[1].author == "ben")
        let entries = try await Self.history(store)
        #expect(entries.map(\.0) == [1, 2, 3] && entries.allSatisfy { $0.1 == "revised" && $0.2 == "ben" })
        #expect(entries[1].3?.x == 300 && entries[1].3?.y == 100 && entries[1].3?.revision == 1)
        #expect(entries[1].4?.x == 600 && entries[1].4?.y == 200 && entries[1].4?.revision == 2 && entries[1].4?.rooms == ["R2"])
        #expect(try await store.markerPositions(of: "A", onRevision: 1) == [1: PixelPoint(x: 50, y: 50), 2: PixelPoint(x: 300, y: 100),
                                                                      3: PixelPoint(x: 380, y: 280)])
        #expect(try await store.markerPositions(of: "A", onRevision: 2)[3] == PixelPoint(x: 760, y: 560))
        let (first, image) = try await store.revisionImage(of: "A", revision: 1)
        #expect(first.number == 1 && image.bytes == Self.png(width: 400, height: 300, tag: 0))
        #expect(try await store.revisionImage(of: "A", revision: 2).1.bytes == bytes)
        await #expect(throws: StoreError.unknownRevision(drawing: "A", number: 3)) { try await store.revisionImage(of: "A", revision: 3) }
    }

    /// Shifted by +50 px on a sheet of the same size: marker 3 lands off the sheet, is kept there and flagged; a
    /// second revision back places it again.
    @Test func reviseFlagsMarkersOffTheSheetAndPlacesThemAgain() async throws {
        let store = try await Self.storeWithMarkers()
        let shift = Alignment(transform: .translation(dx: 50, dy: 0), residuals: [])
        let outcome = try await store.reviseDrawing("A", NewRevision(imagePath: "/nowhere/r2.png", imageBytes: Self.png(width: 400, height: 300, tag: 2),
                                                               alignment: shift), dryRun: false, author: nil)
        #expect(outcome.unplaced == [UnplacedMarker(number: 3, from: PixelPoint(x: 380, y: 280), to: PixelPoint(x: 430, y: 280),
                                                    reason: "outside-drawing")])
        // R2 went through the shift too (250...440): marker 3 keeps its room though it is off the 400 px sheet.
        #expect(try await Self.markers(store) == ["1 100 50 [\"R1\"] -", "2 350 100 [\"R2\"] -", "3 430 280 [\"R2\"] outside-drawing"])
        var entries = try await Self.history(store)
        #expect(entries[2].3?.needsPlacement == .clear && entries[2].4?.needsPlacement == .set("outside-drawing"))
        #expect(entries[0].3?.needsPlacement == .keep && entries[0].4?.needsPlacement == .keep)
        let back = Alignment(transform: .translation(dx: -50, dy: 0), residuals: [])
        let third = try await store.reviseDrawing("A", NewRevision(imagePath: "/nowhere/r3.png", imageBytes: Self.png(width: 400, height: 300, tag: 3),
                                                             alignment: back), dryRun: false, author: nil)
        #expect(third.revision.number == 3 && third.unplaced.isEmpty)
        #expect(try await Self.markers(store) == ["1 50 50 [\"R1\"] -", "2 300 100 [\"R2\"] -", "3 380 280 [\"R2\"] -"])
        entries = try await Self.history(store)
        #expect(entries.count == 6 && entries[5].3?.needsPlacement == .set("outside-drawing") && entries[5].4?.needsPlacement == .clear)
        #expect(try await store.markerPositions(of: "A", onRevision: 2)[3] == PixelPoint(x: 430, y: 280))
        #expect(try await Self.texts(store, "SELECT count(*)::text FROM image") == ["3"])
    }
}
