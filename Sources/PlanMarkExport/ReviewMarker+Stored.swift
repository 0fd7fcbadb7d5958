import PlanMarkGeometry
import PlanMarkRender
import PlanMarkStore

extension ReviewMarker {
    /// A stored marker as the review image shows it, the one mapping `planmark render NAME` and the
    /// service's `review.png` share: resolved markers are `resolved`; open ones are validated again against
    /// the drawing's current regions and size (`validator`) and shown `valid` or `invalid(reason)`; the
    /// label is the marker's number.
    /// - Complexity: one point location, O(log n + k) (see `MarkerValidator.validate`).
    public init(stored marker: Marker, validator: MarkerValidator) {
        let state: ReviewMarkerState
        if !marker.status.isActive {
            state = .resolved
        } else if let reason = validator.validate(marker.position).reason {
            state = .invalid(reason)
        } else {
            state = .valid
        }
        self.init(label: String(marker.number), position: marker.position, state: state)
    }
}
