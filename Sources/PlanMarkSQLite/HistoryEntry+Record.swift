import PlanMarkStore
import GRDB

/// A history entry is a row of the `history` table; old and new values are JSON objects.
extension HistoryEntry: FetchableRecord, MutablePersistableRecord {
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

    /// Encodes the entry's columns; `sequence` 0 lets SQLite choose it.
    public func encode(to container: inout PersistenceContainer) throws {
        container["id"] = sequence == 0 ? nil : sequence
        container["drawingId"] = drawingID
        container["number"] = number
        container["lastNumber"] = lastNumber
        container["action"] = action.rawValue
        container["at"] = at.milliseconds
        container["author"] = author
        container["oldValue"] = old?.jsonText
        container["newValue"] = new?.jsonText
    }

    /// Takes the sequence SQLite gave the new row.
    public mutating func didInsert(_ inserted: InsertionSuccess) {
        sequence = inserted.rowID
    }
}
