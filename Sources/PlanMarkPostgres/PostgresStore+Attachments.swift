import PlanMarkFormats
import PlanMarkStore
import PostgresNIO

extension PostgresStore {
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
            guard let attachment = try await PostgresTransaction(connection: connection, logger: logger).attachment(id, drawingID: drawing.id!,
                                                                                                        number: number) else {
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
