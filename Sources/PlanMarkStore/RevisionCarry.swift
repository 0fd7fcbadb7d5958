import PlanMarkGeometry

/// Carries a drawing's markers and regions through a revision's transform, refusing results that are not
/// finite: a transform fitted from sane control points can still send a far-away marker (or a region vertex)
/// past the largest double, and such a position must never be stored. Both back ends carry through here.
package enum RevisionCarry {
    /// `position` of marker `number` carried through `transform`; `invalidArgument` (a usage error: the
    /// transform, not the store, is at fault) when the result is not finite.
    /// - Complexity: O(1).
    package static func position(_ position: PixelPoint, marker number: Int, drawing: String,
                                 through transform: AffineMap) throws(StoreError) -> PixelPoint {
        guard let carried = transform.carried(position) else {
            throw .invalidArgument("--align: drawing \"\(drawing)\": marker \(number) at \(position) would be carried to a position that is not a finite number; nothing stored")
        }
        return carried
    }

    /// `region` carried through `transform`: `invalidArgument` when a vertex lands on a non-finite position,
    /// `refused` when the carried region is not valid (its rings cross, for example).
    /// - Complexity: O(v log v) for v vertices (the region's validation).
    package static func region(_ region: Region, drawing: String, through transform: AffineMap) throws(StoreError) -> Region {
        for polygon in region.polygons {
            for ring in [polygon.exterior] + polygon.holes where ring.vertices.contains(where: { transform.carried($0) == nil }) {
                throw .invalidArgument("--align: drawing \"\(drawing)\": region \(region.id) would be carried to positions that are not finite numbers; nothing stored")
            }
        }
        do {
            return try region.transformed(by: transform)
        } catch {
            throw .refused(.regionInvalidAfterTransform(drawing: drawing, region: region.id, problem: String(describing: error)))
        }
    }
}
