import GRDB
import PlanMarkGeometry

extension SQLiteStore {
    /// Replaces the drawing's regions in one transaction and reassigns every marker's rooms (an `edited`
    /// history entry for each marker whose rooms change). Refused when a stored marker would fall outside
    /// the new allowed area, unless `force` (the markers are then kept where they are).
    /// - Complexity: O(v + m * k) for v region vertices and m markers tested against k nearby regions.
    public func replaceRegions(of name: String, with regions: [Region], force: Bool, author: String?) async throws(StoreError) -> RegionsReplacement {
        try TextField.check(author, field: "author")
        try StoreRules.checkText(of: regions)
        return try await write { db in
            var drawing = try Self.fetchDrawing(db, named: name)
            let drawingID = drawing.id!
            let validator = StoreRules.validator(for: drawing, regions: regions)
            var outside: [Int] = []
            var changed: [(marker: Marker, rooms: [String])] = []
            let cursor = try Marker.fetchCursor(db, sql: Marker.selectSQL + " WHERE marker.drawingId = ? ORDER BY marker.number",
                                                arguments: [drawingID])
            var hits: [RegionHit] = []
            while let marker = try cursor.next() {
                if validator.validate(marker.position, hits: &hits) != nil { outside.append(marker.number) }
                let rooms = StoreRules.rooms(hits, validator: validator)
                if rooms != marker.rooms { changed.append((marker, rooms)) }
            }
            if !outside.isEmpty && !force {
                throw StoreError.refused(.markersOutsideAllowedArea(drawing: name, numbers: outside))
            }
            try RegionRecord.filter(Column("drawingId") == drawingID).deleteAll(db)
            for (position, region) in regions.enumerated() {
                try RegionRecord(drawingID: drawingID, position: position, region: region).insert(db)
            }
            drawing.regionsRevision += 1
            try drawing.update(db, columns: ["regionsRevision"])
            let now = Timestamp.now()
            for (marker, rooms) in changed {
                var updated = marker
                updated.rooms = rooms
                updated.updatedAt = now
                try updated.update(db)
                try Self.record(db, updated, .edited, at: now, author: author,
                                old: MarkerState(rooms: marker.rooms), new: MarkerState(rooms: rooms))
            }
            return RegionsReplacement(regionCount: regions.count, markersReassigned: changed.count, markersOutside: outside)
        }
    }
}
