import Foundation
import GRDB
import PlanMarkFormats
import PlanMarkGeometry
import Testing
@testable import PlanMarkStore
@testable import PlanMarkSQLite

/// Migration v9 (smaller marker rows): a store made as an older PlanMark made it (SQLite's default 4 KiB
/// pages, every migration up to v8, markers written at v6), keeps every marker exactly, and columns and indexes
/// added before it (v7's `needsPlacement`, and one more with a CHECK) survive the rebuild. Expected values are written out by hand from the rows inserted below.
@Suite struct SmallerRowsMigrationTests {
    /// 2024-01-01T00:00:00Z and one minute later, in milliseconds.
    static let t0: Int64 = 1_704_067_200_000
    static let t1: Int64 = 1_704_067_260_000

    /// A store with drawing "P" and six markers written at v6 (every status and priority, `updatedAt` equal to
    /// `createdAt` and not), migrated to v8, with one marker flagged `needsPlacement`, plus a column and an index
    /// that a migration might have added to the marker table.
    static func v6Store() throws -> String {
        let path = try StoreFixtures.folder().appendingPathComponent("v6.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try StoreSchema.migrator.migrate(queue, upTo: StoreSchema.v6)
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO drawing (name, imagePath, imageSHA256, width, height, nextNumber, createdAt, uuidSeed)
                VALUES ('P', '/x.png', 'ab', 400, 300, 7, \(t0), 12345);
                INSERT INTO marker (drawingId, number, x, y, status, note, author, rooms, createdAt, updatedAt, uuid, ref, category,
                                    priority, assignee, due, capturedAt) VALUES
                  (1, 1, 10.5, 20, 'open', NULL, NULL, '["R1"]', \(t0), \(t0), NULL, NULL, NULL, 'normal', NULL, NULL, NULL),
                  (1, 2, 30, 40.25, 'in-progress', 'a "note", with (commas)', 'ana', '[]', \(t0), \(t1),
                   '0b4f2a7e-1c3d-4e5f-8a9b-0c1d2e3f4a5b', 'ext-2', 'paint', 'low', 'ben', '2026-12-01', '2026-11-01T10:00:00Z'),
                  (1, 3, 50, 60, 'ready', NULL, 'cy', '["R1","R2"]', \(t0), \(t1), NULL, NULL, NULL, 'high', NULL, NULL, NULL),
                  (1, 4, 70, 80, 'closed', 'done', NULL, '["R2"]', \(t1), \(t1 + 5), NULL, NULL, NULL, 'critical', NULL, NULL, NULL),
                  (1, 5, 90, 100, 'void', NULL, NULL, '[]', \(t1), \(t1), NULL, NULL, NULL, 'normal', NULL, NULL, NULL),
                  (1, 6, 110.125, 120, 'open', NULL, NULL, '[]', \(t0), \(t0), NULL, NULL, NULL, 'low', NULL, '2027-01-31', NULL);
                """)
        }
        try StoreSchema.migrator.migrate(queue, upTo: StoreSchema.v8)
        try queue.write { db in
            try db.execute(sql: """
                ALTER TABLE marker ADD COLUMN extra TEXT CHECK (extra IS NULL OR length(extra) > 0);
                UPDATE marker SET needsPlacement = 'outside-drawing', extra = 'kept' WHERE number = 3;
                CREATE INDEX marker_unplaced ON marker(drawingId, number) WHERE needsPlacement IS NOT NULL;
                """)
        }
        try queue.close()
        return path
    }

    /// Every column v9 does not change, row by row.
    static let keptColumns = "drawingId, number, x, y, note, author, rooms, createdAt, uuid, ref, category, assignee, due, capturedAt, needsPlacement, extra"

    static func keptRows(_ db: Database) throws -> [[DatabaseValue]] {
        try Row.fetchAll(db, sql: "SELECT \(keptColumns) FROM marker ORDER BY number").map { Array($0.databaseValues) }
    }

    @Test func v6StoreKeepsEveryMarkerExactly() async throws {
        let path = try Self.v6Store()
        let before = try DatabaseQueue(path: path)
        let kept = try await before.read(Self.keptRows)
        #expect(kept.count == 6)
        try before.close()

        let store = try SQLiteStore(path: path, create: false)
        #expect(try await store.appliedMigrations().last == StoreSchema.identifiers.last)
        var markers: [Marker] = []
        try await store.forEachMarker(in: "P", filter: MarkerFilter()) { markers.append($0); return true }
        #expect(markers.map(\.number) == [1, 2, 3, 4, 5, 6])
        #expect(markers.map(\.status) == [.open, .inProgress, .ready, .closed, .void, .open])
        #expect(markers.map(\.priority) == [.normal, .low, .high, .critical, .normal, .low])
        #expect(markers.map(\.createdAt.milliseconds) == [Self.t0, Self.t0, Self.t0, Self.t1, Self.t1, Self.t0])
        #expect(markers.map(\.updatedAt.milliseconds) == [Self.t0, Self.t1, Self.t1, Self.t1 + 5, Self.t1, Self.t0])
        #expect(markers[1].note == #"a "note", with (commas)"# && markers[1].author == "ana" && markers[1].ref == "ext-2")
        #expect(markers[1].uuid.text == "0b4f2a7e-1c3d-4e5f-8a9b-0c1d2e3f4a5b" && !markers[1].uuidIsDerived)
        #expect(markers[1].category == "paint" && markers[1].assignee == "ben" && markers[1].due?.text == "2026-12-01")
        #expect(markers[1].capturedAt?.text == "2026-11-01T10:00:00Z")
        #expect(markers[0].position == PixelPoint(x: 10.5, y: 20) && markers[0].rooms == ["R1"] && markers[0].uuidIsDerived)
        #expect(markers[2].rooms == ["R1", "R2"] && markers[5].due?.text == "2027-01-31")
        // One marker read alone (GRDB's record decoding) reads the same.
        #expect(try await store.marker(4, in: "P") == markers[3])
        #expect(try await store.marker(1, in: "P") == markers[0])

        // Stored: codes, and updatedAt NULL where it was createdAt; every other column as it was, the added one too.
        try await store.read { db in
            let stored = try Row.fetchAll(db, sql: "SELECT status, priority, updatedAt FROM marker ORDER BY number")
            #expect(stored.map { $0[0] as Int64 } == [0, 1, 2, 3, 4, 0])
            #expect(stored.map { $0[1] as Int64 } == [1, 0, 2, 3, 1, 0])
            #expect(stored.map { $0[2] as Int64? } == [nil, Self.t1, Self.t1, Self.t1 + 5, nil, nil])
            #expect(try Self.keptRows(db) == kept)
            // The table is still WITHOUT ROWID, its indexes (the uuid index and the added one) are back, and v13 added the cursors' one.
            let table = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'marker'") ?? ""
            #expect(table.hasSuffix("WITHOUT ROWID"))
            #expect(table.contains("needsPlacement TEXT") && table.contains("extra TEXT CHECK (extra IS NULL OR length(extra) > 0)"))
            let indexes = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'marker' AND sql IS NOT NULL ORDER BY name")
            #expect(indexes == ["marker_cursor", "marker_unplaced", "marker_uuid"])
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE name = 'marker_v9'") == 0)
            // An existing store keeps its pages (SQLite's default 4096 bytes when it was made).
            #expect(try Int.fetchOne(db, sql: "PRAGMA page_size") == 4096)
        }
    }

    @Test func v9ChecksRefuseWordsAndUnknownCodes() async throws {
        let store = try SQLiteStore(path: try Self.v6Store(), create: false)
        for (column, value) in [("status", "5"), ("status", "'open'"), ("priority", "4"), ("priority", "'normal'"), ("priority", "-1")] {
            await #expect(throws: (any Error).self) {
                try await store.write { db in try db.execute(sql: "UPDATE marker SET \(column) = \(value) WHERE number = 1") }
            }
        }
        // The uuid index is still unique.
        await #expect(throws: (any Error).self) {
            try await store.write { db in
                try db.execute(sql: "UPDATE marker SET uuid = '0b4f2a7e-1c3d-4e5f-8a9b-0c1d2e3f4a5b' WHERE number = 1")
            }
        }
    }

    /// A marker stored by this version: codes 0 and 1 (no payload bytes) and no updatedAt until it changes.
    @Test func newMarkersAreStoredSmall() async throws {
        let (store, _) = try await StoreFixtures.sqliteStoreWithDrawing()
        let added = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 50), note: nil, author: nil)
        var source = MarkerRowList([MarkerRow(id: "a", line: 2, position: PixelPoint(x: 60, y: 60)),
                                    MarkerRow(id: "b", line: 3, position: PixelPoint(x: 70, y: 70))])
        let outcome = try await store.importMarkers(into: "A", from: &source, skipInvalid: false, author: nil)
        #expect(outcome.stored == 2)
        try await store.read { db in
            // A new store has 4 KiB pages (SQLiteStore.newStorePageSize).
            #expect(try Int.fetchOne(db, sql: "PRAGMA page_size") == 4096)
            let rows = try Row.fetchAll(db, sql: "SELECT typeof(status), status, typeof(priority), priority, updatedAt FROM marker ORDER BY number")
            #expect(rows.map { $0[0] as String } == ["integer", "integer", "integer"])
            #expect(rows.map { $0[1] as Int64 } == [0, 0, 0] && rows.map { $0[3] as Int64 } == [1, 1, 1])
            #expect(rows.map { $0[4] as Int64? } == [nil, nil, nil])
        }
        let reread = try await store.marker(1, in: "A")
        #expect(reread == added && reread.updatedAt == reread.createdAt)
        let imported = try await store.marker(2, in: "A")
        #expect(imported.status == .open && imported.priority == .normal && imported.updatedAt == imported.createdAt)
        // A change stores the codes of the new values, read back as such.
        let changed = try await store.updateMarker(2, in: "A", MarkerChange(status: .ready, priority: .critical), author: nil)
        #expect(try await store.marker(2, in: "A") == changed)
        #expect(try await store.read { try Int64.fetchOne($0, sql: "SELECT status * 10 + priority FROM marker WHERE number = 2") } == 23)
        var filtered: [Int] = []
        try await store.forEachMarker(in: "A", filter: MarkerFilter(statuses: [.ready], priorities: [.critical])) { filtered.append($0.number); return true }
        #expect(filtered == [2])
    }

    @Test func tableDefinitionSplitsAtTopLevelCommasOnly() async throws {
        let sql = #"CREATE TABLE "marker" (a INTEGER NOT NULL CHECK (a IN (1, 2)), "b,c" TEXT DEFAULT 'x,(y', [d] REAL, PRIMARY KEY (a, "b,c")) WITHOUT ROWID"#
        let parts = try #require(SQLTableDefinition(sql))
        #expect(parts.items == ["a INTEGER NOT NULL CHECK (a IN (1, 2))", #""b,c" TEXT DEFAULT 'x,(y'"#, "[d] REAL", #"PRIMARY KEY (a, "b,c")"#])
        #expect(parts.suffix == " WITHOUT ROWID")
        #expect(parts.items.map(SQLTableDefinition.columnName) == ["a", "b,c", "d", nil])
        #expect(SQLTableDefinition("CREATE TABLE t (a, (b)") == nil)
    }
}
