import PlanMarkGeometry
import PlanMarkRender
import PlanMarkStore

extension ReviewMarker {
    /// A stored marker as the review image shows it, the one mapping `planmark render NAME` and the
    /// service's `review.png` share: the label is the marker's number and the state its status, except that
    /// an open marker is validated again against the drawing's current regions and size (`validator`) and
    /// shown `invalid(reason)` when they refuse it. The store's `resolved` is the review's `closed`.
    /// - Complexity: one point location, O(log n + k) (see `MarkerValidator.validate`).
    public init(stored marker: Marker, validator: MarkerValidator) {
        let status: ReviewMarkerStatus
        switch marker.status {
        case .open: status = .open
        case .resolved: status = .closed
        }
        var state = ReviewMarkerState.status(status)
        if status == .open, let reason = validator.validate(marker.position).reason { state = .invalid(reason) }
        self.init(label: String(marker.number), position: marker.position, state: state)
    }
}
