import PlanMarkGeometry

/// The fields one request changes on a marker; nil fields stay as they are. Applied all at once or
/// not at all (`AnnotationStore.updateMarker`).
public struct MarkerChange: Hashable, Sendable {
    /// A new position (validated like a new marker's; the rooms follow it).
    public var position: PixelPoint?
    /// A new status.
    public var status: MarkerStatus?
    /// A new note: nil leaves it, `.some(nil)` clears it.
    public var note: String??

    /// Describes a change.
    public init(position: PixelPoint? = nil, status: MarkerStatus? = nil, note: String?? = nil) {
        self.position = position
        self.status = status
        self.note = note
    }

    /// True when the change names no field.
    public var isEmpty: Bool { position == nil && status == nil && note == nil }
}
