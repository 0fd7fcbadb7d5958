import GRDB
import GRDBSQLite
import PlanMarkFormats
import PlanMarkGeometry

extension SQLiteStore {
    /// Validates `new.position` against the drawing and stores a new marker with the next number. In
    /// single-marker mode the existing markers are removed first (their history says which replaced them).
    ///
    /// Offline capture: a `uuid` stored already for this drawing, with the same position and fields as when
    /// that marker was created, returns the stored marker and stores nothing; with other content (or on
    /// another drawing) it is `uuidConflict`. The uuid index makes the check one lookup, and it runs in the
    /// write transaction, so clients sending the same item at once store it once.
    /// - Complexity: O(log n) for the lookup and the insert, plus O(region vertices) when the regions
    ///   changed since the last write.
    public func addMarker(to name: String, _ new: NewMarker, author: String?) async throws(StoreError) -> MarkerCreation {
        try StoreRules.checkFields(note: .some(new.note), category: .some(new.category), assignee: .some(new.assignee), ref: new.ref)
        try TextField.check(author, field: "author")
        return try await write { db in
            var drawing = try Self.fetchDrawing(db, named: name)
            if let uuid = new.uuid, let stored = try Self.fetchMarker(db, uuid: uuid) {
                guard stored.drawingID == drawing.id!, StoreRules.sameContent(new, try Self.creationState(db, of: stored)) else {
                    let owner = stored.drawingID == drawing.id! ? name : (try Drawing.fetchOne(db, key: stored.drawingID)?.name ?? "?")
                    throw StoreError.uuidConflict(uuid: uuid, drawing: owner, number: stored.number)
                }
                return MarkerCreation(marker: stored, created: false)
            }
            let validator = try currentValidator(db, for: drawing)
            let verdict = validator.validate(new.position)
            if let reason = verdict.reason { throw StoreError.invalidMarker(reason: reason, position: new.position) }
            let now = Timestamp.now()
            var marker = StoreRules.marker(new, number: drawing.nextNumber, of: drawing, verdict: verdict, validator: validator,
                                           author: author, at: now)
            if drawing.singleMarker {
                try Self.replaceAll(db, drawingID: drawing.id!, by: marker.number, at: now, author: author)
            }
            drawing.nextNumber += 1
            try drawing.update(db, columns: ["nextNumber"])
            try marker.insert(db)
            try Self.record(db, marker, .created, at: now, author: author, old: nil, new: marker.state)
            return MarkerCreation(marker: marker, created: true)
        }
    }

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
            var rest = MarkerFilter(category: filter.category, assignee: filter.assignee, room: filter.room, overdue: filter.overdue,
                                    search: filter.search, today: filter.today)
            rest.needsPlacement = filter.needsPlacement
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
                if !rest.isEmpty && !rest.matches(marker) { continue }
                if !body(marker) { break }
            }
        }
    }

    /// Applies `change` to every marker of `numbers` (in that order) in one transaction, or to none.
    /// - Complexity: O(k log n) for k numbers, plus O(region vertices) when the regions changed since the last write.
    public func updateMarkers(_ numbers: [Int], in name: String, _ change: MarkerChange, author: String?) async throws(StoreError) -> [Marker] {
        try TextField.check(author, field: "author")
        try TextField.check(change.reason, field: "reason")
        try StoreRules.checkFields(note: change.note, category: change.category, assignee: change.assignee, ref: nil)
        return try await write { db in
            let drawing = try Self.fetchDrawing(db, named: name)
            var updated: [Marker] = []
            updated.reserveCapacity(numbers.count)
            for number in numbers {
                var marker = try Self.fetchMarker(db, drawing, number)
                try Self.apply(change, to: &marker, db: db, drawing: drawing, author: author,
                               validator: { db throws in try self.currentValidator(db, for: drawing) })
                updated.append(marker)
            }
            return updated
        }
    }

    /// Applies `change` to `marker` and records it (see `updateMarker`; the rules are `MarkerEdit`'s).
    static func apply(_ change: MarkerChange, to marker: inout Marker, db: Database, drawing: Drawing, author: String?,
                      validator: (Database) throws -> MarkerValidator) throws {
        let validator = MarkerEdit.places(change, marker) ? try validator(db) : nil
        guard let edit = try MarkerEdit.make(change, to: marker, drawing: drawing.name, validator: validator, now: .now()) else { return }
        marker = edit.marker
        try marker.update(db)
        try record(db, marker, edit.action, at: marker.updatedAt, author: author, old: edit.old, new: edit.new)
    }

    /// Removes a marker with its attachments; the history keeps its last values and the number is never given again.
    public func removeMarker(_ number: Int, in name: String, author: String?) async throws(StoreError) -> Marker {
        try TextField.check(author, field: "author")
        return try await write { db in
            let drawing = try Self.fetchDrawing(db, named: name)
            let marker = try Self.fetchMarker(db, drawing, number)
            try Self.deleteAttachments(db, drawingID: drawing.id!, numbers: [number])
            try marker.delete(db)
            try Self.record(db, marker, .removed, at: .now(), author: author, old: marker.state, new: nil)
            return marker
        }
    }

    // MARK: Helpers

    static func fetchMarker(_ db: Database, _ drawing: Drawing, _ number: Int) throws -> Marker {
        guard let marker = try Marker.fetchOne(try db.cachedStatement(sql: Marker.selectSQL + " WHERE marker.drawingId = ? AND marker.number = ?"),
                                               arguments: [drawing.id!, number]) else {
            throw StoreError.unknownMarker(drawing: drawing.name, number: number)
        }
        return marker
    }

    /// The marker with `uuid`, on any drawing: a client's uuid by the uuid index, one the store made
    /// (`DerivedUUID`) by its drawing's seed and number. A uuid of the store's own form for a marker that was
    /// removed is `uuidConflict`; for a number not given yet it is refused (storing it as a client's could
    /// later meet the uuid the store makes for that number).
    /// - Complexity: O(log n).
    static func fetchMarker(_ db: Database, uuid: MarkerUUID) throws -> Marker? {
        let stored = try Marker.fetchOne(try db.cachedStatement(sql: Marker.selectSQL + " WHERE marker.uuid = ?"), arguments: [uuid.text])
        guard stored == nil, let (drawing, number) = try derivedOwner(db, uuid) else { return stored }
        if let marker = try Marker.fetchOne(try db.cachedStatement(sql: Marker.selectSQL + " WHERE marker.drawingId = ? AND marker.number = ?"),
                                            arguments: [drawing.id!, number]), marker.uuidIsDerived {
            return marker
        }
        if number < drawing.nextNumber { throw StoreError.uuidConflict(uuid: uuid, drawing: drawing.name, number: number) }
        throw StoreError.refused(.uuidNotIssued(uuid: uuid, drawing: drawing.name, number: number))
    }

    /// The drawing whose store-made uuids (`DerivedUUID`) have `uuid`'s form, and the number it names.
    static func derivedOwner(_ db: Database, _ uuid: MarkerUUID) throws -> (Drawing, Int)? {
        guard let (seed, number) = DerivedUUID.parts(of: uuid),
              let drawing = try Drawing.filter(Column("uuidSeed") == seed).fetchOne(db) else { return nil }
        return (drawing, number)
    }

    /// The marker's values when it was created: recorded whole by `addMarker`, reconstructed for an import's range.
    /// - Complexity: O(e) for the marker's e history entries.
    static func creationState(_ db: Database, of marker: Marker) throws -> MarkerState {
        let entries = try historyEntries(db, drawingID: marker.drawingID, number: marker.number)
        guard let index = entries.lastIndex(where: { $0.action == .created }) else { return marker.state }
        if let recorded = entries[index].new, entries[index].lastNumber == nil, recorded.uuid != nil { return recorded }
        return StoreRules.stateAtCreation(current: marker.state, laterEntries: Array(entries[(index + 1)...])) ?? marker.state
    }

    /// Appends a history entry for `marker`.
    static func record(_ db: Database, _ marker: Marker, _ action: HistoryAction, at: Timestamp, author: String?,
                       old: MarkerState?, new: MarkerState?) throws {
        var entry = HistoryEntry(sequence: 0, drawingID: marker.drawingID, number: marker.number, action: action,
                                 at: at, author: author, old: old, new: new)
        try entry.insert(db)
    }

    /// Removes every marker of a single-marker drawing because marker `number` replaces them.
    static func replaceAll(_ db: Database, drawingID: Int64, by number: Int, at: Timestamp, author: String?) throws {
        let existing = try Marker.fetchAll(db, sql: Marker.selectSQL + " WHERE marker.drawingId = ?", arguments: [drawingID])
        try deleteAttachments(db, drawingID: drawingID, numbers: existing.map(\.number))
        for old in existing {
            try old.delete(db)
            try record(db, old, .removed, at: at, author: author, old: old.state, new: MarkerState(replacedBy: number))
        }
    }
}
