import PlanMarkStore
import GRDB
import GRDBSQLite
import PlanMarkFormats
import PlanMarkGeometry

extension SQLiteStore {
    /// One marker.
    public func marker(_ number: Int, in name: String) async throws(StoreError) -> Marker {
        try await read { db in
            let drawing = try Self.fetchDrawing(db, named: name)
            return try Self.fetchMarker(db, drawing, number)
        }
    }

    /// Calls `body` with each marker `filter` takes, by number, until it returns false. Reads one snapshot.
    ///
    /// Statuses and priorities are filtered by SQLite; the other conditions (case-insensitive text, rooms,
    /// overdue) by `MarkerFilter.matches`. Columns are read by position through SQLite's C API: looking them
    /// up by name per row (as `Marker(row:)` does) costs more than the query itself on a million markers.
    /// - Complexity: O(n) for the drawing's n markers, streamed (not all in memory).
    public func forEachMarker(in name: String, filter: MarkerFilter, _ body: (Marker) -> Bool) async throws(StoreError) {
        try await read { db in
            let drawing = try Self.fetchDrawing(db, named: name)
            var sql = "SELECT \(Marker.columnList) FROM marker WHERE drawingId = ?"
            var arguments: [any DatabaseValueConvertible] = [drawing.id!]
            if !filter.statuses.isEmpty {
                sql += " AND status IN (" + filter.statuses.map { _ in "?" }.joined(separator: ",") + ")"
                arguments += filter.statuses.map(\.storedCode)
            }
            if !filter.priorities.isEmpty {
                sql += " AND priority IN (" + filter.priorities.map { _ in "?" }.joined(separator: ",") + ")"
                arguments += filter.priorities.map(\.storedCode)
            }
            let statement = try db.makeStatement(sql: sql + " ORDER BY number")
            try statement.setArguments(StatementArguments(arguments))
            let handle = statement.sqliteStatement
            defer { sqlite3_reset(handle) }
            func text(_ column: Int32) -> String? {
                guard let bytes = sqlite3_column_text(handle, column) else { return nil }
                return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column))), as: UTF8.self)
            }
            let rest = filter.withoutStatusesAndPriorities
            while true {
                let code = sqlite3_step(handle)
                if code == SQLITE_DONE { break }
                guard code == SQLITE_ROW else {
                    throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
                }
                let number = Int(sqlite3_column_int64(handle, 0))
                // Status and priority are stored as codes, `updatedAt` as NULL while it equals `createdAt` (v9).
                let uuidText = text(9)
                let uuid = uuidText.map(MarkerUUID.init(text:)) ?? DerivedUUID.make(seed: drawing.uuidSeed, number: number)
                guard let status = MarkerStatus(storedCode: sqlite3_column_int64(handle, 3)),
                      let priority = MarkerPriority(storedCode: sqlite3_column_int64(handle, 12)), let uuid else {
                    throw StoreError.io("marker \(number) has an unknown status, priority or uuid")
                }
                var marker = Marker(drawingID: drawing.id!, number: number, uuid: uuid, ref: text(10),
                                    position: PixelPoint(x: sqlite3_column_double(handle, 1), y: sqlite3_column_double(handle, 2)),
                                    status: status, note: text(4), author: text(5), category: text(11), priority: priority,
                                    assignee: text(13), due: text(14).flatMap(DueDate.init(text:)),
                                    capturedAt: text(15).flatMap(CaptureTime.init(text:)),
                                    rooms: RoomList.rooms(fromJSON: text(6) ?? "[]"),
                                    createdAt: Timestamp(milliseconds: sqlite3_column_int64(handle, 7)),
                                    updatedAt: Timestamp(milliseconds: sqlite3_column_type(handle, 8) == SQLITE_NULL
                                        ? sqlite3_column_int64(handle, 7) : sqlite3_column_int64(handle, 8)))
                marker.uuidIsDerived = uuidText == nil
                marker.needsPlacement = text(16)
                marker.version = Int(sqlite3_column_int64(handle, 17))
                if !rest.isEmpty && !rest.matches(marker) { continue }
                if !body(marker) { break }
            }
        }
    }

    // MARK: Helpers

    static func fetchMarker(_ db: Database, _ drawing: Drawing, _ number: Int) throws -> Marker {
        guard let marker = try findMarker(db, drawingID: drawing.id!, number: number) else {
            throw StoreError.unknownMarker(drawing: drawing.name, number: number)
        }
        return marker
    }

    /// Marker `number` of the drawing, or nil.
    /// - Complexity: O(log n).
    static func findMarker(_ db: Database, drawingID: Int64, number: Int) throws -> Marker? {
        try Marker.fetchOne(try db.cachedStatement(sql: Marker.selectSQL + " WHERE marker.drawingId = ? AND marker.number = ?"),
                            arguments: [drawingID, number])
    }

    /// Removes every marker of a single-marker drawing because marker `number` replaces them (an import's last row:
    /// `StoreBackend.replaceAll` in the import's synchronous transaction).
    static func replaceAll(_ db: Database, drawingID: Int64, by number: Int, at: Timestamp, author: String?) throws {
        let existing = try Marker.fetchAll(db, sql: Marker.selectSQL + " WHERE marker.drawingId = ?", arguments: [drawingID])
        try deleteAttachments(db, drawingID: drawingID, numbers: existing.map(\.number))
        for old in existing {
            try old.delete(db)
            try appendHistory(db, [HistoryEntry(sequence: 0, drawingID: drawingID, number: old.number, action: .removed, at: at, author: author,
                                                old: old.state, new: MarkerState(replacedBy: number))])
            try feedEvent(db, .remove, drawingID: drawingID, number: old.number, uuid: old.uuid)
        }
    }

    /// Replaces the drawing's regions by `regions` (file order).
    static func replaceRegions(_ db: Database, drawingID: Int64, with regions: [Region]) throws {
        try RegionRecord.filter(Column("drawingId") == drawingID).deleteAll(db)
        for (position, region) in regions.enumerated() {
            try RegionRecord(drawingID: drawingID, position: position, region: region).insert(db)
        }
    }
}
