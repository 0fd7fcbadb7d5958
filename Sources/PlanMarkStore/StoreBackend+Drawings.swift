import PlanMarkGeometry

extension StoreBackend {
    /// Renames a drawing; its markers, history and attachments stay with it (they refer to its id).
    /// - Complexity: O(log d) for d drawings.
    public func renameDrawing(_ name: String, to newName: String) async throws(StoreError) -> Drawing {
        try TextField.checkName(newName, field: "name")
        return try await write(drawing: name) { transaction, locked in
            guard var drawing = locked else { throw StoreError.unknownDrawing(name) }
            if newName == name { return drawing }
            if try await transaction.drawingExists(named: newName) { throw StoreError.duplicateDrawing(newName) }
            drawing.name = newName
            try await transaction.update(drawing)
            try await Self.feedEvent(transaction, .drawingRenamed, drawing: drawing)
            return drawing
        }
    }

    /// Removes a drawing with its regions, markers, revisions and attachments in one transaction, and its images and
    /// attachment bytes when nothing else uses them (its history stays: the hash chain goes through it). Refused while it
    /// has markers unless `force`.
    /// - Complexity: O(n + h + a + r) for its markers, history entries, attachments and revisions.
    public func removeDrawing(_ name: String, force: Bool) async throws(StoreError) -> DrawingRemoval {
        try await write(drawing: name) { transaction, locked in
            guard let drawing = locked, let drawingID = drawing.id else { throw StoreError.unknownDrawing(name) }
            let (markers, attachments) = try await transaction.counts(drawingID: drawingID)
            if markers > 0 && !force {
                throw StoreError.refused(.drawingHasMarkers(drawing: name, count: markers))
            }
            try await transaction.delete(drawing)
            try await Self.feedEvent(transaction, .drawingRemoved, drawing: drawing)
            return DrawingRemoval(name: name, markers: markers, attachments: attachments)
        }
    }

    /// Sets the drawing's scale from `calibration` (replacing any earlier one); refused with `invalidArgument` when the
    /// calibration gives no scale (two equal points, a distance or dpi that is not positive).
    /// - Complexity: O(log d) for d drawings.
    public func calibrate(_ name: String, with calibration: Calibration) async throws(StoreError) -> Drawing {
        guard let metresPerPixel = calibration.metresPerPixel else {
            throw StoreError.invalidArgument("drawing \"\(name)\": the calibration gives no scale (the points coincide, or a number is not positive)")
        }
        return try await write(drawing: name) { transaction, locked in
            guard var drawing = locked else { throw StoreError.unknownDrawing(name) }
            drawing.metresPerPixel = metresPerPixel
            drawing.calibration = calibration
            try await transaction.update(drawing)
            try await Self.feedEvent(transaction, .drawingCalibrated, drawing: drawing)
            return drawing
        }
    }

    /// Replaces the drawing's regions in one transaction and reassigns every marker's rooms (an `edited` history entry
    /// for each marker whose rooms change). Refused when a stored marker would fall outside the new allowed area, unless
    /// `force` (the markers are then kept where they are). The regions revision is bumped, which retires cached
    /// validators in every process.
    /// - Complexity: O(v + m * k) for v region vertices and m markers tested against k nearby regions; O(c) memory
    ///   for the c markers whose rooms change (the others are streamed).
    public func replaceRegions(of name: String, with regions: [Region], force: Bool, author: String?) async throws(StoreError) -> RegionsReplacement {
        try TextField.check(author, field: "author")
        try StoreRules.checkText(of: regions)
        return try await write(drawing: name) { transaction, locked in
            guard var drawing = locked, let drawingID = drawing.id else { throw StoreError.unknownDrawing(name) }
            let validator = StoreRules.validator(for: drawing, regions: regions)
            var outside: [Int] = []
            var changed: [(number: Int, rooms: [String])] = []
            var entries: [HistoryEntry] = []
            var hits: [RegionHit] = []
            let now = Timestamp.now()
            try await transaction.forEachPlacement(of: drawing) { number, position, old in
                if validator.validate(position, hits: &hits) != nil { outside.append(number) }
                let rooms = StoreRules.rooms(hits, validator: validator)
                guard rooms != old else { return }
                changed.append((number, rooms))
                entries.append(HistoryEntry(sequence: 0, drawingID: drawingID, number: number, action: .edited, at: now, author: author,
                                            old: MarkerState(rooms: old), new: MarkerState(rooms: rooms)))
            }
            if !outside.isEmpty && !force {
                throw StoreError.refused(.markersOutsideAllowedArea(drawing: name, numbers: outside))
            }
            try await transaction.replaceRegions(drawingID: drawingID, with: regions)
            drawing.regionsRevision += 1
            try await transaction.update(drawing)
            if !changed.isEmpty {
                try await transaction.setRooms(changed, drawingID: drawingID, at: now, firstCursor: try await transaction.takeCursors(changed.count))
                try await Self.appendHistory(transaction, entries)
            }
            try await Self.feedEvent(transaction, .drawingRegions, drawing: drawing)
            return RegionsReplacement(regionCount: regions.count, markersReassigned: changed.count, markersOutside: outside)
        }
    }
}
