import PlanMarkFormats
import PlanMarkStore
import PostgresNIO

extension PostgresStore {
    /// Attaches a JPEG, PNG or PDF to a marker (the contract: `AnnotationStore.attach`): the type comes from the bytes; a
    /// `declaredType` that disagrees is refused. The bytes are stored once per SHA-256 in `attachmentBlob`, inside the
    /// database. One history entry.
    /// - Complexity: O(size) for the digest and the copy into the store.
    public func attach(_ bytes: [UInt8], declaredType: AttachmentType?, caption: String?, toMarker number: Int, in name: String,
                       author: String?) async throws(StoreError) -> Attachment {
        let (type, digest) = try StoreRules.attachment(bytes, declaredType: declaredType, caption: caption, author: author)
        return try await write(lockDrawing: name) { connection, logger, locked in
            guard let drawing = locked, let drawingID = drawing.id else { throw StoreError.unknownDrawing(name) }
            let marker = try await Self.fetchMarker(connection, drawing, number, logger: logger)
            let now = Timestamp.now()
            try await Self.storeBlob(connection, digest: digest, bytes: bytes, logger: logger)
            var id: Int64? = nil
            for try await (value) in try await connection.query("""
                INSERT INTO attachment (drawingId, number, sha256, size, contentType, caption, author, createdAt)
                VALUES (\(drawingID), \(number), \(digest), \(bytes.count), \(type.contentType), \(caption), \(author), \(now.milliseconds))
                RETURNING id
                """, logger: logger
            ).decode(Int64.self) {
                id = value
            }
            guard let id else { throw StoreError.io("attachment to marker \(number): the insert returned no id") }
            let attachment = Attachment(id: id, drawingID: drawingID, number: number, sha256: digest, size: bytes.count, type: type,
                                        caption: caption, author: author, createdAt: now)
            try await Self.record(connection, marker, .attached, at: now, author: author, old: nil,
                                  new: MarkerState(attachment: attachment), logger: logger)
            return attachment
        }
    }

    /// Stores `bytes` under `digest` unless they are there, and holds a `KEY SHARE` lock on the row until the
    /// transaction ends, so that a writer of another drawing removing its last other use (`deleteUnusedBlobs`) waits
    /// and then sees this use. A row deleted by such a writer between the insert and the lock is inserted again.
    /// - Complexity: O(size).
    static func storeBlob(_ connection: PostgresConnection, digest: String, bytes: [UInt8], logger: Logger) async throws {
        for _ in 0..<8 {
            try await connection.query(
                "INSERT INTO attachmentBlob (sha256, bytes) VALUES (\(digest), \(ByteBuffer(bytes: bytes))) ON CONFLICT (sha256) DO NOTHING",
                logger: logger)
            var held = false
            for try await _ in try await connection.query(
                "SELECT 1 FROM attachmentBlob WHERE sha256 = \(digest) FOR KEY SHARE", logger: logger
            ) {
                held = true
            }
            if held { return }
        }
        throw StoreError.unavailable("attachment \(digest): its stored bytes kept being removed by other writers; try again")
    }

    /// A marker's attachments, oldest first.
    /// - Complexity: O(log n + a) for its a attachments.
    public func attachments(ofMarker number: Int, in name: String) async throws(StoreError) -> [Attachment] {
        try await readSnapshot { connection, logger in
            guard let drawing = try await Self.fetchDrawing(connection, named: name, logger: logger), let drawingID = drawing.id else {
                throw StoreError.unknownDrawing(name)
            }
            _ = try await Self.fetchMarker(connection, drawing, number, logger: logger)
            var result: [Attachment] = []
            for try await row in try await connection.query(
                "SELECT \(unescaped: Self.attachmentColumns) FROM attachment WHERE drawingId = \(drawingID) AND number = \(number) ORDER BY id",
                logger: logger
            ) {
                result.append(try Self.decodeAttachment(row))
            }
            return result
        }
    }

    /// One attachment with its bytes.
    /// - Complexity: O(log a + size).
    public func attachment(_ id: Int64, ofMarker number: Int, in name: String) async throws(StoreError) -> (Attachment, [UInt8]) {
        try await readSnapshot { connection, logger in
            guard let drawing = try await Self.fetchDrawing(connection, named: name, logger: logger) else { throw StoreError.unknownDrawing(name) }
            _ = try await Self.fetchMarker(connection, drawing, number, logger: logger)
            guard let attachment = try await Self.findAttachment(connection, id, drawing: drawing, number: number, logger: logger) else {
                throw StoreError.unknownAttachment(drawing: name, number: number, id: id)
            }
            for try await (bytes) in try await connection.query(
                "SELECT bytes FROM attachmentBlob WHERE sha256 = \(attachment.sha256)", logger: logger
            ).decode(ByteBuffer.self) {
                return (attachment, Array(bytes.readableBytesView))
            }
            throw StoreError.io("attachment \(id): its bytes (\(attachment.sha256)) are missing from the store")
        }
    }

    /// Removes an attachment; its bytes go when no other attachment has them. One history entry.
    /// - Complexity: O(log a).
    public func detach(_ id: Int64, fromMarker number: Int, in name: String, author: String?) async throws(StoreError) -> Attachment {
        try TextField.check(author, field: "author")
        return try await write(lockDrawing: name) { connection, logger, locked in
            guard let drawing = locked else { throw StoreError.unknownDrawing(name) }
            let marker = try await Self.fetchMarker(connection, drawing, number, logger: logger)
            guard let attachment = try await Self.findAttachment(connection, id, drawing: drawing, number: number, logger: logger) else {
                throw StoreError.unknownAttachment(drawing: name, number: number, id: id)
            }
            try await connection.query("DELETE FROM attachment WHERE id = \(id)", logger: logger)
            try await Self.deleteUnusedBlobs(connection, digests: [attachment.sha256], logger: logger)
            try await Self.record(connection, marker, .detached, at: .now(), author: author,
                                  old: MarkerState(attachment: attachment), new: nil, logger: logger)
            return attachment
        }
    }

    // MARK: Helpers

    /// The columns of `attachment`, in the order `decodeAttachment` reads them.
    static let attachmentColumns = "id, drawingId, number, sha256, size, contentType, caption, author, createdAt"

    /// An attachment from a row of `attachmentColumns`.
    static func decodeAttachment(_ row: PostgresRow) throws -> Attachment {
        let (id, drawingID, number, sha256, size, typeText, caption, author, createdAt) =
            try row.decode((Int64, Int64, Int, String, Int, String, String?, String?, Int64).self)
        guard let type = AttachmentType(contentType: typeText) else { throw StoreError.io("attachment has an unknown type \"\(typeText)\"") }
        return Attachment(id: id, drawingID: drawingID, number: number, sha256: sha256, size: size, type: type, caption: caption,
                          author: author, createdAt: Timestamp(milliseconds: createdAt))
    }

    /// Attachment `id` of marker `number`, or nil.
    static func findAttachment(_ connection: PostgresConnection, _ id: Int64, drawing: Drawing, number: Int, logger: Logger) async throws -> Attachment? {
        guard let drawingID = drawing.id else { return nil }
        var found: Attachment? = nil
        for try await row in try await connection.query(
            "SELECT \(unescaped: attachmentColumns) FROM attachment WHERE id = \(id) AND drawingId = \(drawingID) AND number = \(number)",
            logger: logger
        ) {
            found = try decodeAttachment(row)
        }
        return found
    }

    /// Deletes the attachments of markers `numbers` of a drawing (a removed marker's), and bytes no longer used.
    /// - Complexity: O(k log a) for k numbers and a attachments.
    static func deleteAttachments(_ connection: PostgresConnection, drawingID: Int64, numbers: [Int], logger: Logger) async throws {
        guard !numbers.isEmpty else { return }
        var digests: Set<String> = []
        for try await (digest) in try await connection.query(
            "DELETE FROM attachment WHERE drawingId = \(drawingID) AND number = ANY(\(numbers)) RETURNING sha256", logger: logger
        ).decode(String.self) {
            digests.insert(digest)
        }
        try await deleteUnusedBlobs(connection, digests: digests.sorted(), logger: logger)
    }

    /// Deletes the stored bytes among `digests` that no attachment has any more. The rows are locked first (waiting for
    /// a writer of another drawing that is attaching the same bytes, see `storeBlob`), and the delete, a later
    /// statement, sees that writer's attachment once it committed.
    /// - Complexity: O(k log a) for k digests and the store's a attachments (index `attachment_sha256`, migration `pg5`).
    static func deleteUnusedBlobs(_ connection: PostgresConnection, digests: [String], logger: Logger) async throws {
        guard !digests.isEmpty else { return }
        for try await _ in try await connection.query(
            "SELECT sha256 FROM attachmentBlob WHERE sha256 = ANY(\(digests)) ORDER BY sha256 FOR UPDATE", logger: logger
        ) {}
        try await connection.query("""
            DELETE FROM attachmentBlob b
            WHERE b.sha256 = ANY(\(digests)) AND NOT EXISTS (SELECT 1 FROM attachment a WHERE a.sha256 = b.sha256)
            """, logger: logger)
    }
}
