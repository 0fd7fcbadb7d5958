import PlanMarkGeometry

/// Whether a marker still needs attention.
public enum MarkerStatus: String, Hashable, Sendable, CaseIterable, Codable {
    /// Needs attention.
    case open
    /// Dealt with.
    case resolved
}

/// A numbered marker on a drawing.
public struct Marker: Hashable, Sendable {
    /// The drawing's store id.
    public var drawingID: Int64
    /// 1, 2, 3 ... per drawing; never reused, even after removal.
    public var number: Int
    /// Position in pixels of the full-resolution image (the server zoom).
    public var position: PixelPoint
    /// Open or resolved.
    public var status: MarkerStatus
    /// Free text.
    public var note: String?
    /// Who placed it.
    public var author: String?
    /// The ids of the rooms that cover it (two for a marker on a shared wall), in region order.
    public var rooms: [String]
    /// When it was placed.
    public var createdAt: Timestamp
    /// When it last changed.
    public var updatedAt: Timestamp

    /// Creates a marker.
    public init(drawingID: Int64, number: Int, position: PixelPoint, status: MarkerStatus = .open, note: String? = nil,
                author: String? = nil, rooms: [String] = [], createdAt: Timestamp, updatedAt: Timestamp) {
        self.drawingID = drawingID
        self.number = number
        self.position = position
        self.status = status
        self.note = note
        self.author = author
        self.rooms = rooms
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The whole state, as the history records a created or removed marker.
    public var state: MarkerState {
        MarkerState(x: position.x, y: position.y, status: status, note: note, rooms: rooms)
    }
}
