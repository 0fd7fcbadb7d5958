import PlanMarkStore
import GRDB

extension SQLiteStore {
    /// The drawing's history, oldest first. For the whole drawing, an import is one entry covering its
    /// number range (`lastNumber` set). For one marker (removed ones included), an import's entry is
    /// expanded to that marker, with its values at creation. A number never given is `unknownMarker`.
    /// - Complexity: O(e) for the e entries returned.
    public func history(of name: String, number: Int?) async throws(StoreError) -> [HistoryEntry] {
        guard let number else {
            var entries: [HistoryEntry] = []
            try await forEachHistoryEntry(in: name) { entries.append($0); return true }
            return entries
        }
        return try await read { db in
            let drawing = try Self.fetchDrawing(db, named: name)
            guard number >= 1 && number < drawing.nextNumber else {
                throw StoreError.unknownMarker(drawing: name, number: number)
            }
            let entries = try Self.historyEntries(db, drawingID: drawing.id!, number: number)
            guard let rangeIndex = entries.firstIndex(where: { $0.lastNumber != nil }) else { return entries }
            let current = try Marker.fetchOne(db, sql: Marker.selectSQL + " WHERE marker.drawingId = ? AND marker.number = ?",
                                              arguments: [drawing.id!, number])
            return StoreRules.expandingImport(entries, at: rangeIndex, number: number, current: current?.state)
        }
    }

    /// Calls `body` with each entry of the drawing's history, oldest first, until it returns false. Reads one
    /// snapshot, one row at a time (a GRDB cursor).
    /// - Complexity: O(h) for the drawing's h entries, O(1) memory.
    public func forEachHistoryEntry(in name: String, _ body: (HistoryEntry) -> Bool) async throws(StoreError) {
        try await read { db in
            let drawing = try Self.fetchDrawing(db, named: name)
            let entries = try HistoryEntry.filter(Column("drawingId") == drawing.id!).order(Column("id")).fetchCursor(db)
            while let entry = try entries.next(), body(entry) {}
        }
    }

    /// Marker `number`'s entries, oldest first: its own, and the import range that created it. Two index
    /// searches (`history_marker` for its own, the partial `history_ranges` for import ranges), not one
    /// query with `OR`, which SQLite answered by reading every entry of the drawing numbered up to `number`.
    /// - Complexity: O(log h + e + r) for the drawing's h entries, the marker's e and the r import ranges
    ///   starting at or before `number`.
    static func historyEntries(_ db: Database, drawingID: Int64, number: Int) throws -> [HistoryEntry] {
        try HistoryEntry.fetchAll(db, sql: """
            SELECT * FROM history WHERE drawingId = ?1 AND number = ?2
            UNION ALL
            SELECT * FROM history WHERE drawingId = ?1 AND lastNumber IS NOT NULL AND number < ?2 AND lastNumber >= ?2
            ORDER BY id
            """, arguments: [drawingID, number])
    }
}

extension SQLiteStore {
    /// The chain's head (`StoreTransaction.historyHead`).
    /// - Complexity: O(1).
    static func historyHead(_ db: Database) throws -> String {
        try String.fetchOne(db.cachedStatement(sql: "SELECT hash FROM historyHead WHERE id = 1")) ?? HistoryChain.genesis
    }

    /// Inserts `rows` (hashes set) and makes the last one's hash the head (`StoreTransaction.append`); the last id.
    /// - Complexity: O(k log h) for k rows.
    /// `StoreTransaction.takeCursors`.
    static func takeCursors(_ db: Database, _ count: Int) throws -> Int64 {
        precondition(count >= 1)
        guard let last = try Int64.fetchOne(db.cachedStatement(sql: "UPDATE historyHead SET lastCursor = lastCursor + ? WHERE id = 1 RETURNING lastCursor"),
                                            arguments: [count]) else {
            throw StoreError.io("the store has no history head (historyHead table)")
        }
        return last - Int64(count) + 1
    }

    static func append(_ db: Database, _ rows: [HistoryRow]) throws -> Int64 {
        guard let last = rows.last else { return 0 }
        let insert = try db.cachedStatement(sql: """
            INSERT INTO history (drawingId, number, lastNumber, action, at, author, oldValue, newValue, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for row in rows {
            try insert.execute(arguments: [row.drawingID, row.number, row.lastNumber, row.action, row.at, row.author, row.oldValue,
                                           row.newValue, row.hash])
        }
        let id = db.lastInsertedRowID
        try db.cachedStatement(sql: "UPDATE historyHead SET hash = ? WHERE id = 1").execute(arguments: [last.hash])
        return id
    }

    /// Chains `entries` after the head and appends them (the synchronous paths: an import's transaction); the last id.
    /// - Complexity: as `append`.
    @discardableResult
    static func appendHistory(_ db: Database, _ entries: [HistoryEntry]) throws -> Int64 {
        try append(db, HistoryChain.link(entries.map(HistoryRow.init), after: historyHead(db)))
    }
}
