import Foundation
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore
import PostgresNIO

extension PostgresStore: StoreBackend {
    /// Runs `body` in a transaction on one pooled connection (see `StoreBackend.writeOrRollBack`): with `drawing`, its row
    /// is locked first (`SELECT ... FOR UPDATE`), so writers of one drawing, on any server, run one at a time; retried as
    /// `writeOrRollBack(lockDrawing:)` says.
    public func writeOrRollBack<T>(drawing name: String?, _ body: (PostgresTransaction, Drawing?) async throws -> (T, commit: Bool)) async throws(StoreError) -> T {
        try await writeOrRollBack(lockDrawing: name) { connection, logger, drawing in
            try await body(PostgresTransaction(connection: connection, logger: logger), drawing)
        }
    }

    /// Validators by drawing (see `StoreBackend.validators`).
    public var validators: ValidatorCache { validatorCache }
}

/// PostgreSQL's primitives for one write transaction of `PostgresStore.write(drawing:)`: each one statement (or two)
/// on the transaction's connection.
public struct PostgresTransaction: StoreTransaction {
    let connection: PostgresConnection
    let logger: Logger

    // MARK: Reads

    public func drawing(id: Int64) async throws -> Drawing? {
        try await PostgresStore.fetchDrawing(connection, id: id, logger: logger)
    }

    public func drawingExists(named name: String) async throws -> Bool {
        try await PostgresStore.fetchDrawing(connection, named: name, logger: logger) != nil
    }

    public func drawing(uuidSeed seed: Int64) async throws -> Drawing? {
        var bindings = PostgresBindings()
        bindings.append(seed)
        let query = PostgresQuery(unsafeSQL: "SELECT \(PostgresStore.drawingColumns) FROM drawing WHERE uuidSeed = $1 LIMIT 1", binds: bindings)
        for try await row in try await connection.query(query, logger: logger) { return try PostgresStore.decodeDrawing(row) }
        return nil
    }

    public func marker(_ number: Int, of drawing: Drawing) async throws -> Marker? {
        try await PostgresStore.findMarker(connection, drawingID: drawing.id!, uuidSeed: drawing.uuidSeed, number: number, logger: logger)
    }

    public func markerWith(uuid: MarkerUUID) async throws -> (drawingID: Int64, number: Int)? {
        for try await (drawingID, number) in try await connection.query(
            "SELECT drawingId, number FROM marker WHERE uuid = \(uuid.text)", logger: logger
        ).decode((Int64, Int).self) {
            return (drawingID, number)
        }
        return nil
    }

    public func markers(of drawing: Drawing) async throws -> [Marker] {
        let drawingID = drawing.id!
        var markers: [Marker] = []
        var bindings = PostgresBindings()
        bindings.append(drawingID)
        let query = PostgresQuery(unsafeSQL: "SELECT \(PostgresStore.markerColumns) FROM marker WHERE drawingId = $1 ORDER BY number",
                                  binds: bindings)
        for try await row in try await connection.query(query, logger: logger) {
            markers.append(try PostgresStore.decodeMarker(row, drawingID: drawingID, uuidSeed: drawing.uuidSeed))
        }
        return markers
    }

    public func forEachPlacement(of drawing: Drawing, _ body: (Int, PixelPoint, [String]) -> Void) async throws {
        for try await (number, x, y, rooms) in try await connection.query(
            "SELECT number, x, y, rooms FROM marker WHERE drawingId = \(drawing.id!) ORDER BY number", logger: logger
        ).decode((Int, Double, Double, String).self) {
            body(number, PixelPoint(x: x, y: y), RoomList.rooms(fromJSON: rooms))
        }
    }

    public func historyEntries(drawingID: Int64, number: Int) async throws -> [HistoryEntry] {
        try await PostgresStore.historyEntries(connection, drawingID: drawingID, number: number, logger: logger)
    }

    public func regions(drawingID: Int64) async throws -> [Region] {
        try await PostgresStore.fetchRegions(connection, drawingID: drawingID, logger: logger)
    }

    public func attachment(_ id: Int64, drawingID: Int64, number: Int) async throws -> Attachment? {
        for try await row in try await connection.query(
            "SELECT \(unescaped: PostgresStore.attachmentColumns) FROM attachment WHERE id = \(id) AND drawingId = \(drawingID) AND number = \(number)",
            logger: logger
        ) {
            return try PostgresStore.decodeAttachment(row)
        }
        return nil
    }

    public func placements(of drawing: Drawing) async throws -> [Placement] {
        var placements: [Placement] = []
        for try await (number, x, y, rooms, reason) in try await connection.query(
            "SELECT number, x, y, rooms, needsPlacement FROM marker WHERE drawingId = \(drawing.id!) ORDER BY number", logger: logger
        ).decode((Int, Double, Double, String, String?).self) {
            placements.append(Placement(number: number, position: PixelPoint(x: x, y: y), rooms: rooms, reason: reason))
        }
        return placements
    }

    public func counts(drawingID: Int64) async throws -> (markers: Int, attachments: Int) {
        for try await (markers, attachments) in try await connection.query("""
            SELECT (SELECT count(*) FROM marker WHERE drawingId = \(drawingID)), (SELECT count(*) FROM attachment WHERE drawingId = \(drawingID))
            """, logger: logger).decode((Int, Int).self) {
            return (markers, attachments)
        }
        return (0, 0)
    }

    // MARK: Writes

    public func insert(_ drawing: Drawing) async throws -> Int64? {
        // Two servers adding one name at once: the unique index decides; the later one sees the name taken.
        for try await (id) in try await connection.query("""
            INSERT INTO drawing (name, imagePath, imageSHA256, width, height, zoom, crs, singleMarker, nextNumber, createdAt,
                                 regionsRevision, uuidSeed, revision, projectId, pdfPage, pdfDPI)
            VALUES (\(drawing.name), \(drawing.imagePath), \(drawing.imageSHA256), \(drawing.width), \(drawing.height), \(drawing.zoom.value),
                    \(drawing.crs.rawValue), \(drawing.singleMarker), \(drawing.nextNumber), \(drawing.createdAt.milliseconds),
                    \(drawing.regionsRevision), \(drawing.uuidSeed), \(drawing.revision), \(drawing.projectID), \(drawing.pdf?.page),
                    \(drawing.pdf?.dpi))
            ON CONFLICT (name) DO NOTHING
            RETURNING id
            """, logger: logger).decode(Int64.self) {
            return id
        }
        return nil
    }

    public func storeImage(sha256: String, bytes: [UInt8]) async throws {
        try await connection.query(
            "INSERT INTO image (sha256, bytes) VALUES (\(sha256), \(ByteBuffer(bytes: bytes))) ON CONFLICT (sha256) DO NOTHING", logger: logger)
    }

    public func insert(_ revision: Revision, drawingID: Int64) async throws {
        let transform = revision.transform
        try await connection.query("""
            INSERT INTO revision (drawingId, number, imagePath, imageSHA256, width, height, createdAt, author, a, b, c, d, e, f, maxResidual,
                                  pdfPage, pdfDPI)
            VALUES (\(drawingID), \(revision.number), \(revision.imagePath), \(revision.imageSHA256), \(revision.width), \(revision.height),
                    \(revision.createdAt.milliseconds), \(revision.author), \(transform?.a), \(transform?.b), \(transform?.c), \(transform?.d),
                    \(transform?.e), \(transform?.f), \(revision.maxResidual), \(revision.pdf?.page), \(revision.pdf?.dpi))
            """, logger: logger)
    }

    /// The markers with one statement and the history entries with another (arrays through `unnest`).
    public func writePlacements(_ placements: [Placement], drawingID: Int64, at: Timestamp, firstCursor: Int64) async throws {
        try await connection.query("""
            UPDATE marker SET x = u.x, y = u.y, rooms = u.rooms,
                needsPlacement = CASE WHEN u.flagged THEN u.reason END, updatedAt = \(at.milliseconds), version = marker.version + 1,
                cursor = \(firstCursor - 1) + u.position
            FROM unnest(\(placements.map(\.number))::bigint[], \(placements.map(\.newPosition.x))::float8[],
                        \(placements.map(\.newPosition.y))::float8[], \(placements.map(\.newRooms))::text[],
                        \(placements.map { $0.newReason != nil })::bool[], \(placements.map { $0.newReason ?? "" })::text[])
                WITH ORDINALITY AS u(number, x, y, rooms, flagged, reason, position)
            WHERE marker.drawingId = \(drawingID) AND marker.number = u.number
            """, logger: logger)
    }

    public func update(_ drawing: Drawing) async throws {
        do {
            try await connection.query("""
                UPDATE drawing SET name = \(drawing.name), nextNumber = \(drawing.nextNumber), regionsRevision = \(drawing.regionsRevision),
                    metresPerPixel = \(drawing.metresPerPixel), calibration = \(drawing.calibration.map(CalibrationJSON.object)),
                    imagePath = \(drawing.imagePath), imageSHA256 = \(drawing.imageSHA256), width = \(drawing.width),
                    height = \(drawing.height), revision = \(drawing.revision), pdfPage = \(drawing.pdf?.page), pdfDPI = \(drawing.pdf?.dpi)
                WHERE id = \(drawing.id!)
                """, logger: logger)
        } catch {
            // Another server took the name between the use case's check and this update: the unique index decides.
            if PostgresStore.sqlState(error) == "23505" { throw StoreError.duplicateDrawing(drawing.name) }
            throw error
        }
    }

    public func insert(_ marker: Marker) async throws -> Bool {
        try await PostgresStore.insertMarker(connection, marker, logger: logger)
    }

    public func update(_ marker: Marker) async throws {
        try await PostgresStore.updateMarkerRow(connection, marker, logger: logger)
    }

    public func setRooms(_ changes: [(number: Int, rooms: [String])], drawingID: Int64, at: Timestamp, firstCursor: Int64) async throws {
        // As `Marker.encode`: updatedAt is NULL while it equals createdAt. One statement for every change (arrays, `unnest`).
        try await connection.query("""
            UPDATE marker SET rooms = u.rooms, updatedAt = NULLIF(\(at.milliseconds)::bigint, marker.createdAt), version = marker.version + 1,
                cursor = \(firstCursor - 1) + u.position
            FROM unnest(\(changes.map(\.number))::bigint[], \(changes.map { RoomList.jsonText($0.rooms) })::text[])
                WITH ORDINALITY AS u(number, rooms, position)
            WHERE marker.drawingId = \(drawingID) AND marker.number = u.number
            """, logger: logger)
    }

    public func delete(_ marker: Marker) async throws {
        try await connection.query("DELETE FROM marker WHERE drawingId = \(marker.drawingID) AND number = \(marker.number)", logger: logger)
    }

    /// Bumps the counter in the head's row, which stays locked until the transaction ends (as `historyHead` locks it), and
    /// notifies the feed's watchers of its last cursor (`PostgresStore.watchChanges`: delivered at the commit).
    public func takeCursors(_ count: Int) async throws -> Int64 {
        for try await (last, _) in try await connection.query("""
            UPDATE historyHead SET lastCursor = lastCursor + \(Int64(count)) WHERE id = 1
            RETURNING lastCursor, pg_notify('planmark_changes', lastCursor::text)::text
            """, logger: logger).decode((Int64, String?).self) {
            return last - Int64(count) + 1
        }
        throw StoreError.io("the store has no history head (historyHead table)")
    }

    /// Locks the head's row (`FOR UPDATE`, until the transaction ends): another transaction's `historyHead` waits here
    /// until this one has committed or rolled back, and then reads the head this one left.
    public func historyHead() async throws -> String {
        for try await (hash) in try await connection.query("SELECT hash FROM historyHead WHERE id = 1 FOR UPDATE", logger: logger)
            .decode(String.self) {
            return hash
        }
        throw StoreError.io("the store has no history head (historyHead table)")
    }

    /// One statement: the rows and the head's update. One row (every change but an import's or a revision's) is a plain
    /// `VALUES`; more are a `jsonb_to_recordset` of `HistoryRow`s, inserted in their order.
    public func append(_ rows: [HistoryRow]) async throws -> Int64 {
        guard let last = rows.last else { return 0 }
        let query: PostgresQuery
        if rows.count == 1 {
            query = """
                WITH head AS (UPDATE historyHead SET hash = \(last.hash) WHERE id = 1)
                INSERT INTO history (drawingId, number, lastNumber, action, at, author, oldValue, newValue, hash)
                VALUES (\(last.drawingID), \(last.number), \(last.lastNumber), \(last.action), \(last.at), \(last.author), \(last.oldValue),
                        \(last.newValue), \(last.hash))
                RETURNING id
                """
        } else {
            let recordset = String(decoding: try JSONEncoder().encode(rows), as: UTF8.self)
            query = """
                WITH head AS (UPDATE historyHead SET hash = \(last.hash) WHERE id = 1),
                inserted AS (
                    INSERT INTO history (drawingId, number, lastNumber, action, at, author, oldValue, newValue, hash)
                    SELECT "drawingID", number, "lastNumber", action, at, author, "oldValue", "newValue", hash
                    FROM ROWS FROM (jsonb_to_recordset(\(recordset)::jsonb) AS ("drawingID" bigint, number bigint, "lastNumber" bigint,
                        action text, at bigint, author text, "oldValue" text, "newValue" text, hash text))
                        WITH ORDINALITY AS r("drawingID", number, "lastNumber", action, at, author, "oldValue", "newValue", hash, position)
                    ORDER BY position
                    RETURNING id
                )
                SELECT max(id) FROM inserted
                """
        }
        for try await (id) in try await connection.query(query, logger: logger).decode(Int64.self) {
            return id
        }
        throw StoreError.io("history: the insert returned no id")
    }

    public func insertAttachment(_ attachment: Attachment, bytes: [UInt8]) async throws -> Int64 {
        try await PostgresStore.storeBlob(connection, digest: attachment.sha256, bytes: bytes, logger: logger)
        for try await (id) in try await connection.query("""
            INSERT INTO attachment (drawingId, number, sha256, size, contentType, caption, author, createdAt)
            VALUES (\(attachment.drawingID), \(attachment.number), \(attachment.sha256), \(attachment.size), \(attachment.type.contentType),
                    \(attachment.caption), \(attachment.author), \(attachment.createdAt.milliseconds))
            RETURNING id
            """, logger: logger
        ).decode(Int64.self) {
            return id
        }
        throw StoreError.io("attachment to marker \(attachment.number): the insert returned no id")
    }

    public func delete(_ attachment: Attachment) async throws {
        try await connection.query("DELETE FROM attachment WHERE id = \(attachment.id)", logger: logger)
        try await PostgresStore.deleteUnusedBlobs(connection, digests: [attachment.sha256], logger: logger)
    }

    public func deleteAttachments(drawingID: Int64, numbers: [Int]) async throws {
        try await PostgresStore.deleteAttachments(connection, drawingID: drawingID, numbers: numbers, logger: logger)
    }

    public func replaceRegions(drawingID: Int64, with regions: [Region]) async throws {
        try await connection.query("DELETE FROM region WHERE drawingId = \(drawingID)", logger: logger)
        try await PostgresStore.insertRegions(connection, regions, drawingID: drawingID, logger: logger)
    }

    /// Before deciding which images and attachment bytes are unused, the `image` (and, when the drawing had attachments,
    /// `attachmentBlob`) table is locked against inserts (`SHARE ROW EXCLUSIVE`, until commit): a transaction of another
    /// server that is storing the same bytes for another drawing either committed before (and its use is seen) or
    /// waits, so bytes still in use are never deleted.
    public func delete(_ drawing: Drawing) async throws {
        let drawingID = drawing.id!
        var blobs: [String] = []
        for try await (sha256) in try await connection.query(
            "SELECT DISTINCT sha256 FROM attachment WHERE drawingId = \(drawingID)", logger: logger
        ).decode(String.self) { blobs.append(sha256) }
        var images: Set<String> = [drawing.imageSHA256]
        for try await (sha256) in try await connection.query(
            "SELECT imageSHA256 FROM revision WHERE drawingId = \(drawingID)", logger: logger
        ).decode(String.self) { images.insert(sha256) }
        try await connection.query("DELETE FROM attachment WHERE drawingId = \(drawingID)", logger: logger)
        try await connection.query("DELETE FROM marker WHERE drawingId = \(drawingID)", logger: logger)
        try await connection.query("DELETE FROM region WHERE drawingId = \(drawingID)", logger: logger)
        try await connection.query("DELETE FROM importRange WHERE drawingId = \(drawingID)", logger: logger)
        try await connection.query("DELETE FROM revision WHERE drawingId = \(drawingID)", logger: logger)
        try await connection.query("DELETE FROM drawing WHERE id = \(drawingID)", logger: logger)
        // Every revision's image goes with the drawing unless another drawing (any of its revisions) has it.
        try await connection.query("LOCK TABLE image IN SHARE ROW EXCLUSIVE MODE", logger: logger)
        try await connection.query("""
            DELETE FROM image i WHERE i.sha256 = ANY(\(Array(images).sorted())::text[])
                AND NOT EXISTS (SELECT 1 FROM drawing d WHERE d.imageSHA256 = i.sha256)
                AND NOT EXISTS (SELECT 1 FROM revision r WHERE r.imageSHA256 = i.sha256)
            """, logger: logger)
        // As SQLite's `deleteUnusedBlobs`, but only the bytes this drawing's attachments used can have become unused.
        if !blobs.isEmpty {
            try await connection.query("LOCK TABLE attachmentBlob IN SHARE ROW EXCLUSIVE MODE", logger: logger)
            try await connection.query("""
                DELETE FROM attachmentBlob b WHERE b.sha256 = ANY(\(blobs)::text[])
                    AND NOT EXISTS (SELECT 1 FROM attachment a WHERE a.sha256 = b.sha256)
                """, logger: logger)
        }
    }
}
