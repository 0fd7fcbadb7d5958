import PlanMarkStore
import GRDB

/// A history entry is a row of the `history` table; old and new values are JSON objects. Entries are written through
/// `SQLiteStore.append` only, which chains them (`HistoryChain`).
extension HistoryEntry: FetchableRecord, TableRecord {
    /// The table name.
    public static let databaseTableName = "history"

    /// Decodes a `history` row.
    public init(row: Row) throws {
        let actionText: String = try row.decode(forColumn: "action")
        guard let action = HistoryAction(rawValue: actionText) else {
            throw StoreError.io("history has an unknown action \"\(actionText)\"")
        }
        let oldText: String? = try row.decode(forColumn: "oldValue")
        let newText: String? = try row.decode(forColumn: "newValue")
        self.init(
            sequence: try row.decode(forColumn: "id"),
            drawingID: try row.decode(forColumn: "drawingId"),
            number: try row.decode(forColumn: "number"),
            lastNumber: try row.decode(forColumn: "lastNumber"),
            action: action,
            at: Timestamp(milliseconds: try row.decode(forColumn: "at")),
            author: try row.decode(forColumn: "author"),
            old: oldText.flatMap(MarkerState.init(jsonText:)),
            new: newText.flatMap(MarkerState.init(jsonText:))
        )
    }
}
