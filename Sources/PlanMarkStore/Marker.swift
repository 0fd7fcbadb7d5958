import PlanMarkFormats
import PlanMarkGeometry

/// A numbered marker on a drawing.
public struct Marker: Hashable, Sendable {
    /// The drawing's store id.
    public var drawingID: Int64
    /// 1, 2, 3 ... per drawing; never reused, even after removal.
    public var number: Int
    /// The item's identifier, made by the client (offline capture) or by the store (`DerivedUUID`); unique
    /// in the store.
    public var uuid: MarkerUUID
    /// The id the markers file gave it (an import's `id` column); nil for markers placed one by one.
    public var ref: String?
    /// Position in pixels of the full-resolution image (the server zoom).
    public var position: PixelPoint
    /// Where it is in the workflow.
    public var status: MarkerStatus
    /// Free text.
    public var note: String?
    /// Who placed it.
    public var author: String?
    /// Free text, at most `Marker.maxCategoryLength` characters.
    public var category: String?
    /// How urgent.
    public var priority: MarkerPriority
    /// Who it is assigned to (free text).
    public var assignee: String?
    /// When it is due.
    public var due: DueDate?
    /// When the client captured it (its own clock and offset); nil when not given.
    public var capturedAt: CaptureTime?
    /// The ids of the rooms that cover it (two for a marker on a shared wall), in region order.
    public var rooms: [String]
    /// When it was stored.
    public var createdAt: Timestamp
    /// When it last changed.
    public var updatedAt: Timestamp
    /// Why a marker carried to a new revision of its drawing no longer validates there (`outside-drawing`,
    /// `outside-allowed-area`, `outside-rooms`): a person has to place it again. Nil when it is placed; moving
    /// the marker clears it.
    public var needsPlacement: String? = nil
    /// 1 when created, one more with every change to it (its fields, position, status, rooms, revision, comments and
    /// attachments): what `If-Match` names, and the marker's `ETag`.
    public var version = 1
    /// The change feed's cursor of its last change (`ChangeFeed.swift`); nil while it is as its import created it (its
    /// cursor is then its import's). Not part of the marker's value.
    public var cursor: Int64? = nil

    /// The longest category, in characters.
    public static let maxCategoryLength = 100

    /// True when `uuid` is the store's own (`DerivedUUID`), which is not stored; not part of the marker's value.
    package var uuidIsDerived = false

    /// Creates a marker.
    public init(drawingID: Int64, number: Int, uuid: MarkerUUID, ref: String? = nil, position: PixelPoint,
                status: MarkerStatus = .open, note: String? = nil, author: String? = nil, category: String? = nil,
                priority: MarkerPriority = .normal, assignee: String? = nil, due: DueDate? = nil, capturedAt: CaptureTime? = nil,
                rooms: [String] = [], createdAt: Timestamp, updatedAt: Timestamp) {
        self.drawingID = drawingID
        self.number = number
        self.uuid = uuid
        self.ref = ref
        self.position = position
        self.status = status
        self.note = note
        self.author = author
        self.category = category
        self.priority = priority
        self.assignee = assignee
        self.due = due
        self.capturedAt = capturedAt
        self.rooms = rooms
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public static func == (a: Marker, b: Marker) -> Bool {
        a.drawingID == b.drawingID && a.number == b.number && a.uuid == b.uuid && a.ref == b.ref && a.position == b.position
            && a.status == b.status && a.note == b.note && a.author == b.author && a.category == b.category
            && a.priority == b.priority && a.assignee == b.assignee && a.due == b.due && a.capturedAt == b.capturedAt
            && a.rooms == b.rooms && a.createdAt == b.createdAt && a.updatedAt == b.updatedAt && a.needsPlacement == b.needsPlacement
            && a.version == b.version
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(drawingID)
        hasher.combine(number)
        hasher.combine(uuid)
    }

    /// Whether it is overdue on `today` (a UTC date): due before today and not closed or void.
    public func isOverdue(today: DueDate) -> Bool {
        guard let due else { return false }
        return due < today && status.isActive
    }

    /// The whole state, as the history records a created or removed marker.
    public var state: MarkerState {
        MarkerState(x: position.x, y: position.y, status: status, note: Update(note), rooms: rooms, uuid: uuid, ref: Update(ref),
                    category: Update(category), priority: priority, assignee: Update(assignee), due: Update(due),
                    capturedAt: Update(capturedAt))
    }
}

/// A marker to create: where, and the fields the client gives (all but the position optional).
public struct NewMarker: Hashable, Sendable {
    /// Position in pixels.
    public var position: PixelPoint
    /// The client's identifier (offline capture); nil lets the store make one.
    public var uuid: MarkerUUID?
    /// The markers file's id.
    public var ref: String?
    /// The status it starts in (an import of an export keeps the exported status); open by default.
    public var status: MarkerStatus
    /// Free text.
    public var note: String?
    /// At most 100 characters.
    public var category: String?
    /// Normal by default.
    public var priority: MarkerPriority
    /// Who it is assigned to.
    public var assignee: String?
    /// When it is due.
    public var due: DueDate?
    /// When the client captured it.
    public var capturedAt: CaptureTime?

    /// Describes a marker to create.
    public init(position: PixelPoint, uuid: MarkerUUID? = nil, ref: String? = nil, status: MarkerStatus = .open, note: String? = nil,
                category: String? = nil, priority: MarkerPriority = .normal, assignee: String? = nil, due: DueDate? = nil,
                capturedAt: CaptureTime? = nil) {
        self.position = position
        self.uuid = uuid
        self.ref = ref
        self.status = status
        self.note = note
        self.category = category
        self.priority = priority
        self.assignee = assignee
        self.due = due
        self.capturedAt = capturedAt
    }
}

/// What `addMarker` did: stored a new marker, or found the same item (same uuid, same content) stored already.
public struct MarkerCreation: Hashable, Sendable {
    /// The stored marker.
    public var marker: Marker
    /// False when the uuid was stored already with the same content (nothing new was stored).
    public var created: Bool

    /// Creates a result.
    public init(marker: Marker, created: Bool) {
        self.marker = marker
        self.created = created
    }
}
