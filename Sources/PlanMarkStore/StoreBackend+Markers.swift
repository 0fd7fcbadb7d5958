import PlanMarkFormats
import PlanMarkGeometry

extension StoreBackend {
    /// Validates `new.position` against the drawing and stores a new marker with the next number, in a transaction of
    /// its own (see `placeMarker`).
    public func addMarker(to name: String, _ new: NewMarker, author: String?) async throws(StoreError) -> MarkerCreation {
        try StoreRules.checkFields(note: Update(new.note), category: Update(new.category), assignee: Update(new.assignee), ref: new.ref)
        try TextField.check(author, field: "author")
        return try await placeMarker(in: name, new, author: author)
    }

    /// `addMarker`'s transaction: the next number of the drawing's counter, taken under the drawing's lock, so that two
    /// writers never give one number twice and a rolled-back insert gives none away. In single-marker mode the existing
    /// markers are removed first (their history says which replaced them).
    ///
    /// Offline capture: a `uuid` stored already for this drawing, with the same position and fields as when that
    /// marker was created, returns the stored marker and stores nothing; with other content (or on another drawing) it
    /// is `uuidConflict`. The lookup runs under the drawing's lock, so clients sending the same item to one drawing at
    /// once store it once; the unique uuid index settles a race between two drawings' writers.
    /// - Complexity: O(log n) for the lookup and the insert, plus O(region vertices) when the regions changed since this
    ///   process last validated on the drawing.
    package func placeMarker(in name: String, _ new: NewMarker, author: String?) async throws(StoreError) -> MarkerCreation {
        try await write(drawing: name) { transaction, locked in
            guard var drawing = locked, let drawingID = drawing.id else { throw StoreError.unknownDrawing(name) }
            if let uuid = new.uuid, let stored = try await Self.marker(transaction, uuid: uuid) {
                guard stored.drawingID == drawingID, StoreRules.sameContent(new, try await Self.creationState(transaction, of: stored)) else {
                    throw try await Self.uuidConflict(transaction, uuid: uuid, stored: stored)
                }
                return MarkerCreation(marker: stored, created: false)
            }
            let validator = try await validator(transaction, for: drawing)
            let verdict = validator.validate(new.position)
            if let reason = verdict.reason { throw StoreError.invalidMarker(reason: reason, position: new.position) }
            let now = Timestamp.now()
            var marker = StoreRules.marker(new, number: drawing.nextNumber, of: drawing, verdict: verdict, validator: validator,
                                           author: author, at: now)
            if drawing.singleMarker {
                try await Self.replaceAll(transaction, drawing: drawing, by: marker.number, at: now, author: author)
            }
            marker.cursor = try await transaction.takeCursors(1)
            drawing.nextNumber += 1
            try await transaction.update(drawing)
            guard try await transaction.insert(marker) else {
                // Another drawing's writer stored this uuid after the lookup (the unique index waited for it).
                guard let uuid = new.uuid, let stored = try await Self.marker(transaction, uuid: uuid) else {
                    throw StoreError.io("marker \(marker.number): the uuid index refused the insert, but no marker has its uuid")
                }
                throw try await Self.uuidConflict(transaction, uuid: uuid, stored: stored)
            }
            try await Self.record(transaction, marker, .created, at: now, author: author, old: nil, new: marker.state)
            return MarkerCreation(marker: marker, created: true)
        }
    }

    /// Applies `change` to every marker of `numbers` (in that order) in one transaction, or to none.
    /// - Complexity: O(k log n) for k numbers, plus O(region vertices) when the regions changed since the last write.
    public func updateMarkers(_ numbers: [Int], in name: String, _ change: MarkerChange, author: String?) async throws(StoreError) -> [Marker] {
        try TextField.check(author, field: "author")
        try TextField.check(change.reason, field: "reason")
        try StoreRules.checkFields(note: change.note, category: change.category, assignee: change.assignee, ref: nil)
        return try await write(drawing: name) { transaction, locked in
            guard let drawing = locked else { throw StoreError.unknownDrawing(name) }
            var updated: [Marker] = []
            updated.reserveCapacity(numbers.count)
            for number in numbers {
                var marker = try await Self.marker(transaction, number, of: drawing)
                try Self.check(change.ifVersion, of: marker, in: drawing)
                let validator = MarkerEdit.places(change, marker) ? try await validator(transaction, for: drawing) : nil
                if let edit = try MarkerEdit.make(change, to: marker, drawing: drawing.name, validator: validator, now: .now()) {
                    marker = edit.marker
                    marker.version += 1
                    marker.cursor = try await transaction.takeCursors(1)
                    try await transaction.update(marker)
                    try await Self.record(transaction, marker, edit.action, at: marker.updatedAt, author: author, old: edit.old, new: edit.new)
                }
                updated.append(marker)
            }
            return updated
        }
    }

    /// Removes a marker with its attachments; the history keeps its last values and the number is never given again.
    /// - Complexity: O(log n + a) for its a attachments.
    /// With `ifVersion` (`If-Match`), only while the marker is at that version (else `versionConflict`, nothing removed).
    public func removeMarker(_ number: Int, in name: String, author: String?, ifVersion: Int?) async throws(StoreError) -> Marker {
        try TextField.check(author, field: "author")
        return try await write(drawing: name) { transaction, locked in
            guard let drawing = locked, let drawingID = drawing.id else { throw StoreError.unknownDrawing(name) }
            let marker = try await Self.marker(transaction, number, of: drawing)
            try Self.check(ifVersion, of: marker, in: drawing)
            try await transaction.deleteAttachments(drawingID: drawingID, numbers: [number])
            try await transaction.delete(marker)
            try await Self.record(transaction, marker, .removed, at: .now(), author: author, old: marker.state, new: nil)
            try await Self.feedEvent(transaction, .remove, drawing: drawing, number: number, uuid: marker.uuid)
            return marker
        }
    }

    // MARK: Helpers

    /// Refuses (`versionConflict`) when `expected` is given and is not `marker`'s version.
    static func check(_ expected: Int?, of marker: Marker, in drawing: Drawing) throws(StoreError) {
        if let expected, expected != marker.version { throw StoreError.versionConflict(drawing: drawing.name, current: marker) }
    }

    /// Counts a change that leaves the marker's row as it is (a comment, an attachment) in its version.
    /// - Complexity: O(log n).
    static func countChange(_ transaction: Transaction, _ marker: Marker) async throws -> Marker {
        var changed = marker
        changed.version += 1
        changed.cursor = try await transaction.takeCursors(1)
        try await transaction.update(changed)
        return changed
    }

    /// The validator for `drawing`: the cached one while its regions revision is unchanged, else built from the stored
    /// regions and cached. Call it in a write transaction that read `drawing` under its lock, so the revision is current.
    /// - Complexity: O(1) on a hit; O(region vertices) to rebuild.
    package func validator(_ transaction: Transaction, for drawing: Drawing) async throws -> MarkerValidator {
        if let cached = validators.validator(for: drawing) { return cached }
        let validator = StoreRules.validator(for: drawing, regions: try await transaction.regions(drawingID: drawing.id!))
        validators.store(validator, for: drawing)
        return validator
    }

    /// Marker `number` of `drawing`; `unknownMarker` when there is none.
    /// - Complexity: O(log n).
    static func marker(_ transaction: Transaction, _ number: Int, of drawing: Drawing) async throws -> Marker {
        guard let marker = try await transaction.marker(number, of: drawing) else {
            throw StoreError.unknownMarker(drawing: drawing.name, number: number)
        }
        return marker
    }

    /// The marker with `uuid`, on any drawing: a client's uuid by the uuid index, one the store made (`DerivedUUID`) by
    /// its drawing's seed and number. A uuid of the store's own form for a marker that was removed is `uuidConflict`;
    /// for a number not given yet it is refused (storing it as a client's could later meet the uuid the store makes for
    /// that number).
    /// - Complexity: O(log N), plus `drawing(uuidSeed:)`'s for a uuid of the store's form.
    package static func marker(_ transaction: Transaction, uuid: MarkerUUID) async throws -> Marker? {
        if let (drawingID, number) = try await transaction.markerWith(uuid: uuid) {
            guard let drawing = try await transaction.drawing(id: drawingID) else { return nil }
            return try await transaction.marker(number, of: drawing)
        }
        guard let (seed, number) = DerivedUUID.parts(of: uuid), let drawing = try await transaction.drawing(uuidSeed: seed) else {
            return nil
        }
        if let marker = try await transaction.marker(number, of: drawing), marker.uuidIsDerived { return marker }
        if number < drawing.nextNumber { throw StoreError.uuidConflict(uuid: uuid, drawing: drawing.name, number: number) }
        throw StoreError.refused(.uuidNotIssued(uuid: uuid, drawing: drawing.name, number: number))
    }

    /// The `uuidConflict` for `uuid`, naming the drawing and number of the marker that has it.
    package static func uuidConflict(_ transaction: Transaction, uuid: MarkerUUID, stored: Marker) async throws -> StoreError {
        let owner = try await transaction.drawing(id: stored.drawingID)?.name ?? "?"
        return StoreError.uuidConflict(uuid: uuid, drawing: owner, number: stored.number)
    }

    /// The marker's values when it was created: recorded whole by `addMarker`, reconstructed for an import's range.
    /// - Complexity: O(log h + e) for the marker's e history entries.
    package static func creationState(_ transaction: Transaction, of marker: Marker) async throws -> MarkerState {
        let entries = try await transaction.historyEntries(drawingID: marker.drawingID, number: marker.number)
        guard let index = entries.lastIndex(where: { $0.action == .created }) else { return marker.state }
        if let recorded = entries[index].new, entries[index].lastNumber == nil, recorded.uuid != nil { return recorded }
        return StoreRules.stateAtCreation(current: marker.state, laterEntries: Array(entries[(index + 1)...])) ?? marker.state
    }

    /// Appends a history entry for `marker`; its id.
    /// - Complexity: O(log h).
    @discardableResult
    static func record(_ transaction: Transaction, _ marker: Marker, _ action: HistoryAction, at: Timestamp, author: String?,
                       old: MarkerState?, new: MarkerState?) async throws -> Int64 {
        try await appendHistory(transaction, [HistoryEntry(sequence: 0, drawingID: marker.drawingID, number: marker.number, action: action,
                                                           at: at, author: author, old: old, new: new)])
    }

    /// Appends `entries` to the history, chained after its head (`HistoryChain`); the last one's id.
    /// - Complexity: O(k log h) for k entries, and the entries' size for their hashes.
    @discardableResult
    package static func appendHistory(_ transaction: Transaction, _ entries: [HistoryEntry]) async throws -> Int64 {
        try await appendHistory(transaction, rows: entries.map(HistoryRow.init))
    }

    /// Appends `rows` (as stored) to the history, chained after its head; the last one's id.
    /// - Complexity: as `appendHistory(_:_:)`.
    @discardableResult
    package static func appendHistory(_ transaction: Transaction, rows: [HistoryRow]) async throws -> Int64 {
        guard !rows.isEmpty else { return 0 }
        return try await transaction.append(HistoryChain.link(rows, after: try await transaction.historyHead()))
    }

    /// Removes every marker of a single-marker drawing because marker `number` replaces them.
    /// - Complexity: O(m log n) for its m markers (one, in single-marker mode).
    package static func replaceAll(_ transaction: Transaction, drawing: Drawing, by number: Int, at: Timestamp, author: String?) async throws {
        let existing = try await transaction.markers(of: drawing)
        try await transaction.deleteAttachments(drawingID: drawing.id!, numbers: existing.map(\.number))
        for old in existing {
            try await transaction.delete(old)
            try await record(transaction, old, .removed, at: at, author: author, old: old.state, new: MarkerState(replacedBy: number))
            try await feedEvent(transaction, .remove, drawing: drawing, number: old.number, uuid: old.uuid)
        }
    }
}
