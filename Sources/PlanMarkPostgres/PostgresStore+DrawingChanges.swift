import PlanMarkStore
import PostgresNIO

extension PostgresStore {
    /// Renames a drawing; its markers, history and attachments stay with it (they refer to its id).
    /// - Complexity: O(log d) for d drawings.
    public func renameDrawing(_ name: String, to newName: String) async throws(StoreError) -> Drawing {
        try TextField.checkName(newName, field: "name")
        return try await write(lockDrawing: name) { connection, logger, locked in
            guard var drawing = locked, let drawingID = drawing.id else { throw StoreError.unknownDrawing(name) }
            if newName == name { return drawing }
            var taken = false
            for try await _ in try await connection.query("SELECT 1 FROM drawing WHERE name = \(newName)", logger: logger) { taken = true }
            if taken { throw StoreError.duplicateDrawing(newName) }
            do {
                try await connection.query("UPDATE drawing SET name = \(newName) WHERE id = \(drawingID)", logger: logger)
            } catch {
                // Another server took the name between the check and the update: the unique index decides.
                if Self.sqlState(error) == "23505" { throw StoreError.duplicateDrawing(newName) }
                throw error
            }
            drawing.name = newName
            return drawing
        }
    }

    /// Removes a drawing with its regions, markers, history, revisions and attachments in one transaction (and its
    /// images and attachment bytes when nothing else uses them). Refused while it has markers unless `force`.
    ///
    /// Before deciding which images and attachment bytes are unused, the `image` (and, when the drawing had
    /// attachments, `attachmentBlob`) table is locked against inserts (`SHARE ROW EXCLUSIVE`, until commit): a
    /// transaction of another server that is storing the same bytes for another drawing either committed before
    /// (and its use is seen) or waits, so bytes still in use are never deleted.
    /// - Complexity: O(m + h + a + r) for its markers, history entries, attachments and revisions.
    public func removeDrawing(_ name: String, force: Bool) async throws(StoreError) -> DrawingRemoval {
        try await write(lockDrawing: name) { connection, logger, locked in
            guard let drawing = locked, let drawingID = drawing.id else { throw StoreError.unknownDrawing(name) }
            var markers = 0
            for try await (count) in try await connection.query(
                "SELECT count(*) FROM marker WHERE drawingId = \(drawingID)", logger: logger
            ).decode(Int.self) { markers = count }
            if markers > 0 && !force {
                throw StoreError.refused(.drawingHasMarkers(drawing: name, count: markers))
            }
            var attachments = 0
            for try await (count) in try await connection.query(
                "SELECT count(*) FROM attachment WHERE drawingId = \(drawingID)", logger: logger
            ).decode(Int.self) { attachments = count }
            var blobs: [String] = []
            if attachments > 0 {
                for try await (sha256) in try await connection.query(
                    "SELECT DISTINCT sha256 FROM attachment WHERE drawingId = \(drawingID)", logger: logger
                ).decode(String.self) { blobs.append(sha256) }
            }
            var images: Set<String> = [drawing.imageSHA256]
            for try await (sha256) in try await connection.query(
                "SELECT imageSHA256 FROM revision WHERE drawingId = \(drawingID)", logger: logger
            ).decode(String.self) { images.insert(sha256) }
            try await connection.query("DELETE FROM attachment WHERE drawingId = \(drawingID)", logger: logger)
            try await connection.query("DELETE FROM marker WHERE drawingId = \(drawingID)", logger: logger)
            try await connection.query("DELETE FROM history WHERE drawingId = \(drawingID)", logger: logger)
            try await connection.query("DELETE FROM region WHERE drawingId = \(drawingID)", logger: logger)
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
            return DrawingRemoval(name: name, markers: markers, attachments: attachments)
        }
    }
}
