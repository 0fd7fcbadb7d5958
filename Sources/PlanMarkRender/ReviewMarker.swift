import PlanMarkGeometry

/// What a marker's colour on the review image says about it.
public enum ReviewMarkerState: Hashable, Sendable {
    /// Open and valid.
    case valid
    /// Refused by validation, for this reason.
    case invalid(InvalidReason)
    /// Marked resolved in the store.
    case resolved
}

/// One marker to draw: its label (number or id), where it is, and its state.
public struct ReviewMarker: Hashable, Sendable {
    /// The text inside the marker: the marker's number or id.
    public var label: String
    /// Where the marker points, in full-resolution drawing pixels; the marker is centred here.
    public var position: PixelPoint
    /// Valid, invalid (with the reason) or resolved.
    public var state: ReviewMarkerState

    /// Creates a marker to draw.
    public init(label: String, position: PixelPoint, state: ReviewMarkerState) {
        self.label = label
        self.position = position
        self.state = state
    }
}
