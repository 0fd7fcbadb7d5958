import PlanMarkFormats

/// A photo or document attached to a marker. The bytes are stored once per SHA-256 inside the store.
public struct Attachment: Hashable, Sendable, Encodable {
    /// The attachment's id in the store (1, 2, 3 ... across the store).
    public var id: Int64
    /// The marker's drawing (store id).
    public var drawingID: Int64
    /// The marker's number.
    public var number: Int
    /// SHA-256 of the bytes, hexadecimal.
    public var sha256: String
    /// Size in bytes.
    public var size: Int
    /// JPEG, PNG or PDF, decided by the bytes.
    public var type: AttachmentType
    /// Free text.
    public var caption: String?
    /// Who attached it.
    public var author: String?
    /// When it was attached.
    public var createdAt: Timestamp

    /// Creates an attachment.
    public init(id: Int64, drawingID: Int64, number: Int, sha256: String, size: Int, type: AttachmentType, caption: String?,
                author: String?, createdAt: Timestamp) {
        self.id = id
        self.drawingID = drawingID
        self.number = number
        self.sha256 = sha256
        self.size = size
        self.type = type
        self.caption = caption
        self.author = author
        self.createdAt = createdAt
    }

    /// The MIME type.
    public var contentType: String { type.contentType }

    private enum CodingKeys: String, CodingKey { case id, sha256, size, contentType, caption }

    /// `{"id","sha256","size","contentType","caption"}` (`caption` null when there is none), as the service answers,
    /// `attachments --format json` lists and the history keeps it. The marker, author and time are the entry's.
    public func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: CodingKeys.self)
        try object.encode(id, forKey: .id)
        try object.encode(sha256, forKey: .sha256)
        try object.encode(size, forKey: .size)
        try object.encode(contentType, forKey: .contentType)
        try object.encode(caption, forKey: .caption)
    }

    /// This attachment as JSON (`encode(to:)`'s object).
    public var historyJSON: String { JSONDocument.text(self) }

    /// Reads `historyJSON` back (drawing, number, author and time are not in it); nil for anything else.
    init?(historyJSON value: JSONValue) {
        guard case .number(let id)? = value["id"], let id = Int64(exactly: id), case .string(let sha256)? = value["sha256"],
              case .number(let size)? = value["size"], let size = Int(exactly: size), case .string(let type)? = value["contentType"],
              let type = AttachmentType(contentType: type) else { return nil }
        var caption: String?
        if case .string(let text)? = value["caption"] { caption = text }
        self.init(id: id, drawingID: 0, number: 0, sha256: sha256, size: size, type: type, caption: caption, author: nil,
                  createdAt: Timestamp(milliseconds: 0))
    }
}
