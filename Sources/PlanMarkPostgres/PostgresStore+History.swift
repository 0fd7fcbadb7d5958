import PlanMarkStore
import PostgresNIO

extension PostgresStore {
    /// The drawing's history, oldest first (the contract: `AnnotationStore.history(of:number:)`): for the whole drawing, an import
    /// is one entry covering its number range; for one marker (removed ones included), an import's entry is expanded
    /// to that marker, with its values at creation. A number never given is `unknownMarker`.
    /// - Complexity: O(log h + e) for the e entries returned.
    public func history(of name: String, number: Int?) async throws(StoreError) -> [HistoryEntry] {
        guard let number else {
            var entries: [HistoryEntry] = []
            try await forEachHistoryEntry(in: name) { entries.append($0); return true }
            return entries
        }
        return try await readSnapshot { connection, logger in
            guard let drawing = try await Self.fetchDrawing(connection, named: name, logger: logger), let drawingID = drawing.id else {
                throw StoreError.unknownDrawing(name)
            }
            guard number >= 1 && number < drawing.nextNumber else {
                throw StoreError.unknownMarker(drawing: name, number: number)
            }
            let entries = try await Self.historyEntries(connection, drawingID: drawingID, number: number, logger: logger)
            guard let rangeIndex = entries.firstIndex(where: { $0.lastNumber != nil }) else { return entries }
            let current = try await Self.findMarker(connection, drawingID: drawingID, uuidSeed: drawing.uuidSeed, number: number, logger: logger)
            return StoreRules.expandingImport(entries, at: rangeIndex, number: number, current: current?.state)
        }
    }

    /// Entries `forEachHistoryEntry` reads per query.
    static let historyPageSize = 10_000

    /// Calls `body` with each entry of the drawing's history, oldest first, until it returns false. Reads one snapshot
    /// (`REPEATABLE READ`), in queries of `pageSize` entries by id, and calls `body` as each row arrives, on the event
    /// loop thread that serves the query.
    /// - Complexity: O(h) for the drawing's h entries, O(1) memory.
    public func forEachHistoryEntry(in name: String, _ body: (HistoryEntry) -> Bool) async throws(StoreError) {
        try await forEachHistoryEntry(in: name, pageSize: Self.historyPageSize, body)
    }

    /// `forEachHistoryEntry` in queries of `pageSize` entries (tests page with a few).
    func forEachHistoryEntry(in name: String, pageSize: Int, _ body: (HistoryEntry) -> Bool) async throws(StoreError) {
        try await readSnapshot { connection, logger in
            guard let drawing = try await Self.fetchDrawing(connection, named: name, logger: logger), let drawingID = drawing.id else {
                throw StoreError.unknownDrawing(name)
            }
            var after: Int64 = 0
            while true {
                var read = 0
                for try await row in try await connection.query(
                    "SELECT \(unescaped: Self.historyColumns) FROM history WHERE drawingId = \(drawingID) AND id > \(after) ORDER BY id LIMIT \(pageSize)",
                    logger: logger
                ) {
                    let entry = try Self.decodeHistoryEntry(row)
                    read += 1
                    after = entry.sequence
                    if !body(entry) { return }
                }
                guard read == pageSize else { return }
            }
        }
    }

    /// The columns of `history`, in the order `decodeHistoryEntry` reads them.
    static let historyColumns = "id, drawingId, number, lastNumber, action, at, author, oldValue, newValue"

    /// An entry from a row of `historyColumns`; old and new values are the SQLite store's JSON.
    static func decodeHistoryEntry(_ row: PostgresRow) throws -> HistoryEntry {
        let (id, drawingID, number, lastNumber, actionText, at, author, oldText, newText) =
            try row.decode((Int64, Int64, Int, Int?, String, Int64, String?, String?, String?).self)
        guard let action = HistoryAction(rawValue: actionText) else { throw StoreError.io("history has an unknown action \"\(actionText)\"") }
        return HistoryEntry(sequence: id, drawingID: drawingID, number: number, lastNumber: lastNumber, action: action,
                            at: Timestamp(milliseconds: at), author: author,
                            old: oldText.flatMap(MarkerState.init(jsonText:)), new: newText.flatMap(MarkerState.init(jsonText:)))
    }

    /// Marker `number`'s entries, oldest first: its own (index `history_marker`), and the import range that created it
    /// (the partial index `history_ranges`).
    /// - Complexity: O(log h + e + r) for the drawing's h entries, the marker's e and the r import ranges starting at
    ///   or before `number`.
    static func historyEntries(_ connection: PostgresConnection, drawingID: Int64, number: Int, logger: Logger) async throws -> [HistoryEntry] {
        var entries: [HistoryEntry] = []
        for try await row in try await connection.query("""
            SELECT \(unescaped: historyColumns) FROM history WHERE drawingId = \(drawingID) AND number = \(number)
            UNION ALL
            SELECT \(unescaped: historyColumns) FROM history
            WHERE drawingId = \(drawingID) AND lastNumber IS NOT NULL AND number < \(number) AND lastNumber >= \(number)
            ORDER BY id
            """, logger: logger) {
            entries.append(try decodeHistoryEntry(row))
        }
        return entries
    }

    /// The drawing's markers version (see `MarkersVersion`): its row id, the id of its latest history entry and its
    /// regions revision, in one statement (one snapshot).
    ///
    /// History ids come from an identity sequence, which is not transactional, so ids in general need not commit in
    /// order. Every write that appends a drawing's history holds that drawing's row lock from before it takes an id
    /// until it commits, so the ids of one drawing's entries do commit in order: a later change of the drawing, by
    /// any server, always has a greater id than every entry a reader saw before it.
    /// - Complexity: O(log h) for the store's h history entries (index `history_latest`).
    public func markersVersion(of name: String) async throws(StoreError) -> MarkersVersion {
        if name.utf8.contains(0) { throw .unknownDrawing(name) }
        return try await read { connection, logger in
            for try await (drawingID, latest, regionsRevision) in try await connection.query("""
                SELECT d.id, coalesce((SELECT max(h.id) FROM history h WHERE h.drawingId = d.id), 0), d.regionsRevision
                FROM drawing d WHERE d.name = \(name)
                """, logger: logger
            ).decode((Int64, Int64, Int).self) {
                return MarkersVersion(drawingID: drawingID, latestHistoryID: latest, regionsRevision: regionsRevision)
            }
            throw StoreError.unknownDrawing(name)
        }
    }
}
