/// What happened to a marker.
public enum HistoryAction: String, Hashable, Sendable, CaseIterable, Codable {
    /// Placed (by `mark` or `import`).
    case created
    /// Given a new position.
    case moved
    /// Closed (the name from before the workflow: a change to `closed`).
    case resolved
    /// Opened again (a change to `open`; from `ready`, the history keeps the reason).
    case reopened
    /// Moved through the workflow to in-progress, ready or void.
    case status
    /// A photo or document attached.
    case attached
    /// An attachment removed.
    case detached
    /// Removed (its number is never given again).
    case removed
    /// Other values changed (note, category, priority, assignee, due date, or the rooms after new regions
    /// were imported).
    case edited
    /// Carried to a new revision of the drawing's sheet (old and new position, rooms and revision number, and
    /// `needsPlacement` when it no longer validates there).
    case revised
    /// A comment added to the marker's thread (`new.comment`; the entry's id is the comment's).
    case commented
}

/// One change to one marker, with the values before and after.
public struct HistoryEntry: Hashable, Sendable {
    /// Order of the changes in the store (ascending).
    public var sequence: Int64
    /// The drawing's store id.
    public var drawingID: Int64
    /// The marker's number (the first number of an import's range).
    public var number: Int
    /// For an import: the last number of the consecutive range this one entry covers; nil otherwise.
    ///
    /// An import records one `created` entry for all its markers instead of one each (it halves the rows
    /// an import writes). `history(of:number:)` expands it for one marker, with the marker's values at
    /// creation reconstructed from its later entries (every change records the old values it replaced).
    public var lastNumber: Int?
    /// What happened.
    public var action: HistoryAction
    /// When.
    public var at: Timestamp
    /// Who did it, if known.
    public var author: String?
    /// The values before the change (nil for `created`).
    public var old: MarkerState?
    /// The values after the change (nil for `removed`, unless replaced).
    public var new: MarkerState?

    /// Creates an entry.
    public init(sequence: Int64, drawingID: Int64, number: Int, lastNumber: Int? = nil, action: HistoryAction, at: Timestamp,
                author: String?, old: MarkerState?, new: MarkerState?) {
        self.sequence = sequence
        self.drawingID = drawingID
        self.number = number
        self.lastNumber = lastNumber
        self.action = action
        self.at = at
        self.author = author
        self.old = old
        self.new = new
    }
}
