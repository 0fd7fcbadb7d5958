import GRDB

extension SQLiteStore {
    /// Renames a drawing; its markers, history and attachments stay with it (they refer to its id).
    /// - Complexity: O(log d) for d drawings.
    public func renameDrawing(_ name: String, to newName: String) async throws(StoreError) -> Drawing {
        try TextField.checkName(newName, field: "name")
        return try await write { db in
            var drawing = try Self.fetchDrawing(db, named: name)
            if newName == name { return drawing }
            if try Drawing.filter(Column("name") == newName).fetchOne(db) != nil { throw StoreError.duplicateDrawing(newName) }
            drawing.name = newName
            try drawing.update(db, columns: ["name"])
            return drawing
        }
    }

    /// Removes a drawing with its regions, markers, history and attachments in one transaction (and its
    /// image and attachment bytes when nothing else uses them). Refused while it has markers unless `force`.
    /// - Complexity: O(m + h + a) for its markers, history entries and attachments.
    public func removeDrawing(_ name: String, force: Bool) async throws(StoreError) -> DrawingRemoval {
        try await write { db in
            let drawing = try Self.fetchDrawing(db, named: name)
            let markers = try Int.fetchOne(db, sql: "SELECT count(*) FROM marker WHERE drawingId = ?", arguments: [drawing.id!]) ?? 0
            if markers > 0 && !force {
                throw StoreError.refused(.drawingHasMarkers(drawing: name, count: markers))
            }
            let attachments = try Int.fetchOne(db, sql: "SELECT count(*) FROM attachment WHERE drawingId = ?", arguments: [drawing.id!]) ?? 0
            try db.execute(sql: "DELETE FROM attachment WHERE drawingId = ?", arguments: [drawing.id!])
            try db.execute(sql: "DELETE FROM marker WHERE drawingId = ?", arguments: [drawing.id!])
            try db.execute(sql: "DELETE FROM history WHERE drawingId = ?", arguments: [drawing.id!])
            try db.execute(sql: "DELETE FROM region WHERE drawingId = ?", arguments: [drawing.id!])
            // Every revision's image goes with the drawing unless another drawing (any of its revisions) has it.
            let images = Set(try String.fetchAll(db, sql: "SELECT imageSHA256 FROM revision WHERE drawingId = ?", arguments: [drawing.id!]))
                .union([drawing.imageSHA256])
            try db.execute(sql: "DELETE FROM revision WHERE drawingId = ?", arguments: [drawing.id!])
            try db.execute(sql: "DELETE FROM drawing WHERE id = ?", arguments: [drawing.id!])
            for image in images {
                try db.execute(sql: """
                    DELETE FROM image WHERE sha256 = ?1 AND sha256 NOT IN (SELECT imageSHA256 FROM drawing)
                        AND sha256 NOT IN (SELECT imageSHA256 FROM revision)
                    """, arguments: [image])
            }
            try Self.deleteUnusedBlobs(db)
            return DrawingRemoval(name: name, markers: markers, attachments: attachments)
        }
    }
}
