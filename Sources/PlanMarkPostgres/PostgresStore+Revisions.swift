import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore
import PostgresNIO

extension PostgresStore {
    /// Gives the drawing a new revision of its sheet (see `AnnotationStore.reviseDrawing`).
    ///
    /// In one transaction under the drawing's row lock (rolled back for a dry run, or by any failure, a lost
    /// connection included): reads the markers once, carries each through the transform and validates it against
    /// the new size and regions (`new.regions`, else the current regions transformed); then updates the markers and
    /// writes their `revised` history entries with one statement each (arrays through `unnest`), stores the image
    /// bytes once per SHA-256 (`image`), the revision row, the regions and the drawing's image columns. No marker is
    /// dropped: one that does not validate is kept at its transformed position with `needsPlacement` set to the
    /// reason; one that had rooms and lands in none is `outside-rooms`. A flagged marker that validates now is placed
    /// again. The behaviour the contract `AnnotationStore.reviseDrawing` states.
    /// - Complexity: O(m * k) validation for m markers and k nearby regions, O(m log m) writes, O(v log v) for
    ///   v region vertices.
    public func reviseDrawing(_ name: String, _ new: NewRevision, dryRun: Bool, author: String?) async throws(StoreError) -> RevisionOutcome {
        let sheet = try RevisionSheet(new, author: author)
        let bytes = sheet.bytes, digest = sheet.sha256, header = sheet.header
        let transform = new.alignment.transform
        return try await writeOrRollBack(lockDrawing: name) { connection, logger, locked in
            guard let drawing = locked, let drawingID = drawing.id else { throw StoreError.unknownDrawing(name) }
            let regions: [Region]
            if let given = new.regions {
                regions = given
            } else {
                regions = try await Self.fetchRegions(connection, drawingID: drawingID, logger: logger).map { region throws(StoreError) in
                    try RevisionCarry.region(region, drawing: name, through: transform)
                }
            }
            let now = Timestamp.now()
            let previous = drawing.revision
            let (revision, validator) = sheet.revision(after: drawing, regions: regions, new, at: now, author: author)
            // Columns of the marker update and the history insert, one element per marker, by number.
            var numbers: [Int] = []
            var xs: [Double] = []
            var ys: [Double] = []
            var newRooms: [String] = []
            var flagged: [Bool] = []
            var reasons: [String] = []
            var oldStates: [String] = []
            var newStates: [String] = []
            var roomsChanged = 0
            var unplaced: [UnplacedMarker] = []
            var hits: [RegionHit] = []
            for try await (number, x, y, rooms, oldReason) in try await connection.query(
                "SELECT number, x, y, rooms, needsPlacement FROM marker WHERE drawingId = \(drawingID) ORDER BY number", logger: logger
            ).decode((Int, Double, Double, String, String?).self) {
                let old = PixelPoint(x: x, y: y)
                let (position, roomsText, reason) = try RevisionCarry.placement(of: number, at: old, rooms: rooms, drawing: name,
                                                                                through: transform, validator: validator, hits: &hits)
                if roomsText != rooms { roomsChanged += 1 }
                if let reason { unplaced.append(UnplacedMarker(number: number, from: old, to: position, reason: reason)) }
                numbers.append(number)
                xs.append(position.x)
                ys.append(position.y)
                newRooms.append(roomsText)
                flagged.append(reason != nil)
                reasons.append(reason ?? "")
                let either = oldReason != nil || reason != nil
                oldStates.append(StoreRules.stateJSON(old, rooms: rooms, reason: either ? .some(oldReason) : nil, revision: previous))
                newStates.append(StoreRules.stateJSON(position, rooms: roomsText, reason: either ? .some(reason) : nil, revision: revision.number))
            }
            let outcome = RevisionOutcome(revision: revision, previous: previous, residuals: new.alignment.residuals,
                                          carried: numbers.count, roomsChanged: roomsChanged, unplaced: unplaced,
                                          regionCount: regions.count, dryRun: dryRun)
            if dryRun { return (outcome, commit: false) }
            if !numbers.isEmpty {
                try await connection.query("""
                    UPDATE marker SET x = u.x, y = u.y, rooms = u.rooms,
                        needsPlacement = CASE WHEN u.flagged THEN u.reason END, updatedAt = \(now.milliseconds)
                    FROM unnest(\(numbers)::bigint[], \(xs)::float8[], \(ys)::float8[], \(newRooms)::text[], \(flagged)::bool[],
                                \(reasons)::text[]) AS u(number, x, y, rooms, flagged, reason)
                    WHERE marker.drawingId = \(drawingID) AND marker.number = u.number
                    """, logger: logger)
                try await connection.query("""
                    INSERT INTO history (drawingId, number, action, at, author, oldValue, newValue)
                    SELECT \(drawingID), u.number, 'revised', \(now.milliseconds), \(author), u.old, u.new
                    FROM unnest(\(numbers)::bigint[], \(oldStates)::text[], \(newStates)::text[]) WITH ORDINALITY AS u(number, old, new, position)
                    ORDER BY u.position
                    """, logger: logger)
            }
            try await connection.query(
                "INSERT INTO image (sha256, bytes) VALUES (\(digest), \(ByteBuffer(bytes: bytes))) ON CONFLICT (sha256) DO NOTHING",
                logger: logger)
            try await connection.query("""
                INSERT INTO revision (drawingId, number, imagePath, imageSHA256, width, height, createdAt, author, a, b, c, d, e, f, maxResidual)
                VALUES (\(drawingID), \(revision.number), \(revision.imagePath), \(digest), \(header.width), \(header.height),
                        \(now.milliseconds), \(author), \(transform.a), \(transform.b), \(transform.c), \(transform.d), \(transform.e),
                        \(transform.f), \(new.alignment.maxResidual))
                """, logger: logger)
            try await connection.query("DELETE FROM region WHERE drawingId = \(drawingID)", logger: logger)
            try await Self.insertRegions(connection, regions, drawingID: drawingID, logger: logger)
            // A new regions revision also retires the cached validators (`ValidatorCache`), which hold the old size.
            try await connection.query("""
                UPDATE drawing SET imagePath = \(revision.imagePath), imageSHA256 = \(digest), width = \(header.width),
                    height = \(header.height), revision = \(revision.number), regionsRevision = regionsRevision + 1
                WHERE id = \(drawingID)
                """, logger: logger)
            return (outcome, commit: true)
        }
    }

    /// The columns of `revision`, in the order `decodeRevision` reads them.
    static let revisionColumns = "number, imagePath, imageSHA256, width, height, createdAt, author, a, b, c, d, e, f, maxResidual"

    /// A revision from a row of `revisionColumns`.
    static func decodeRevision(_ row: PostgresRow) throws -> Revision {
        let cells = row.makeRandomAccess()
        var transform: AffineMap?
        if let a = try cells[7].decode(Double?.self), let b = try cells[8].decode(Double?.self), let c = try cells[9].decode(Double?.self),
           let d = try cells[10].decode(Double?.self), let e = try cells[11].decode(Double?.self), let f = try cells[12].decode(Double?.self) {
            transform = AffineMap(a: a, b: b, c: c, d: d, e: e, f: f)
        }
        return Revision(number: try cells[0].decode(Int.self), imagePath: try cells[1].decode(String.self),
                        imageSHA256: try cells[2].decode(String.self), width: try cells[3].decode(Int.self),
                        height: try cells[4].decode(Int.self), createdAt: Timestamp(milliseconds: try cells[5].decode(Int64.self)),
                        author: try cells[6].decode(String?.self), transform: transform, maxResidual: try cells[13].decode(Double?.self))
    }

    /// The drawing's revisions, oldest first.
    /// - Complexity: O(r) for its r revisions.
    public func revisions(of name: String) async throws(StoreError) -> [Revision] {
        try await readSnapshot { connection, logger in
            guard let drawing = try await Self.fetchDrawing(connection, named: name, logger: logger) else { throw StoreError.unknownDrawing(name) }
            var result: [Revision] = []
            let sql = "SELECT \(Self.revisionColumns) FROM revision WHERE drawingId = $1 ORDER BY number"
            var bindings = PostgresBindings()
            bindings.append(drawing.id!)
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger) {
                result.append(try Self.decodeRevision(row))
            }
            return result
        }
    }

    /// The image of revision `number` of the drawing, byte for byte (`unknownRevision` when it has no such revision).
    /// Read from the `image` table; a revision whose bytes are not there (a store copied from an SQLite store that
    /// predates stored images) is read from its file, and refused when the file's bytes differ.
    /// - Complexity: O(image bytes).
    public func revisionImage(of name: String, revision number: Int) async throws(StoreError) -> (Revision, DrawingImage) {
        let (revision, stored): (Revision, [UInt8]?) = try await readSnapshot { connection, logger in
            guard let drawing = try await Self.fetchDrawing(connection, named: name, logger: logger) else { throw StoreError.unknownDrawing(name) }
            let sql = "SELECT \(Self.revisionColumns) FROM revision WHERE drawingId = $1 AND number = $2"
            var bindings = PostgresBindings()
            bindings.append(drawing.id!)
            bindings.append(number)
            var found: Revision? = nil
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger) {
                found = try Self.decodeRevision(row)
            }
            guard let revision = found else { throw StoreError.unknownRevision(drawing: name, number: number) }
            for try await (bytes) in try await connection.query(
                "SELECT bytes FROM image WHERE sha256 = \(revision.imageSHA256)", logger: logger
            ).decode(ByteBuffer.self) {
                return (revision, Array(bytes.readableBytesView))
            }
            return (revision, nil)
        }
        if let stored { return (revision, DrawingImage(sha256: revision.imageSHA256, bytes: stored)) }
        let bytes = try StoreRules.readImage(path: revision.imagePath)
        guard SHA256.hexDigest(of: bytes) == revision.imageSHA256 else {
            throw .imageChanged(drawing: name, path: revision.imagePath)
        }
        return (revision, DrawingImage(sha256: revision.imageSHA256, bytes: bytes))
    }

    /// Where the drawing's markers were on revision `number`: for the current revision, where they are; for an
    /// older one, the position each had when the next revision carried it on (the `old` side of its `revised`
    /// entry from `number`). Markers created after that revision (and removed ones) are not in the result.
    /// - Complexity: O(h) for the drawing's h `revised` history entries (older revisions), O(m) for the current one.
    public func markerPositions(of name: String, onRevision number: Int) async throws(StoreError) -> [Int: PixelPoint] {
        try await readSnapshot { connection, logger in
            guard let drawing = try await Self.fetchDrawing(connection, named: name, logger: logger) else { throw StoreError.unknownDrawing(name) }
            let drawingID = drawing.id!
            var positions: [Int: PixelPoint] = [:]
            if number == drawing.revision {
                for try await (marker, x, y) in try await connection.query(
                    "SELECT number, x, y FROM marker WHERE drawingId = \(drawingID)", logger: logger
                ).decode((Int, Double, Double).self) {
                    positions[marker] = PixelPoint(x: x, y: y)
                }
                return positions
            }
            // Later entries win, as SQLite's loop over the entries in id order.
            for try await (marker, text) in try await connection.query("""
                SELECT h.number, h.oldValue FROM history h
                WHERE h.drawingId = \(drawingID) AND h.action = 'revised'
                    AND EXISTS (SELECT 1 FROM marker m WHERE m.drawingId = h.drawingId AND m.number = h.number)
                ORDER BY h.id
                """, logger: logger
            ).decode((Int, String?).self) {
                guard let text, let old = MarkerState(jsonText: text), old.revision == number, let x = old.x, let y = old.y else { continue }
                positions[marker] = PixelPoint(x: x, y: y)
            }
            return positions
        }
    }
}
