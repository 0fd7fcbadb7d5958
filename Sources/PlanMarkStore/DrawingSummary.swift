import PlanMarkGeometry

/// A drawing with its counts, as listed.
public struct DrawingSummary: Hashable, Sendable {
    /// The drawing.
    public var drawing: Drawing
    /// How many markers it has (removed ones excluded).
    public var markerCount: Int
    /// How many regions it has.
    public var regionCount: Int
    /// The name of the project it belongs to.
    public var project: String

    /// Creates a summary.
    public init(drawing: Drawing, markerCount: Int, regionCount: Int, project: String) {
        self.project = project
        self.drawing = drawing
        self.markerCount = markerCount
        self.regionCount = regionCount
    }
}
