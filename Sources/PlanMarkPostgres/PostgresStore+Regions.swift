import PlanMarkGeometry
import PlanMarkStore
import PostgresNIO

extension PostgresStore {
    /// Replaces the drawing's regions in one transaction (under the drawing's row lock) and reassigns every marker's
    /// rooms (an `edited` history entry for each marker whose rooms change). Refused when a stored marker would fall
    /// outside the new allowed area, unless `force` (the markers are then kept where they are). The regions revision
    /// is bumped, which retires cached validators in every process.
    /// - Complexity: O(v + m * k) for v region vertices and m markers tested against k nearby regions; the changed
    ///   markers and their history entries are written with one statement each (arrays, `unnest`).
    public func replaceRegions(of name: String, with regions: [Region], force: Bool, author: String?) async throws(StoreError) -> RegionsReplacement {
        try TextField.check(author, field: "author")
        try StoreRules.checkText(of: regions)
        return try await write(lockDrawing: name) { connection, logger, locked in
            guard let drawing = locked, let drawingID = drawing.id else { throw StoreError.unknownDrawing(name) }
            let validator = StoreRules.validator(for: drawing, regions: regions)
            var outside: [Int] = []
            var changedNumbers: [Int] = []
            var changedOld: [String] = []
            var changedNew: [String] = []
            var changedRooms: [String] = []
            var hits: [RegionHit] = []
            for try await (number, x, y, roomsText) in try await connection.query(
                "SELECT number, x, y, rooms FROM marker WHERE drawingId = \(drawingID) ORDER BY number", logger: logger
            ).decode((Int, Double, Double, String).self) {
                if validator.validate(PixelPoint(x: x, y: y), hits: &hits) != nil { outside.append(number) }
                let rooms = StoreRules.rooms(hits, validator: validator)
                let old = RoomList.rooms(fromJSON: roomsText)
                if rooms != old {
                    changedNumbers.append(number)
                    changedRooms.append(RoomList.jsonText(rooms))
                    changedOld.append(MarkerState(rooms: old).jsonText)
                    changedNew.append(MarkerState(rooms: rooms).jsonText)
                }
            }
            if !outside.isEmpty && !force {
                throw StoreError.refused(.markersOutsideAllowedArea(drawing: name, numbers: outside))
            }
            try await connection.query("DELETE FROM region WHERE drawingId = \(drawingID)", logger: logger)
            try await Self.insertRegions(connection, regions, drawingID: drawingID, logger: logger)
            try await connection.query(
                "UPDATE drawing SET regionsRevision = regionsRevision + 1 WHERE id = \(drawingID)", logger: logger)
            if !changedNumbers.isEmpty {
                let now = Timestamp.now().milliseconds
                // As `Marker.encode`: updatedAt is NULL while it equals createdAt.
                try await connection.query("""
                    UPDATE marker SET rooms = u.rooms, updatedAt = NULLIF(\(now)::bigint, marker.createdAt)
                    FROM unnest(\(changedNumbers)::bigint[], \(changedRooms)::text[]) AS u(number, rooms)
                    WHERE marker.drawingId = \(drawingID) AND marker.number = u.number
                    """, logger: logger)
                try await connection.query("""
                    INSERT INTO history (drawingId, number, action, at, author, oldValue, newValue)
                    SELECT \(drawingID), u.number, 'edited', \(now), \(author), u.old, u.new
                    FROM unnest(\(changedNumbers)::bigint[], \(changedOld)::text[], \(changedNew)::text[]) WITH ORDINALITY AS u(number, old, new, position)
                    ORDER BY u.position
                    """, logger: logger)
            }
            return RegionsReplacement(regionCount: regions.count, markersReassigned: changedNumbers.count, markersOutside: outside)
        }
    }
}
