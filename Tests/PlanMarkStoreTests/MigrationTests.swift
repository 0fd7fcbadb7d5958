import Foundation
import GRDB
import Testing
@testable import PlanMarkStore
@testable import PlanMarkSQLite

/// Opening stores written by older and newer schemas.
@Suite struct MigrationTests {
    /// A store made by the first migration only (with a drawing and a marker written by hand in v1's
    /// columns) opens, is upgraded to the latest schema, and keeps its data.
    @Test func firstMigrationStoreUpgrades() async throws {
        let folder = try StoreFixtures.folder()
        let path = folder.appendingPathComponent("old.sqlite").path
        do {
            let old = try SQLiteStore(path: path, create: true, migrateUpTo: StoreSchema.v1)
            #expect(try await old.appliedMigrations() == [StoreSchema.v1])
            try await old.write { db in
                try db.execute(sql: """
                    INSERT INTO drawing (name, imagePath, imageSHA256, width, height, zoom, crs, singleMarker, nextNumber, createdAt)
                    VALUES ('Old', '/x.png', 'ab', 100, 50, 3, 'flutter', 0, 2, 1704067200000);
                    INSERT INTO marker (drawingId, number, x, y, status, note, author, rooms, createdAt, updatedAt)
                    VALUES (1, 1, 4.5, 6, 'open', 'n', 'me', '["R"]', 1704067200000, 1704067200000);
                    """)
            }
            await #expect(throws: (any Error).self) { try await old.read { db in try Row.fetchAll(db, sql: "SELECT regionsRevision FROM drawing") } }
        }
        let store = try SQLiteStore(path: path, create: false)
        #expect(try await store.appliedMigrations() == [StoreSchema.v1, StoreSchema.v2, StoreSchema.v3, StoreSchema.v4, StoreSchema.v5, StoreSchema.v6, StoreSchema.v7, StoreSchema.v8,
                                                StoreSchema.v9, StoreSchema.v10, StoreSchema.v11, StoreSchema.v12, StoreSchema.v13, StoreSchema.v14, StoreSchema.v15,
                                                StoreSchema.v16])
        // v2 made the index of markers by status, v4 dropped it.
        #expect(try await store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master WHERE name = 'marker_status'") } == 0)
        let summary = try await store.drawing(named: "Old")
        #expect(summary.drawing.width == 100 && summary.drawing.height == 50)
        #expect(summary.drawing.zoom == 3 && summary.drawing.crs == .flutter)
        #expect(summary.drawing.regionsRevision == 0)
        #expect(summary.markerCount == 1)
        // v10 put it in the project every store has.
        #expect(summary.project == "default")
        #expect(try await store.projects().map(\.name) == ["default"])
        let marker = try await store.marker(1, in: "Old")
        #expect(marker.position.x == 4.5 && marker.rooms == ["R"] && marker.note == "n")
        #expect(marker.createdAt.text == "2024-01-01T00:00:00.000Z")
        // The next marker continues the counter.
        #expect(try await store.addMarker(to: "Old", at: .init(x: 1, y: 1), note: nil, author: nil).number == 2)
    }

    /// A store with a migration this binary does not know is refused, and left untouched.
    @Test func newerStoreIsRefused() async throws {
        let folder = try StoreFixtures.folder()
        let path = folder.appendingPathComponent("new.sqlite").path
        do {
            let store = try SQLiteStore(path: path, create: true)
            try await store.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')") }
        }
        #expect(throws: StoreError.newerSchema(path: path, unknownMigrations: ["v99-from-the-future"])) {
            try SQLiteStore(path: path, create: false)
        }
        let queue = try DatabaseQueue(path: path)
        let identifiers = try await queue.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier") }
        #expect(identifiers == ([StoreSchema.v1, StoreSchema.v2, StoreSchema.v3, StoreSchema.v4, StoreSchema.v5, StoreSchema.v6, StoreSchema.v7, StoreSchema.v8,
                                StoreSchema.v9, StoreSchema.v10, StoreSchema.v11, StoreSchema.v12, StoreSchema.v13, StoreSchema.v14, StoreSchema.v15, StoreSchema.v16,
                                "v99-from-the-future"]).sorted())
        #expect(StoreError.newerSchema(path: "s", unknownMigrations: ["v9"]).description.contains("newer planmark"))
    }

    /// An SQLite file that is not a PlanMark store is refused, not migrated.
    @Test func foreignDatabaseIsRefused() async throws {
        let folder = try StoreFixtures.folder()
        let path = folder.appendingPathComponent("other.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try await queue.write { try $0.execute(sql: "CREATE TABLE t (a)") }
        #expect(throws: StoreError.refused(.notAStore(location: path, kind: "an SQLite database"))) {
            try SQLiteStore(path: path, create: false)
        }
        let tables = try await queue.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master") }
        #expect(tables == ["t"])
    }

    /// A file that is not SQLite at all is an I/O error; a missing one is `missingStore` unless created.
    @Test func notADatabaseAndMissing() async throws {
        let folder = try StoreFixtures.folder()
        let path = folder.appendingPathComponent("text.sqlite").path
        try Data(repeating: 65, count: 4096).write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreError.io("\(path): not an SQLite database")) { try SQLiteStore(path: path, create: false) }
        let missing = folder.appendingPathComponent("missing.sqlite").path
        #expect(throws: StoreError.missingStore(path: missing)) { try SQLiteStore(path: missing, create: false) }
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    /// The store runs in WAL mode with foreign keys on.
    @Test func walMode() async throws {
        let (store, _) = try await StoreFixtures.sqliteStoreWithDrawing()
        let mode = try await store.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }
}
