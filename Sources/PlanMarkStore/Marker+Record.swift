import GRDB
import PlanMarkGeometry

/// A marker is a row of the `marker` table (primary key: drawing id and number).
extension Marker: FetchableRecord, PersistableRecord {
    /// The table name.
    public static let databaseTableName = "marker"

    /// The columns in the order `init(row:)` and bulk inserts use.
    static let columnList = "drawingId, number, x, y, status, note, author, rooms, createdAt, updatedAt"

    /// Decodes a `marker` row.
    public init(row: Row) throws {
        let statusText: String = try row.decode(forColumn: "status")
        guard let status = MarkerStatus(rawValue: statusText) else {
            throw StoreError.io("marker has an unknown status \"\(statusText)\"")
        }
        self.init(
            drawingID: try row.decode(forColumn: "drawingId"),
            number: try row.decode(forColumn: "number"),
            position: PixelPoint(x: try row.decode(forColumn: "x"), y: try row.decode(forColumn: "y")),
            status: status,
            note: try row.decode(forColumn: "note"),
            author: try row.decode(forColumn: "author"),
            rooms: RoomList.rooms(fromJSON: try row.decode(forColumn: "rooms")),
            createdAt: Timestamp(milliseconds: try row.decode(forColumn: "createdAt")),
            updatedAt: Timestamp(milliseconds: try row.decode(forColumn: "updatedAt"))
        )
    }

    /// Encodes the marker's columns; rooms as a JSON array of ids.
    public func encode(to container: inout PersistenceContainer) throws {
        container["drawingId"] = drawingID
        container["number"] = number
        container["x"] = position.x
        container["y"] = position.y
        container["status"] = status.rawValue
        container["note"] = note
        container["author"] = author
        container["rooms"] = RoomList.jsonText(rooms)
        container["createdAt"] = createdAt.milliseconds
        container["updatedAt"] = updatedAt.milliseconds
    }
}
