import PlanMarkFormats

/// One comment in a marker's thread. A comment is a history entry (`HistoryAction.commented`, the text in its new
/// state), so it is in the hash chain like every change and cannot be edited or removed; its id is the entry's.
public struct Comment: Hashable, Sendable, Encodable {
    /// The history entry's id (ascending in the order comments were made, across the store).
    public var id: Int64
    /// The marker's drawing (store id).
    public var drawingID: Int64
    /// The marker's number.
    public var number: Int
    /// Who wrote it, if known.
    public var author: String?
    /// When.
    public var createdAt: Timestamp
    /// The text.
    public var text: String

    public init(id: Int64, drawingID: Int64, number: Int, author: String?, createdAt: Timestamp, text: String) {
        self.id = id
        self.drawingID = drawingID
        self.number = number
        self.author = author
        self.createdAt = createdAt
        self.text = text
    }

    /// The longest comment, in characters (a comment is a few sentences on site; the limit keeps a history entry, and
    /// a report's page, bounded).
    public static let maxLength = 4000

    private enum CodingKeys: String, CodingKey { case id, author, createdAt, text }

    /// `{"id","author","createdAt","text"}` (the service's and `comments --format json`'s shape; `author` null when
    /// unknown). The drawing and number are the thread's, not repeated.
    public func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: CodingKeys.self)
        try object.encode(id, forKey: .id)
        try object.encode(author, forKey: .author)
        try object.encode(createdAt, forKey: .createdAt)
        try object.encode(text, forKey: .text)
    }

    /// This comment as JSON (`encode(to:)`'s object).
    public var json: String { JSONDocument.text(self) }
}
