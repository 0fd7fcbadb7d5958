import PlanMarkGeometry

/// A row an import did not store, and why.
public struct RejectedRow: Hashable, Sendable {
    /// The row's id in the file.
    public var id: String
    /// Its line in a CSV file (0 when unknown).
    public var line: Int
    /// Its position, if the coordinates parsed.
    public var position: PixelPoint?
    /// Why the geometry core refused it.
    public var reason: InvalidReason

    /// Creates a rejected row.
    public init(id: String, line: Int, position: PixelPoint?, reason: InvalidReason) {
        self.id = id
        self.line = line
        self.position = position
        self.reason = reason
    }
}
