import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkRender
import PlanMarkStore

extension ReviewMarker {
    /// A stored marker as the review image shows it, the one mapping `planmark render NAME` and the
    /// service's `review.png` share: the label is the marker's number, the state its status, except that a
    /// marker still in work (open, in progress, ready) is validated again against the drawing's current
    /// regions and size (`validator`) and shown `invalid(reason)` when they refuse it; `overdue` as
    /// `Marker.isOverdue(today:)` says.
    /// - Complexity: one point location, O(log n + k) (see `MarkerValidator.validate`).
    public init(stored marker: Marker, validator: MarkerValidator, today: DueDate = .today) {
        var state = ReviewMarkerState.status(marker.status)
        if marker.status.isActive, let reason = validator.validate(marker.position).reason { state = .invalid(reason) }
        self.init(label: String(marker.number), position: marker.position, state: state, overdue: marker.isOverdue(today: today))
    }
}
