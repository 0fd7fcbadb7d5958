import PlanMarkGeometry

/// The result of replacing a drawing's regions.
public struct RegionsReplacement: Hashable, Sendable {
    /// Regions now stored.
    public var regionCount: Int
    /// Markers whose rooms changed.
    public var markersReassigned: Int
    /// Numbers of markers now outside the allowed area (kept only with `force`).
    public var markersOutside: [Int]

    /// Creates a result.
    public init(regionCount: Int, markersReassigned: Int, markersOutside: [Int]) {
        self.regionCount = regionCount
        self.markersReassigned = markersReassigned
        self.markersOutside = markersOutside
    }
}
