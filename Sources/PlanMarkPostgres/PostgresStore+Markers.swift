import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore
import PostgresNIO

extension PostgresStore {
    /// Validates `new.position` against the drawing and stores a new marker with the next number, taken from the
    /// drawing's counter in the transaction that inserts it, under the drawing's row lock: two servers never give one
    /// number twice and a rolled-back insert gives none away.
    ///
    /// Additions to one drawing that arrive while another transaction of this process adds to it are committed
    /// together (`GroupCommit`, `addMarkers(to:take:)`): numbered in arrival order, each answered after the commit.
    ///
    /// Offline capture, as the contract `AnnotationStore.addMarker` says: a `uuid` stored already for this drawing, with the same position
    /// and fields as when that marker was created, returns the stored marker and stores nothing; with other content
    /// (or on another drawing) it is `uuidConflict`. The lookup runs under the drawing's lock, so clients sending the
    /// same item to one drawing at once store it once; the unique uuid index settles a race between two drawings.
    /// - Complexity: O(log n) for the lookup and the insert, plus O(region vertices) when the regions changed since
    ///   this process last validated on the drawing.
    public func addMarker(to name: String, _ new: NewMarker, author: String?) async throws(StoreError) -> MarkerCreation {
        try StoreRules.checkFields(note: Update(new.note), category: Update(new.category), assignee: Update(new.assignee), ref: new.ref)
        try TextField.check(author, field: "author")
        return try await additions.submit(MarkerAddition(new: new, author: author), key: name) { take in
            await self.addMarkers(to: name, take: take)
        }.get()
    }

    /// One marker.
    /// - Complexity: O(log n).
    public func marker(_ number: Int, in name: String) async throws(StoreError) -> Marker {
        try await readSnapshot { connection, logger in
            guard let drawing = try await Self.fetchDrawing(connection, named: name, logger: logger) else { throw StoreError.unknownDrawing(name) }
            return try await Self.fetchMarker(connection, drawing, number, logger: logger)
        }
    }

    /// Markers `forEachMarker` reads per query.
    static let markerPageSize = 10_000

    /// Calls `body` with each marker `filter` takes, by number, until it returns false. Reads one snapshot
    /// (`REPEATABLE READ`), in queries of `markerPageSize` markers by number, and calls `body` as each row arrives (no
    /// page is held in memory). `body` runs on the event loop thread that serves the query (the calling task is
    /// suspended meanwhile); a caller with slow work per marker hands it to another task (the GeoJSON listing does, so
    /// that writing overlaps reading).
    ///
    /// Statuses and priorities are filtered by PostgreSQL; the other conditions (case-insensitive text, rooms,
    /// overdue, needs placement) by `MarkerFilter.matches`, as the SQLite store does.
    /// - Complexity: O(n) for the drawing's n markers, O(page) memory.
    public func forEachMarker(in name: String, filter: MarkerFilter, _ body: (Marker) -> Bool) async throws(StoreError) {
        let rest = filter.withoutStatusesAndPriorities
        let statuses = filter.statuses.map(\.storedCode).sorted()
        let priorities = filter.priorities.map(\.storedCode).sorted()
        var sql = "SELECT \(Self.markerColumns) FROM marker WHERE drawingId = $1 AND number > $2"
        if !statuses.isEmpty { sql += " AND status = ANY($3)" }
        if !priorities.isEmpty { sql += " AND priority = ANY($\(statuses.isEmpty ? 3 : 4))" }
        sql += " ORDER BY number LIMIT \(Self.markerPageSize)"
        try await readSnapshot { connection, logger in
            guard let drawing = try await Self.fetchDrawing(connection, named: name, logger: logger), let drawingID = drawing.id else {
                throw StoreError.unknownDrawing(name)
            }
            var after = 0
            while true {
                var bindings = PostgresBindings()
                bindings.append(drawingID)
                bindings.append(after)
                if !statuses.isEmpty { bindings.append(statuses) }
                if !priorities.isEmpty { bindings.append(priorities) }
                var read = 0
                for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger) {
                    let marker = try Self.decodeMarker(row, drawingID: drawingID, uuidSeed: drawing.uuidSeed)
                    read += 1
                    after = marker.number
                    if !rest.isEmpty && !rest.matches(marker) { continue }
                    if !body(marker) { return }
                }
                guard read == Self.markerPageSize else { return }
            }
        }
    }

    // MARK: Marker rows

    /// The columns of `marker` that `decodeMarker` reads, in its order (the drawing id is known to the caller).
    static let markerColumns =
        "number, x, y, status, note, author, rooms, createdAt, updatedAt, uuid, ref, category, priority, assignee, due, capturedAt, needsPlacement, version, cursor"

    /// A marker from a row of `markerColumns` (from column `offset` on). Status and priority are stored as codes, `updatedAt` as NULL while it
    /// equals `createdAt`, and a uuid the store made (`DerivedUUID`) as NULL, as in the SQLite store.
    static func decodeMarker(_ row: PostgresRow, drawingID: Int64, uuidSeed: Int64, offset: Int = 0) throws -> Marker {
        let cells = row.makeRandomAccess()
        let number = try cells[offset + 0].decode(Int.self)
        let statusCode = try cells[offset + 3].decode(Int64.self)
        let priorityCode = try cells[offset + 12].decode(Int64.self)
        guard let status = MarkerStatus(storedCode: statusCode), let priority = MarkerPriority(storedCode: priorityCode) else {
            throw StoreError.io("marker \(number) has an unknown status or priority code (\(statusCode), \(priorityCode))")
        }
        let uuidText = try cells[offset + 9].decode(String?.self)
        let uuid: MarkerUUID
        if let uuidText {
            guard let stored = MarkerUUID(text: uuidText) else { throw StoreError.io("marker \(number) has a malformed uuid \"\(uuidText)\"") }
            uuid = stored
        } else {
            uuid = DerivedUUID.make(seed: uuidSeed, number: number)
        }
        let createdAt = Timestamp(milliseconds: try cells[offset + 7].decode(Int64.self))
        let updatedAt = try cells[offset + 8].decode(Int64?.self)
        var marker = Marker(drawingID: drawingID, number: number, uuid: uuid, ref: try cells[offset + 10].decode(String?.self),
                            position: PixelPoint(x: try cells[offset + 1].decode(Double.self), y: try cells[offset + 2].decode(Double.self)),
                            status: status, note: try cells[offset + 4].decode(String?.self), author: try cells[offset + 5].decode(String?.self),
                            category: try cells[offset + 11].decode(String?.self), priority: priority,
                            assignee: try cells[offset + 13].decode(String?.self),
                            due: try cells[offset + 14].decode(String?.self).flatMap(DueDate.init(text:)),
                            capturedAt: try cells[offset + 15].decode(String?.self).flatMap(CaptureTime.init(text:)),
                            rooms: RoomList.rooms(fromJSON: try cells[offset + 6].decode(String.self)),
                            createdAt: createdAt, updatedAt: updatedAt.map(Timestamp.init(milliseconds:)) ?? createdAt)
        marker.uuidIsDerived = uuidText == nil
        marker.needsPlacement = try cells[offset + 16].decode(String?.self)
        marker.version = try cells[offset + 17].decode(Int.self)
        marker.cursor = try cells[offset + 18].decode(Int64?.self)
        return marker
    }

    /// Marker `number` of `drawing`, or nil.
    /// - Complexity: O(log n).
    static func findMarker(_ connection: PostgresConnection, drawingID: Int64, uuidSeed: Int64, number: Int, logger: Logger) async throws -> Marker? {
        var bindings = PostgresBindings()
        bindings.append(drawingID)
        bindings.append(number)
        let query = PostgresQuery(unsafeSQL: "SELECT \(markerColumns) FROM marker WHERE drawingId = $1 AND number = $2", binds: bindings)
        for try await row in try await connection.query(query, logger: logger) {
            return try decodeMarker(row, drawingID: drawingID, uuidSeed: uuidSeed)
        }
        return nil
    }

    /// Marker `number` of `drawing`; `unknownMarker` when there is none.
    /// - Complexity: O(log n).
    static func fetchMarker(_ connection: PostgresConnection, _ drawing: Drawing, _ number: Int, logger: Logger) async throws -> Marker {
        guard let drawingID = drawing.id,
              let marker = try await findMarker(connection, drawingID: drawingID, uuidSeed: drawing.uuidSeed, number: number, logger: logger) else {
            throw StoreError.unknownMarker(drawing: drawing.name, number: number)
        }
        return marker
    }

    /// The drawing with row id `id`, or nil.
    static func fetchDrawing(_ connection: PostgresConnection, id: Int64, logger: Logger) async throws -> Drawing? {
        var bindings = PostgresBindings()
        bindings.append(id)
        let query = PostgresQuery(unsafeSQL: "SELECT \(drawingColumns) FROM drawing WHERE id = $1", binds: bindings)
        for try await row in try await connection.query(query, logger: logger) { return try decodeDrawing(row) }
        return nil
    }

    /// Inserts `marker` (at version 1, the column's default); false when another marker has its uuid already (nothing
    /// inserted).
    /// - Complexity: O(log n).
    static func insertMarker(_ connection: PostgresConnection, _ marker: Marker, logger: Logger) async throws -> Bool {
        let updatedAt: Int64? = marker.updatedAt == marker.createdAt ? nil : marker.updatedAt.milliseconds
        let uuid: String? = marker.uuidIsDerived ? nil : marker.uuid.text
        let rows = try await connection.query("""
            INSERT INTO marker (drawingId, number, x, y, status, note, author, rooms, createdAt, updatedAt, uuid, ref, category, priority,
                                assignee, due, capturedAt, needsPlacement, cursor)
            VALUES (\(marker.drawingID), \(marker.number), \(marker.position.x), \(marker.position.y), \(marker.status.storedCode),
                    \(marker.note), \(marker.author), \(RoomList.jsonText(marker.rooms)), \(marker.createdAt.milliseconds), \(updatedAt),
                    \(uuid), \(marker.ref), \(marker.category), \(marker.priority.storedCode), \(marker.assignee), \(marker.due?.text),
                    \(marker.capturedAt?.text), \(marker.needsPlacement), \(marker.cursor))
            ON CONFLICT (uuid) WHERE uuid IS NOT NULL DO NOTHING
            RETURNING number
            """, logger: logger)
        var inserted = false
        for try await _ in rows { inserted = true }
        return inserted
    }

    /// Writes every changeable column of `marker` (all but its keys, uuid and creation time).
    /// - Complexity: O(log n).
    static func updateMarkerRow(_ connection: PostgresConnection, _ marker: Marker, logger: Logger) async throws {
        let updatedAt: Int64? = marker.updatedAt == marker.createdAt ? nil : marker.updatedAt.milliseconds
        try await connection.query("""
            UPDATE marker SET x = \(marker.position.x), y = \(marker.position.y), status = \(marker.status.storedCode),
                note = \(marker.note), author = \(marker.author), rooms = \(RoomList.jsonText(marker.rooms)), updatedAt = \(updatedAt),
                ref = \(marker.ref), category = \(marker.category), priority = \(marker.priority.storedCode),
                assignee = \(marker.assignee), due = \(marker.due?.text), capturedAt = \(marker.capturedAt?.text),
                needsPlacement = \(marker.needsPlacement), version = \(marker.version), cursor = \(marker.cursor)
            WHERE drawingId = \(marker.drawingID) AND number = \(marker.number)
            """, logger: logger)
    }
}
