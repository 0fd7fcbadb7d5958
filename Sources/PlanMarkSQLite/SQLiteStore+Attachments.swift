import PlanMarkStore
import Foundation
import GRDB
import PlanMarkFormats

extension SQLiteStore {
    /// A marker's attachments, oldest first.
    /// - Complexity: O(a) for its a attachments.
    public func attachments(ofMarker number: Int, in name: String) async throws(StoreError) -> [Attachment] {
        try await read { db in
            let drawing = try Self.fetchDrawing(db, named: name)
            _ = try Self.fetchMarker(db, drawing, number)
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM attachment WHERE drawingId = ? AND number = ? ORDER BY id",
                                        arguments: [drawing.id!, number])
            return try rows.map(Self.attachment(from:))
        }
    }

    /// One attachment with its bytes.
    public func attachment(_ id: Int64, ofMarker number: Int, in name: String) async throws(StoreError) -> (Attachment, [UInt8]) {
        try await read { db in
            let drawing = try Self.fetchDrawing(db, named: name)
            _ = try Self.fetchMarker(db, drawing, number)
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM attachment WHERE id = ? AND drawingId = ? AND number = ?",
                                             arguments: [id, drawing.id!, number]) else {
                throw StoreError.unknownAttachment(drawing: name, number: number, id: id)
            }
            let attachment = try Self.attachment(from: row)
            guard let data = try Data.fetchOne(db, sql: "SELECT bytes FROM attachmentBlob WHERE sha256 = ?", arguments: [attachment.sha256]) else {
                throw StoreError.io("attachment \(id): its bytes (\(attachment.sha256)) are missing from the store")
            }
            return (attachment, [UInt8](data))
        }
    }

    /// Deletes the attachments of markers `numbers` of a drawing (a removed marker's), and bytes no longer used.
    /// - Complexity: O(k log a) for k numbers and a attachments.
    static func deleteAttachments(_ db: Database, drawingID: Int64, numbers: [Int]) throws {
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM attachment WHERE drawingId = ?)", arguments: [drawingID]) == true else {
            return
        }
        for number in numbers {
            try db.execute(sql: "DELETE FROM attachment WHERE drawingId = ? AND number = ?", arguments: [drawingID, number])
        }
        try deleteUnusedBlobs(db)
    }

    /// Deletes stored bytes no attachment has any more.
    /// - Complexity: O(b log a) for b stored blobs and a attachments.
    static func deleteUnusedBlobs(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM attachmentBlob WHERE sha256 NOT IN (SELECT sha256 FROM attachment)")
    }

    /// Decodes an `attachment` row.
    static func attachment(from row: Row) throws -> Attachment {
        let typeText: String = row["contentType"]
        guard let type = AttachmentType(contentType: typeText) else { throw StoreError.io("attachment has an unknown type \"\(typeText)\"") }
        return Attachment(id: row["id"], drawingID: row["drawingId"], number: row["number"], sha256: row["sha256"], size: row["size"],
                          type: type, caption: row["caption"], author: row["author"], createdAt: Timestamp(milliseconds: row["createdAt"]))
    }
}
