import PlanMarkGeometry
import Synchronization

/// The validators of a store's drawings, kept between writes: building one reads and indexes every region, which costs
/// more than the marker write itself. An entry is valid for one regions revision of its drawing, so a change by any
/// process (which bumps the revision) is seen at the next write that reads the drawing under its lock.
public final class ValidatorCache: Sendable {
    private let entries = Mutex<[Int64: (revision: Int, validator: MarkerValidator)]>([:])

    public init() {}

    /// The cached validator of `drawing` at its current regions revision, if any.
    /// - Complexity: O(1).
    package func validator(for drawing: Drawing) -> MarkerValidator? {
        guard let id = drawing.id else { return nil }
        return entries.withLock { entries in
            guard let entry = entries[id], entry.revision == drawing.regionsRevision else { return nil }
            return entry.validator
        }
    }

    /// Keeps `validator` for `drawing` at its current regions revision.
    /// - Complexity: O(1).
    package func store(_ validator: MarkerValidator, for drawing: Drawing) {
        guard let id = drawing.id else { return }
        entries.withLock { $0[id] = (drawing.regionsRevision, validator) }
    }
}
