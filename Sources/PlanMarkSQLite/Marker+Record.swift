import PlanMarkStore
import GRDB
import PlanMarkFormats
import PlanMarkGeometry

/// A marker is a row of the `marker` table (primary key: drawing id and number).
extension Marker: FetchableRecord, PersistableRecord {
    /// The table name.
    public static let databaseTableName = "marker"

    /// The columns, in the order `SQLiteStore.forEachMarker` reads them.
    static let columnList = "number, x, y, status, note, author, rooms, createdAt, updatedAt, uuid, ref, category, priority, assignee, due, capturedAt, needsPlacement, version"

    /// The query of whole markers: every column, and the drawing's `uuidSeed` for the uuids the store made.
    static let selectSQL = "SELECT marker.*, drawing.uuidSeed AS uuidSeed FROM marker JOIN drawing ON drawing.id = marker.drawingId"

    /// Decodes a `marker` row of `selectSQL`.
    public init(row: Row) throws {
        // Stored as codes since v9 (`StoredCodes.swift`).
        let statusCode: Int64 = try row.decode(forColumn: "status")
        guard let status = MarkerStatus(storedCode: statusCode) else {
            throw StoreError.io("marker has an unknown status code \(statusCode)")
        }
        let priorityCode: Int64 = try row.decode(forColumn: "priority")
        guard let priority = MarkerPriority(storedCode: priorityCode) else {
            throw StoreError.io("marker has an unknown priority code \(priorityCode)")
        }
        let createdAt = Timestamp(milliseconds: try row.decode(forColumn: "createdAt"))
        // NULL while the marker is unchanged since it was created (v9).
        let updatedAt: Int64? = try row.decode(forColumn: "updatedAt")
        let number: Int = try row.decode(forColumn: "number")
        let uuidText: String? = try row.decode(forColumn: "uuid")
        let uuid: MarkerUUID
        if let uuidText {
            guard let stored = MarkerUUID(text: uuidText) else { throw StoreError.io("marker has a malformed uuid \"\(uuidText)\"") }
            uuid = stored
        } else {
            uuid = DerivedUUID.make(seed: try row.decode(forColumn: "uuidSeed"), number: number)
        }
        let dueText: String? = try row.decode(forColumn: "due")
        let capturedText: String? = try row.decode(forColumn: "capturedAt")
        self.init(
            drawingID: try row.decode(forColumn: "drawingId"),
            number: number,
            uuid: uuid,
            ref: try row.decode(forColumn: "ref"),
            position: PixelPoint(x: try row.decode(forColumn: "x"), y: try row.decode(forColumn: "y")),
            status: status,
            note: try row.decode(forColumn: "note"),
            author: try row.decode(forColumn: "author"),
            category: try row.decode(forColumn: "category"),
            priority: priority,
            assignee: try row.decode(forColumn: "assignee"),
            due: dueText.flatMap(DueDate.init(text:)),
            capturedAt: capturedText.flatMap(CaptureTime.init(text:)),
            rooms: RoomList.rooms(fromJSON: try row.decode(forColumn: "rooms")),
            createdAt: createdAt,
            updatedAt: updatedAt.map(Timestamp.init(milliseconds:)) ?? createdAt
        )
        uuidIsDerived = uuidText == nil
        needsPlacement = row["needsPlacement"]
        version = try row.decode(forColumn: "version")
        cursor = row["cursor"]
    }

    /// The stored columns, in `storedValues`' order.
    static let storedColumns = ["drawingId", "number", "x", "y", "status", "note", "author", "rooms", "createdAt", "updatedAt", "uuid",
                                "ref", "category", "priority", "assignee", "due", "capturedAt", "needsPlacement", "version", "cursor"]

    /// An `INSERT` of every stored column (a cached statement: a marker POST's insert).
    static let insertSQL = "INSERT INTO marker (" + storedColumns.joined(separator: ", ") + ") VALUES ("
        + storedColumns.map { _ in "?" }.joined(separator: ", ") + ")"

    /// The marker's stored values, in `storedColumns`' order: rooms as a JSON array of ids, status and priority as
    /// their codes, and `updatedAt` as NULL while it equals `createdAt` (v9: a smaller row, `StoredCodes.swift`).
    var storedValues: [(any DatabaseValueConvertible)?] {
        [drawingID, number, position.x, position.y, status.storedCode, note, author, RoomList.jsonText(rooms), createdAt.milliseconds,
         updatedAt == createdAt ? nil : updatedAt.milliseconds, uuidIsDerived ? nil : uuid.text, ref, category, priority.storedCode,
         assignee, due?.text, capturedAt?.text, needsPlacement, version, cursor]
    }

    /// Encodes the marker's columns (`storedColumns`, `storedValues`).
    public func encode(to container: inout PersistenceContainer) throws {
        for (column, value) in zip(Self.storedColumns, storedValues) { container[column] = value }
    }
}
