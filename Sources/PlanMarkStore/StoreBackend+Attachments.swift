import PlanMarkFormats

extension StoreBackend {
    /// Attaches a JPEG, PNG or PDF to a marker. The type comes from the bytes; a `declaredType` that disagrees is
    /// refused. The bytes are stored once per SHA-256 (a photo attached twice, to one marker or two, is stored once),
    /// inside the store, so the store stays the whole backup. One history entry.
    /// - Complexity: O(size) for the digest and the copy into the store.
    public func attach(_ bytes: [UInt8], declaredType: AttachmentType?, caption: String?, toMarker number: Int, in name: String,
                       author: String?) async throws(StoreError) -> Attachment {
        let (type, digest) = try StoreRules.attachment(bytes, declaredType: declaredType, caption: caption, author: author)
        return try await write(drawing: name) { transaction, locked in
            guard let drawing = locked, let drawingID = drawing.id else { throw StoreError.unknownDrawing(name) }
            let marker = try await Self.marker(transaction, number, of: drawing)
            var attachment = Attachment(id: 0, drawingID: drawingID, number: number, sha256: digest, size: bytes.count, type: type,
                                        caption: caption, author: author, createdAt: .now())
            attachment.id = try await transaction.insertAttachment(attachment, bytes: bytes)
            _ = try await Self.countChange(transaction, marker)
            try await Self.record(transaction, marker, .attached, at: attachment.createdAt, author: author, old: nil,
                                  new: MarkerState(attachment: attachment))
            return attachment
        }
    }

    /// Removes an attachment; its bytes go when no other attachment has them. One history entry.
    /// - Complexity: O(log a) for the store's a attachments.
    public func detach(_ id: Int64, fromMarker number: Int, in name: String, author: String?) async throws(StoreError) -> Attachment {
        try TextField.check(author, field: "author")
        return try await write(drawing: name) { transaction, locked in
            guard let drawing = locked, let drawingID = drawing.id else { throw StoreError.unknownDrawing(name) }
            let marker = try await Self.marker(transaction, number, of: drawing)
            guard let attachment = try await transaction.attachment(id, drawingID: drawingID, number: number) else {
                throw StoreError.unknownAttachment(drawing: name, number: number, id: id)
            }
            try await transaction.delete(attachment)
            _ = try await Self.countChange(transaction, marker)
            try await Self.record(transaction, marker, .detached, at: .now(), author: author, old: MarkerState(attachment: attachment), new: nil)
            return attachment
        }
    }
}
