import GRDB
import PlanMarkFormats
import PlanMarkStore

/// The change feed (`ChangeFeed.swift`) on SQLite: the feed's query and the import's and single-marker mode's records,
/// which run on the raw connection (the import's own path).
extension SQLiteStore {
    /// `AnnotationStore.changes(since:drawing:limit:)`: one read transaction (one snapshot) for the page and its markers.
    /// - Complexity: as `ChangeFeedSQL.page`, plus O(k log n) to read the page's k markers.
    public func changes(since: Int64, drawing name: String?, limit: Int) async throws(StoreError) -> ChangePage {
        try await read { db in
            let drawingID: Int64? = try name.map { try Self.fetchDrawing(db, named: $0).id! }
            let rows = try Row.fetchAll(db, sql: ChangeFeedSQL.page { "?\($0)" }, arguments: [since, drawingID, limit + 1]).map { row in
                ChangeRow(cursor: row[0], kind: row[1], drawingID: row[2], number: row[3], uuid: row[4], drawingName: row[5], projectID: row[6])
            }
            var drawings: [Int64: (name: String, projectID: Int64)] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, name, projectId FROM drawing") {
                drawings[row[0]] = (row[1], row[2])
            }
            var markers: [MarkerKey: Marker] = [:]
            let find = try db.cachedStatement(sql: Marker.selectSQL + " WHERE marker.drawingId = ? AND marker.number = ?")
            for row in rows.prefix(limit) where row.kind == ChangeKind.upsert.rawValue {
                if let marker = try Marker.fetchOne(find, arguments: [row.drawingID, row.number]) {
                    markers[MarkerKey(drawingID: row.drawingID, number: row.number)] = marker
                }
            }
            return try ChangePage.make(rows: rows, limit: limit, since: since, drawings: drawings, markers: markers)
        }
    }

    /// `AnnotationStore.drawingChanges(since:limit:)`: one read.
    /// - Complexity: as `ChangeFeedSQL.drawingPage`.
    public func drawingChanges(since: Int64, limit: Int) async throws(StoreError) -> ChangePage {
        try await read { db in
            let rows = try Row.fetchAll(db, sql: ChangeFeedSQL.drawingPage { "?\($0)" }, arguments: [since, limit + 1]).map { row in
                ChangeRow(cursor: row[0], kind: row[1], drawingID: row[2], number: row[3], uuid: row[4], drawingName: row[5], projectID: row[6])
            }
            return try ChangePage.make(rows: rows, limit: limit, since: since, drawings: [:], markers: [:])
        }
    }

    /// Records a marker's removal (or a drawing's change) in the feed, with a new cursor (`StoreBackend.feedEvent`).
    static func feedEvent(_ db: Database, _ kind: ChangeKind, drawingID: Int64, number: Int = 0, uuid: MarkerUUID? = nil) throws {
        let cursor = try takeCursors(db, 1)
        try db.execute(sql: """
            INSERT INTO feedEvent (cursor, drawingId, drawingName, projectId, number, uuid, kind)
            SELECT ?, id, name, projectId, ?, ?, ? FROM drawing WHERE id = ?
            """, arguments: [cursor, number, uuid?.text, kind.rawValue, drawingID])
    }

    /// Records an import of markers `numbers` in the feed: one range of cursors (`StoreBackend.importRange`).
    static func importRange(_ db: Database, drawingID: Int64, numbers: ClosedRange<Int>) throws {
        let first = try takeCursors(db, numbers.count)
        try db.execute(sql: "INSERT INTO importRange (drawingId, firstNumber, lastNumber, firstCursor) VALUES (?, ?, ?, ?)",
                       arguments: [drawingID, numbers.lowerBound, numbers.upperBound, first])
    }
}

extension SQLiteStore {
    /// How often the watcher reads the feed's counter: another process's commit is seen within this time.
    public static let changeWatchInterval: Duration = .milliseconds(100)

    /// `AnnotationStore.watchChanges`: reads `historyHead.lastCursor` (one indexed row, on a reader connection) every
    /// `changeWatchInterval` and calls `changed` when it moved: commits of every process on the file, at the cost of ten
    /// tiny reads a second for the whole process (not a viewer).
    public func latestCursor() async throws(StoreError) -> Int64 {
        try await read { db in try Int64.fetchOne(db, sql: "SELECT lastCursor FROM historyHead WHERE id = 1") ?? 0 }
    }

    public func watchChanges(_ changed: @escaping @Sendable (_ latest: Int64?) async -> Void) async {
        var last: Int64? = nil
        while !Task.isCancelled {
            let now = try? await latestCursor()
            if let now, now != last {
                last = now
                await changed(now)
            }
            try? await Task.sleep(for: Self.changeWatchInterval)
        }
    }
}
