import PlanMarkStore
import GRDB

extension SQLiteStore {
    /// The drawing's markers version (see `MarkersVersion`): one read of the drawing row and one search of
    /// the `history_latest` index.
    /// - Complexity: O(log h) for the store's h history entries.
    public func markersVersion(of name: String) async throws(StoreError) -> MarkersVersion {
        try await read { db in
            let drawing = try Self.fetchDrawing(db, named: name)
            let latest = try Int64.fetchOne(try db.cachedStatement(sql: "SELECT max(id) FROM history WHERE drawingId = ?"),
                                            arguments: [drawing.id!]) ?? 0
            return MarkersVersion(drawingID: drawing.id!, latestHistoryID: latest, regionsRevision: drawing.regionsRevision)
        }
    }
}
