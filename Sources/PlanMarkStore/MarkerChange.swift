import PlanMarkFormats
import PlanMarkGeometry

/// The fields one request changes on a marker; nil (or `.keep`) fields stay as they are. Applied all at once or
/// not at all (`AnnotationStore.updateMarker`, `updateMarkers`).
public struct MarkerChange: Hashable, Sendable {
    /// A new position (validated like a new marker's; the rooms follow it).
    public var position: PixelPoint?
    /// A new status (the workflow decides whether the change is allowed).
    public var status: MarkerStatus?
    /// Why the status changes; required to send ready work back to open, kept in the history.
    public var reason: String?
    /// A new note: `.keep` leaves it, `.clear` clears it.
    public var note: Update<String>
    /// A new category: `.keep` leaves it, `.clear` clears it.
    public var category: Update<String>
    /// A new priority.
    public var priority: MarkerPriority?
    /// A new assignee: `.keep` leaves it, `.clear` clears it.
    public var assignee: Update<String>
    /// A new due date: `.keep` leaves it, `.clear` clears it.
    public var due: Update<DueDate>
    /// Whether setting the status the marker has already is refused (`already-in-status`, as `setStatus` asks)
    /// rather than no change.
    package var refusesSameStatus = false
    /// The marker's version the client last saw (`If-Match`): when the stored marker has another one, nothing changes
    /// and the change is refused (`versionConflict`, with the stored marker). Nil: the last write wins.
    public var ifVersion: Int?

    /// Describes a change.
    public init(position: PixelPoint? = nil, status: MarkerStatus? = nil, reason: String? = nil, note: Update<String> = .keep,
                category: Update<String> = .keep, priority: MarkerPriority? = nil, assignee: Update<String> = .keep,
                due: Update<DueDate> = .keep) {
        self.position = position
        self.status = status
        self.reason = reason
        self.note = note
        self.category = category
        self.priority = priority
        self.assignee = assignee
        self.due = due
    }

    /// True when the change names no field (`ifVersion` is a condition, not a field).
    public var isEmpty: Bool {
        position == nil && status == nil && note.keeps && category.keeps && priority == nil && assignee.keeps && due.keeps
    }
}
