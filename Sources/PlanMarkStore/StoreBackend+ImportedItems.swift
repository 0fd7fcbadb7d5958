import PlanMarkFormats
import PlanMarkGeometry

extension StoreBackend {
    /// Stores `items` on drawing `name` in one transaction, with their comments, or nothing.
    ///
    /// An item whose uuid a marker of this drawing has already is skipped whole (its comments too): importing one file
    /// twice stores nothing the second time. A uuid of a marker on another drawing is `uuidConflict`. A placed item's
    /// position is validated as `addMarker` validates one (a refusal stores nothing); an item with `needsPlacement` is
    /// stored where it says, flagged. Each marker gets the next number, in the items' order, a `created` history entry
    /// by `author` (who imports; the marker's own `author` is the item's), and one `commented` entry per comment, by
    /// the comment's author.
    /// - Complexity: O(k log n + c log h) for k items with c comments on a drawing of n markers, plus O(region
    ///   vertices) when the regions changed since this process last validated on the drawing.
    public func importItems(into name: String, _ items: [ImportedItem], author: String?) async throws(StoreError) -> ItemsImport {
        try TextField.check(author, field: "author")
        for item in items {
            guard item.marker.uuid != nil else { throw StoreError.invalidArgument("an imported item needs a uuid") }
            let new = item.marker
            try StoreRules.checkFields(note: Update(new.note), category: Update(new.category), assignee: Update(new.assignee), ref: new.ref)
            try TextField.check(item.author, field: "author")
            try TextField.check(item.needsPlacement, field: "needsPlacement")
            for comment in item.comments { try StoreRules.comment(comment.text, author: comment.author) }
        }
        return try await write(drawing: name) { transaction, locked in
            guard var drawing = locked, let drawingID = drawing.id else { throw StoreError.unknownDrawing(name) }
            let validator = try await validator(transaction, for: drawing)
            let now = Timestamp.now()
            var outcome = ItemsImport(stored: [], alreadyStored: [], comments: 0)
            var seen = Set<MarkerUUID>()
            for item in items {
                let uuid = item.marker.uuid!
                if let stored = try await Self.marker(transaction, uuid: uuid) {
                    guard stored.drawingID == drawingID else { throw try await Self.uuidConflict(transaction, uuid: uuid, stored: stored) }
                    outcome.alreadyStored.append(uuid)
                    continue
                }
                // The same uuid twice in one file: the first is stored, the second is as if imported again.
                guard seen.insert(uuid).inserted else {
                    outcome.alreadyStored.append(uuid)
                    continue
                }
                let verdict = validator.validate(item.marker.position)
                if item.needsPlacement == nil, let reason = verdict.reason {
                    throw StoreError.invalidMarker(reason: reason, position: item.marker.position)
                }
                var marker = StoreRules.marker(item.marker, number: drawing.nextNumber, of: drawing, verdict: verdict, validator: validator,
                                               author: item.author, at: now)
                marker.needsPlacement = item.needsPlacement
                if drawing.singleMarker {
                    try await Self.replaceAll(transaction, drawing: drawing, by: marker.number, at: now, author: author)
                }
                marker.cursor = try await transaction.takeCursors(1)
                marker.version += item.comments.count
                drawing.nextNumber += 1
                guard try await transaction.insert(marker) else {
                    guard let stored = try await Self.marker(transaction, uuid: uuid) else {
                        throw StoreError.io("marker \(marker.number): the uuid index refused the insert, but no marker has its uuid")
                    }
                    throw try await Self.uuidConflict(transaction, uuid: uuid, stored: stored)
                }
                var created = marker.state
                created.needsPlacement = Update(item.needsPlacement)
                var entries = [HistoryEntry(sequence: 0, drawingID: drawingID, number: marker.number, action: .created, at: now,
                                            author: author ?? item.author, old: nil, new: created)]
                for comment in item.comments {
                    var new = MarkerState()
                    new.comment = comment.text
                    entries.append(HistoryEntry(sequence: 0, drawingID: drawingID, number: marker.number, action: .commented, at: now,
                                                author: comment.author, old: nil, new: new))
                }
                try await Self.appendHistory(transaction, entries)
                outcome.stored.append(marker)
                outcome.comments += item.comments.count
            }
            if !outcome.stored.isEmpty { try await transaction.update(drawing) }
            return outcome
        }
    }
}
