import Foundation
import GRDB
import PlanMarkGeometry
import PlanMarkPostgres
@testable import PlanMarkStore
@testable import PlanMarkSQLite
import PlanMarkStoreTestSupport
import PlanMarkTestSupport
import Testing

/// The kinds of store the behaviour tests run against: each case runs once per kind (as GRDB's tests run against
/// every kind of database). PostgreSQL needs `$PLANMARK_TEST_POSTGRES` (`.ci/run` starts a cluster and sets it);
/// under CI=true a missing cluster fails the PostgreSQL cases rather than skipping them.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }
}

/// Helpers shared by the store tests: temporary folders, PNG headers, a store with a drawing.
enum StoreFixtures {
    /// A fresh temporary folder.
    static func folder() throws -> URL {
        try TestFolder.make("planmark-store")
    }

    /// The first 33 bytes of a PNG of `width` x `height` (signature + IHDR chunk, CRC not checked by the store).
    static func pngHeader(width: UInt32, height: UInt32, chunkType: String = "IHDR", length: UInt32 = 13) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)] }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(length) + Array(chunkType.utf8) + be(width) + be(height)
            + [8, 2, 0, 0, 0] + [0, 0, 0, 0]
    }

    /// Writes a PNG header file and returns its path.
    static func png(in folder: URL, name: String = "plan.png", width: UInt32 = 400, height: UInt32 = 300) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(pngHeader(width: width, height: height)).write(to: url)
        return url.path
    }

    /// An axis-aligned rectangle region.
    static func rectangle(_ id: String, _ kind: RegionKind, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Region {
        try! Region(id: id, kind: kind, coordinates: [[[PixelPoint(x: x0, y: y0), PixelPoint(x: x1, y: y0),
                                                         PixelPoint(x: x1, y: y1), PixelPoint(x: x0, y: y1)]]])
    }

    /// On a 400 x 300 drawing: allowed area 10...390 x 10...290; rooms R1 (10...200) and R2 (200...390)
    /// sharing the wall x = 200.
    static let regions: [Region] = [
        rectangle("A", .allowed, 10, 10, 390, 290),
        rectangle("R1", .room, 10, 10, 200, 290),
        rectangle("R2", .room, 200, 10, 390, 290),
    ]

    /// The kinds every behaviour test runs against: both when a PostgreSQL test cluster is set or under CI.
    static let kinds: [StoreKind] = TestDatabases.required ? StoreKind.allCases : [.sqlite]

    /// A new, empty store of `kind` (SQLite in `folder`; PostgreSQL in a new database).
    static func store(_ kind: StoreKind, in folder: URL) async throws -> any AnnotationStore {
        switch kind {
        case .sqlite: return try SQLiteStore(path: folder.appendingPathComponent("store.sqlite").path, create: true)
        case .postgres: return try await PostgresStore(url: try TestDatabases.fresh(), create: true)
        }
    }

    /// A new store of `kind` in a new folder with drawing "A" (400 x 300, the regions above).
    static func storeWithDrawing(_ kind: StoreKind = .sqlite, singleMarker: Bool = false) async throws -> (any AnnotationStore, URL) {
        let folder = try folder()
        let store = try await store(kind, in: folder)
        _ = try await store.addDrawing(NewDrawing(name: "A", imagePath: try png(in: folder), singleMarker: singleMarker), regions: regions)
        return (store, folder)
    }

    /// A new SQLite store with drawing "A": for tests of SQLite itself (its migrations, its records).
    static func sqliteStoreWithDrawing() async throws -> (SQLiteStore, URL) {
        let (store, folder) = try await storeWithDrawing(.sqlite)
        return (store as! SQLiteStore, folder)
    }

    /// The same store opened again (its own connections), as another process would.
    static func reopen(_ store: any AnnotationStore) async throws -> any AnnotationStore {
        if let sqlite = store as? SQLiteStore { return try SQLiteStore(path: sqlite.path, create: false) }
        if let postgres = store as? PostgresStore { return try await PostgresStore(url: postgres.url, create: false) }
        throw TestDatabaseError("unknown store kind")
    }

    /// The first column of each row of `sql` as text, read directly from either kind of store.
    static func texts(_ store: any AnnotationStore, _ sql: String) async throws -> [String?] {
        if let sqlite = store as? SQLiteStore {
            return try await sqlite.read { db in
                try Row.fetchAll(db, sql: sql).map { row -> String? in
                    let value: DatabaseValue = row[0]
                    switch value.storage {
                    case .null: return nil
                    case .int64(let number): return String(number)
                    case .double(let number): return String(number)
                    case .string(let text): return text
                    case .blob(let data): return "\\x" + data.map { String(format: "%02x", $0) }.joined()
                    }
                }
            }
        }
        if let postgres = store as? PostgresStore { return try await postgres.texts(sql) }
        throw TestDatabaseError("unknown store kind")
    }

    /// Every row of `table` as text, ordered by `order`: to compare a store's contents before and after.
    static func rows(_ store: any AnnotationStore, _ table: String, order: String) async throws -> [String] {
        if let sqlite = store as? SQLiteStore {
            return try await sqlite.read { db in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY \(order)").map(\.description) }
        }
        if let postgres = store as? PostgresStore {
            return try await postgres.texts("SELECT t::text FROM \(table) t ORDER BY \(order)").map { $0 ?? "NULL" }
        }
        throw TestDatabaseError("unknown store kind")
    }

    /// The integer `sql` selects (one row, one column), from either kind of store.
    static func int(_ store: any AnnotationStore, _ sql: String) async throws -> Int? {
        try await texts(store, sql).first.flatMap { $0 }.flatMap { Int($0) }
    }

    /// Runs one statement directly on either kind of store (for tests that damage a store on purpose).
    static func execute(_ store: any AnnotationStore, _ sql: String) async throws {
        if let sqlite = store as? SQLiteStore { return try await sqlite.write { db in try db.execute(sql: sql) } }
        if let postgres = store as? PostgresStore { return try await postgres.execute(sql) }
        throw TestDatabaseError("unknown store kind")
    }

    /// The fields a marker's whole state had before punch items (position, status, note, rooms), the
    /// rest dropped: for tests about those fields.
    static func basic(_ state: MarkerState?) -> MarkerState? {
        state.map { MarkerState(x: $0.x, y: $0.y, status: $0.status, note: $0.note, rooms: $0.rooms) }
    }

    /// Row counts of the tables, to check that a refused operation wrote nothing.
    static func counts(_ store: any AnnotationStore) async throws -> [Int] {
        var counts: [Int] = []
        for table in ["drawing", "region", "marker", "history", "attachment", "attachmentBlob"] {
            counts.append(try await int(store, "SELECT count(*) FROM \(table)") ?? -1)
        }
        return counts + [try await int(store, "SELECT CAST(coalesce(sum(nextNumber), 0) AS bigint) FROM drawing") ?? 0]
    }
}
