import PlanMarkFormats
import PlanMarkGeometry

extension StoreBackend {
    /// Adds a drawing: reads the image (or takes the bytes the caller already read and checked), takes the size from
    /// its PNG header (for a page of a PDF, `new.pdf`'s, once the bytes start with `%PDF-`) and its SHA-256, and stores the drawing, its image bytes (content-addressed: one copy per
    /// SHA-256), its first revision and its regions in one transaction. Two writers adding one name at once: the
    /// unique index decides, and the later one is `duplicateDrawing`.
    /// - Complexity: O(image bytes + region vertices).
    public func addDrawing(_ new: NewDrawing, regions: [Region]) async throws(StoreError) -> Drawing {
        let checked = try StoreRules.drawing(new, regions: regions)
        var drawing = checked.drawing
        let bytes = checked.bytes
        return try await write(drawing: nil) { transaction, _ in
            drawing.projectID = try await TeamRows.projectID(named: new.project ?? Project.defaultName, transaction)
            guard let id = try await transaction.insert(drawing) else { throw StoreError.duplicateDrawing(new.name) }
            drawing.id = id
            try await transaction.storeImage(sha256: drawing.imageSHA256, bytes: bytes)
            try await transaction.insert(Revision(number: 1, imagePath: drawing.imagePath, imageSHA256: drawing.imageSHA256,
                                                  width: drawing.width, height: drawing.height, createdAt: drawing.createdAt,
                                                  pdf: drawing.pdf),
                                         drawingID: id)
            try await transaction.replaceRegions(drawingID: id, with: regions)
            try await Self.feedEvent(transaction, .drawingAdded, drawing: drawing)
            return drawing
        }
    }

    /// Gives the drawing a new revision of its sheet (see `AnnotationStore.reviseDrawing`).
    ///
    /// In one transaction under the drawing's lock (rolled back for a dry run, or by any failure, a crash included):
    /// reads the markers once, carries each through the transform and validates it against the new size and regions
    /// (`new.regions`, else the current regions transformed); then writes every marker's new placement and its
    /// `revised` history entry (`writePlacements`, each back end's bulk path, and `appendHistory`), stores the image bytes once per
    /// SHA-256, the revision row, the regions and the drawing's image columns, its PDF page among them (so tiles, the
    /// review page and render serve the new sheet). A PNG revision of a PDF drawing, and a PDF revision of a PNG one, are
    /// revisions like any other: each revision row keeps its own source, the drawing's follows the current one. No marker is dropped: one that does not validate is kept at its transformed position with
    /// `needsPlacement` set to the reason; one that had rooms and lands in none is `outside-rooms`. A marker that was
    /// flagged and validates now is placed again.
    /// - Complexity: O(m * k) validation for m markers and k nearby regions, O(m log m) writes, O(v log v) for v region
    ///   vertices; O(m) memory.
    public func reviseDrawing(_ name: String, _ new: NewRevision, dryRun: Bool, author: String?) async throws(StoreError) -> RevisionOutcome {
        let sheet = try RevisionSheet(new, author: author)
        let transform = new.alignment.transform
        return try await writeOrRollBack(drawing: name) { transaction, locked in
            guard var drawing = locked, let drawingID = drawing.id else { throw StoreError.unknownDrawing(name) }
            let regions: [Region]
            if let given = new.regions {
                regions = given
            } else {
                regions = try await transaction.regions(drawingID: drawingID).map { region throws(StoreError) in
                    try RevisionCarry.region(region, drawing: name, through: transform)
                }
            }
            let now = Timestamp.now()
            let previous = drawing.revision
            let (revision, validator) = sheet.revision(after: drawing, regions: regions, new, at: now, author: author)
            var carried = try await transaction.placements(of: drawing)
            var roomsChanged = 0
            var unplaced: [UnplacedMarker] = []
            var hits: [RegionHit] = []
            for index in carried.indices {
                let old = carried[index]
                let (position, rooms, reason) = try RevisionCarry.placement(of: old.number, at: old.position, rooms: old.rooms, drawing: name,
                                                                            through: transform, validator: validator, hits: &hits)
                if rooms != old.rooms { roomsChanged += 1 }
                carried[index].newPosition = position
                carried[index].newRooms = rooms
                carried[index].newReason = reason
                if let reason { unplaced.append(UnplacedMarker(number: old.number, from: old.position, to: position, reason: reason)) }
            }
            let outcome = RevisionOutcome(revision: revision, previous: previous, residuals: new.alignment.residuals,
                                          carried: carried.count, roomsChanged: roomsChanged, unplaced: unplaced,
                                          regionCount: regions.count, dryRun: dryRun)
            if dryRun { return (outcome, commit: false) }
            if !carried.isEmpty {
                try await transaction.writePlacements(carried, drawingID: drawingID, at: now, firstCursor: try await transaction.takeCursors(carried.count))
                try await Self.appendHistory(transaction, rows: carried.map { placement in
                    HistoryRow(drawingID: drawingID, number: placement.number, lastNumber: nil, action: HistoryAction.revised.rawValue,
                               at: now.milliseconds, author: author, oldValue: placement.oldState(revision: previous),
                               newValue: placement.newState(revision: revision.number))
                })
            }
            try await transaction.storeImage(sha256: sheet.sha256, bytes: sheet.bytes)
            try await transaction.insert(revision, drawingID: drawingID)
            try await transaction.replaceRegions(drawingID: drawingID, with: regions)
            drawing.imagePath = revision.imagePath
            drawing.imageSHA256 = sheet.sha256
            drawing.width = sheet.width
            drawing.height = sheet.height
            drawing.pdf = sheet.pdf
            drawing.revision = revision.number
            // A new regions revision also retires the cached validators (`ValidatorCache`), which hold the old size.
            drawing.regionsRevision += 1
            try await transaction.update(drawing)
            try await Self.feedEvent(transaction, .drawingRevised, drawing: drawing)
            return (outcome, commit: true)
        }
    }
}

/// A marker's placement before and after a revision (`StoreBackend.reviseDrawing`): what `StoreTransaction.placements`
/// reads and `writePlacements` writes. Rooms are kept as their stored JSON text.
public struct Placement: Sendable {
    public var number: Int
    public var position: PixelPoint
    public var rooms: String
    public var reason: String?
    public var newPosition = PixelPoint(x: 0, y: 0)
    public var newRooms = "[]"
    public var newReason: String?

    public init(number: Int, position: PixelPoint, rooms: String, reason: String?) {
        self.number = number
        self.position = position
        self.rooms = rooms
        self.reason = reason
    }

    /// The `revised` history entry's old value: position, rooms and revision `previous`, and `needsPlacement` when
    /// either side has one.
    public func oldState(revision previous: Int) -> String {
        StoreRules.stateJSON(position, rooms: rooms, reason: flagged ? Update(reason) : .keep, revision: previous)
    }

    /// The `revised` history entry's new value (as `oldState`, after the revision `next`).
    public func newState(revision next: Int) -> String {
        StoreRules.stateJSON(newPosition, rooms: newRooms, reason: flagged ? Update(newReason) : .keep, revision: next)
    }

    /// Whether the placement needs placement before or after the revision.
    private var flagged: Bool { reason != nil || newReason != nil }
}
