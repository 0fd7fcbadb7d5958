import PlanMarkFormats

/// One comment in a marker's thread. A comment is a history entry (`HistoryAction.commented`, the text in its new
/// state), so it is in the hash chain like every change and cannot be edited or removed; its id is the entry's.
public struct Comment: Hashable, Sendable {
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

    /// `{"id","author","createdAt","text"}` (the service's and `comments --format json`'s shape).
    public var json: String {
        "{\"id\":\(id),\"author\":" + (author.map(JSONString.quoted) ?? "null") + ",\"createdAt\":\"\(createdAt.text)\",\"text\":"
            + JSONString.quoted(text) + "}"
    }
}
