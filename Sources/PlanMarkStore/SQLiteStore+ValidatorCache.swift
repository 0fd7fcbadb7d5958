import GRDB
import PlanMarkGeometry

/// The validators of a store's drawings, kept between writes: building one reads and indexes every
/// region, which costs more than the marker write itself. An entry is valid for one regions revision
/// of its drawing, so a change by any process (which bumps the revision) is seen at the next write.
///
/// Used only inside write transactions, which the pool's single writer runs one at a time; that
/// serialisation is its lock (hence `@unchecked Sendable`).
package final class ValidatorCache: @unchecked Sendable {
    private var entries: [Int64: (revision: Int, validator: MarkerValidator)] = [:]

    /// The cached validator of `drawing` at its current regions revision, if any.
    package init() {}

    package func validator(for drawing: Drawing) -> MarkerValidator? {
        guard let id = drawing.id, let entry = entries[id], entry.revision == drawing.regionsRevision else { return nil }
        return entry.validator
    }

    /// Keeps `validator` for `drawing` at its current regions revision.
    package func store(_ validator: MarkerValidator, for drawing: Drawing) {
        guard let id = drawing.id else { return }
        entries[id] = (drawing.regionsRevision, validator)
    }
}

extension SQLiteStore {
    /// The validator for `drawing` as stored in `db`: from the cache when its regions revision is
    /// unchanged, else built from the stored regions and cached. Call it inside a write transaction only.
    /// - Complexity: O(1) on a hit; O(region vertices) to rebuild.
    func currentValidator(_ db: Database, for drawing: Drawing) throws -> MarkerValidator {
        if let cached = validatorCache.validator(for: drawing) { return cached }
        let validator = StoreRules.validator(for: drawing, regions: try Self.fetchRegions(db, drawingID: drawing.id!))
        validatorCache.store(validator, for: drawing)
        return validator
    }
}
