import PlanMarkFormats
import PlanMarkGeometry

/// What a marker's colour on the review image says about it.
public enum ReviewMarkerState: Hashable, Sendable {
    /// A marker from a markers file that passed validation.
    case valid
    /// Refused by validation, for this reason.
    case invalid(InvalidReason)
    /// A stored marker, drawn in its status's colour.
    case status(MarkerStatus)
}

/// One marker to draw: its label (number or id), where it is, its state, and whether it is overdue.
public struct ReviewMarker: Hashable, Sendable {
    /// The text inside the marker: the marker's number or id.
    public var label: String
    /// Where the marker points, in full-resolution drawing pixels; the marker is centred here.
    public var position: PixelPoint
    /// Valid, invalid (with the reason), or a stored marker's status.
    public var state: ReviewMarkerState
    /// Past its due date and not closed or void (the caller decides): drawn with a ring in
    /// `ReviewStyle.overdue` around its halo, whatever its state's colour.
    public var overdue: Bool

    /// Creates a marker to draw.
    public init(label: String, position: PixelPoint, state: ReviewMarkerState, overdue: Bool = false) {
        self.label = label
        self.position = position
        self.state = state
        self.overdue = overdue
    }
}
