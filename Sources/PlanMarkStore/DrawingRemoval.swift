import PlanMarkGeometry

/// What removing a drawing removed.
public struct DrawingRemoval: Hashable, Sendable {
    /// The drawing's name.
    public var name: String
    /// Markers removed with it.
    public var markers: Int
    /// Attachments removed with it.
    public var attachments: Int

    /// Creates a result.
    public init(name: String, markers: Int, attachments: Int) {
        self.name = name
        self.markers = markers
        self.attachments = attachments
    }
}
