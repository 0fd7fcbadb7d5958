import PlanMarkGeometry
import PlanMarkRender
import PlanMarkStore

/// The review legend's room areas of a drawing, the same for `planmark render` and the service's
/// review image.
public enum RoomAreas {
    /// Each room's (not allowed area's) id and name (the id when it has none), and its area in square metres (holes
    /// subtracted) in region order; empty when the drawing has no scale, so the legend lists no areas
    /// rather than zeros.
    /// - Complexity: O(n) for n vertices of the regions.
    public static func of(_ regions: [Region], drawing: Drawing) -> [ReviewRoomArea] {
        guard let metresPerPixel = drawing.metresPerPixel else { return [] }
        return regions.filter { $0.kind == .room }.map {
            ReviewRoomArea(id: $0.id, name: $0.name ?? $0.id, squareMetres: $0.area * metresPerPixel * metresPerPixel)
        }
    }
}
