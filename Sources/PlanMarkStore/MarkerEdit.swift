import PlanMarkFormats
import PlanMarkGeometry

/// One `MarkerChange` applied to one marker, worked out without a store: the marker's new values, the old and new
/// values of exactly the fields that changed, and the history action that records them. The workflow's rules (which
/// status may follow which, when a reason is needed, what a position must satisfy) live here, once for every back
/// end; a back end only stores `marker` and appends the history entry.
package struct MarkerEdit: Sendable {
    /// The marker with the change applied (`updatedAt` is the edit's time).
    package var marker: Marker
    /// The changed fields' values before.
    package var old: MarkerState
    /// The changed fields' values after (a status change's reason too).
    package var new: MarkerState
    /// The history entry's action.
    package var action: HistoryAction

    /// Whether applying `change` to `marker` places it anew, so that the drawing's validator is needed: a new
    /// position, or the same one for a marker that needs placement.
    package static func places(_ change: MarkerChange, _ marker: Marker) -> Bool {
        guard let position = change.position else { return false }
        return position != marker.position || marker.needsPlacement != nil
    }

    /// `change` applied to `marker` of drawing `drawing` at `now`; nil when it changes nothing (setting the status a
    /// marker has is no change, or `alreadyInStatus` when the change `refusesSameStatus`). `validator` is the
    /// drawing's, needed (and only read) when `places(change, marker)`.
    /// - Throws: `invalidMarker` (a position the validator refuses), `transitionRefused`, `reasonRequired`,
    ///   `alreadyInStatus`.
    /// - Complexity: `MarkerValidator.validate`'s to place the marker, else O(1).
    package static func make(_ change: MarkerChange, to marker: Marker, drawing: String, validator: MarkerValidator?,
                             now: Timestamp) throws(StoreError) -> MarkerEdit? {
        var marker = marker
        var old = MarkerState(), new = MarkerState()
        if let position = change.position, places(change, marker) {
            guard let validator else { preconditionFailure("MarkerEdit.make: a new position needs the drawing's validator") }
            let verdict = validator.validate(position)
            if let reason = verdict.reason { throw StoreError.invalidMarker(reason: reason, position: position) }
            let rooms = StoreRules.rooms(verdict.hits, validator: validator)
            old.x = marker.position.x; old.y = marker.position.y; old.rooms = marker.rooms
            new.x = position.x; new.y = position.y; new.rooms = rooms
            if let reason = marker.needsPlacement { old.needsPlacement = .set(reason); new.needsPlacement = .clear }
            marker.position = position
            marker.rooms = rooms
            marker.needsPlacement = nil
        }
        if let status = change.status {
            if status == marker.status {
                if change.refusesSameStatus {
                    throw StoreError.refused(.alreadyInStatus(drawing: drawing, number: marker.number, status: status))
                }
            } else {
                guard marker.status.allows(status) else {
                    throw StoreError.transitionRefused(drawing: drawing, number: marker.number, from: marker.status, to: status)
                }
                let reason = change.reason.flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
                if marker.status.needsReason(toChangeTo: status) && reason == nil {
                    throw StoreError.refused(.reasonRequired(drawing: drawing, number: marker.number))
                }
                old.status = marker.status
                new.status = status
                new.reason = reason
                marker.status = status
            }
        }
        if !change.note.keeps, case let note = change.note.applied(to: marker.note), note != marker.note {
            old.note = Update(marker.note); new.note = Update(note); marker.note = note
        }
        if !change.category.keeps, case let category = change.category.applied(to: marker.category), category != marker.category {
            old.category = Update(marker.category); new.category = Update(category); marker.category = category
        }
        if let priority = change.priority, priority != marker.priority {
            old.priority = marker.priority; new.priority = priority; marker.priority = priority
        }
        if !change.assignee.keeps, case let assignee = change.assignee.applied(to: marker.assignee), assignee != marker.assignee {
            old.assignee = Update(marker.assignee); new.assignee = Update(assignee); marker.assignee = assignee
        }
        if !change.due.keeps, case let due = change.due.applied(to: marker.due), due != marker.due {
            old.due = Update(marker.due); new.due = Update(due); marker.due = due
        }
        guard old != MarkerState() else { return nil }
        marker.updatedAt = now
        let action: HistoryAction
        if let status = new.status {
            switch status {
            case .closed: action = .resolved
            case .open: action = .reopened
            default: action = .status
            }
        } else if new.x != nil {
            action = .moved
        } else {
            action = .edited
        }
        return MarkerEdit(marker: marker, old: old, new: new, action: action)
    }
}
