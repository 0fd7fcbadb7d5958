import GRDB
import GRDBSQLite
import PlanMarkGeometry

extension SQLiteStore {
    /// Validates `position` against the drawing and stores a new marker with the next number. In
    /// single-marker mode the existing markers are removed first (their history says which replaced them).
    /// - Complexity: O(log n) for the insert, plus O(region vertices) when the regions changed since the last write.
    public func addMarker(to name: String, at position: PixelPoint, note: String?, author: String?) throws(StoreError) -> Marker {
        try TextField.check(note, field: "note")
        try TextField.check(author, field: "author")
        return try write { db in
            var drawing = try Self.fetchDrawing(db, named: name)
            let validator = try currentValidator(db, for: drawing)
            let verdict = validator.validate(position)
            if let reason = verdict.reason { throw StoreError.invalidMarker(reason: reason, position: position) }
            let now = Timestamp.now()
            let marker = Marker(drawingID: drawing.id!, number: drawing.nextNumber, position: position, note: note,
                                author: author, rooms: Self.rooms(verdict.hits, validator: validator),
                                createdAt: now, updatedAt: now)
            if drawing.singleMarker {
                try Self.replaceAll(db, drawingID: drawing.id!, by: marker.number, at: now, author: author)
            }
            drawing.nextNumber += 1
            try drawing.update(db, columns: ["nextNumber"])
            try marker.insert(db)
            try Self.record(db, marker, .created, at: now, author: author, old: nil, new: marker.state)
            return marker
        }
    }

    /// One marker.
    public func marker(_ number: Int, in name: String) throws(StoreError) -> Marker {
        try read { db in
            let drawing = try Self.fetchDrawing(db, named: name)
            return try Self.fetchMarker(db, drawing, number)
        }
    }

    /// Calls `body` with each marker by number until it returns false. Reads one snapshot.
    ///
    /// Columns are read by position through SQLite's C API: looking them up by name per row (as
    /// `Marker(row:)` does) costs more than the query itself on a million markers.
    /// - Complexity: O(n) for n markers, streamed (not all in memory).
    public func forEachMarker(in name: String, status: MarkerStatus?, _ body: (Marker) -> Bool) throws(StoreError) {
        try read { db in
            let drawing = try Self.fetchDrawing(db, named: name)
            var sql = "SELECT number, x, y, status, note, author, rooms, createdAt, updatedAt FROM marker WHERE drawingId = ?"
            if status != nil { sql += " AND status = ?" }
            let statement = try db.makeStatement(sql: sql + " ORDER BY number")
            try statement.setArguments(status.map { [drawing.id!, $0.rawValue] } ?? [drawing.id!])
            let handle = statement.sqliteStatement
            defer { sqlite3_reset(handle) }
            func text(_ column: Int32) -> String? {
                guard let bytes = sqlite3_column_text(handle, column) else { return nil }
                return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column))), as: UTF8.self)
            }
            while true {
                let code = sqlite3_step(handle)
                if code == SQLITE_DONE { break }
                guard code == SQLITE_ROW else {
                    throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
                }
                let statusText = text(3) ?? ""
                guard let markerStatus = MarkerStatus(rawValue: statusText) else {
                    throw StoreError.io("marker has an unknown status \"\(statusText)\"")
                }
                let marker = Marker(drawingID: drawing.id!, number: Int(sqlite3_column_int64(handle, 0)),
                                    position: PixelPoint(x: sqlite3_column_double(handle, 1), y: sqlite3_column_double(handle, 2)),
                                    status: markerStatus, note: text(4), author: text(5),
                                    rooms: RoomList.rooms(fromJSON: text(6) ?? "[]"),
                                    createdAt: Timestamp(milliseconds: sqlite3_column_int64(handle, 7)),
                                    updatedAt: Timestamp(milliseconds: sqlite3_column_int64(handle, 8)))
                if !body(marker) { break }
            }
        }
    }

    /// Moves a marker; the new position is validated like a new marker's and its rooms recomputed.
    public func moveMarker(_ number: Int, in name: String, to position: PixelPoint, author: String?) throws(StoreError) -> Marker {
        try updateMarker(number, in: name, MarkerChange(position: position), author: author)
    }

    /// Resolves or reopens a marker; refused when it already has that status.
    public func setStatus(_ status: MarkerStatus, ofMarker number: Int, in name: String, author: String?) throws(StoreError) -> Marker {
        try updateMarker(number, in: name, MarkerChange(status: status), author: author, refuseSameStatus: true)
    }

    /// Changes a marker's note (nil clears it).
    public func setNote(_ note: String?, ofMarker number: Int, in name: String, author: String?) throws(StoreError) -> Marker {
        try updateMarker(number, in: name, MarkerChange(note: .some(note)), author: author)
    }

    /// Applies every field of `change` in one transaction, or none: a refused position (or any failure)
    /// leaves the marker and its history as they were. One history entry records all the fields that
    /// changed, with their exact old values; a change that changes nothing writes nothing.
    /// - Complexity: O(log n), plus O(region vertices) when the regions changed since the last write.
    public func updateMarker(_ number: Int, in name: String, _ change: MarkerChange, author: String?) throws(StoreError) -> Marker {
        try updateMarker(number, in: name, change, author: author, refuseSameStatus: false)
    }

    func updateMarker(_ number: Int, in name: String, _ change: MarkerChange, author: String?, refuseSameStatus: Bool) throws(StoreError) -> Marker {
        try TextField.check(author, field: "author")
        if case .some(let note) = change.note { try TextField.check(note, field: "note") }
        return try write { db in
            let drawing = try Self.fetchDrawing(db, named: name)
            var marker = try Self.fetchMarker(db, drawing, number)
            var old = MarkerState(), new = MarkerState()
            if let position = change.position, position != marker.position {
                let validator = try currentValidator(db, for: drawing)
                let verdict = validator.validate(position)
                if let reason = verdict.reason { throw StoreError.invalidMarker(reason: reason, position: position) }
                let rooms = Self.rooms(verdict.hits, validator: validator)
                old.x = marker.position.x; old.y = marker.position.y; old.rooms = marker.rooms
                new.x = position.x; new.y = position.y; new.rooms = rooms
                marker.position = position
                marker.rooms = rooms
            }
            if let status = change.status {
                if status == marker.status && refuseSameStatus {
                    throw StoreError.refused("drawing \"\(name)\": marker \(number) is already \(status.rawValue)")
                }
                if status != marker.status {
                    old.status = marker.status
                    new.status = status
                    marker.status = status
                }
            }
            if case .some(let note) = change.note, note != marker.note {
                old.note = .some(marker.note)
                new.note = .some(note)
                marker.note = note
            }
            guard old != MarkerState() else { return marker }
            marker.updatedAt = .now()
            try marker.update(db)
            let action: HistoryAction
            if let status = new.status {
                action = status == .resolved ? .resolved : .reopened
            } else if new.x != nil {
                action = .moved
            } else {
                action = .edited
            }
            try Self.record(db, marker, action, at: marker.updatedAt, author: author, old: old, new: new)
            return marker
        }
    }

    /// Removes a marker; the history keeps its last values and the number is never given again.
    public func removeMarker(_ number: Int, in name: String, author: String?) throws(StoreError) -> Marker {
        try TextField.check(author, field: "author")
        return try write { db in
            let drawing = try Self.fetchDrawing(db, named: name)
            let marker = try Self.fetchMarker(db, drawing, number)
            try marker.delete(db)
            try Self.record(db, marker, .removed, at: .now(), author: author, old: marker.state, new: nil)
            return marker
        }
    }

    // MARK: Helpers

    static func fetchMarker(_ db: Database, _ drawing: Drawing, _ number: Int) throws -> Marker {
        guard let marker = try Marker.fetchOne(db, key: ["drawingId": drawing.id!, "number": number]) else {
            throw StoreError.unknownMarker(drawing: drawing.name, number: number)
        }
        return marker
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
        let existing = try Marker.filter(Column("drawingId") == drawingID).fetchAll(db)
        for old in existing {
            try old.delete(db)
            try record(db, old, .removed, at: at, author: author, old: old.state, new: MarkerState(replacedBy: number))
        }
    }
}
