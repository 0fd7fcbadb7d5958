import PlanMarkGeometry

/// Colours and sizes of the review drawing. Sizes are in output pixels; nil sizes are chosen from
/// the sheet's size so that a marker looks the same on every view of one drawing.
public struct ReviewStyle: Hashable, Sendable {
    /// Fill of rooms, translucent so the drawing shows through.
    public var roomFill: Colour
    /// Outline of rooms.
    public var roomOutline: Colour
    /// Outline of allowed areas (not filled).
    public var allowedOutline: Colour
    /// Marker colour for valid markers.
    public var valid: Colour
    /// Marker colours for invalid markers, by reason.
    public var invalid: [InvalidReason: Colour]
    /// Marker colour for invalid markers whose reason has no colour in `invalid`.
    public var invalidFallback: Colour
    /// Marker colour for resolved markers.
    public var resolved: Colour
    /// Colour of the number inside a marker.
    public var label: Colour
    /// The halo around a marker, separating it from the drawing's lines.
    public var halo: Colour
    /// The thin edge outside the halo, separating it from white paper.
    public var haloEdge: Colour
    /// Outline width in output pixels; nil for `max(1.5, shorter sheet side / 2000)`.
    public var outlineWidth: Double?
    /// Marker radius in output pixels; nil for `max(12, shorter sheet side / 250)`.
    public var markerRadius: Double?

    /// Creates a style.
    public init(
        roomFill: Colour, roomOutline: Colour, allowedOutline: Colour, valid: Colour,
        invalid: [InvalidReason: Colour], invalidFallback: Colour, resolved: Colour,
        label: Colour = .white, halo: Colour = .white, haloEdge: Colour = Colour(rgb: 0x000000, opacity: 0.45),
        outlineWidth: Double? = nil, markerRadius: Double? = nil
    ) {
        self.roomFill = roomFill
        self.roomOutline = roomOutline
        self.allowedOutline = allowedOutline
        self.valid = valid
        self.invalid = invalid
        self.invalidFallback = invalidFallback
        self.resolved = resolved
        self.label = label
        self.halo = halo
        self.haloEdge = haloEdge
        self.outlineWidth = outlineWidth
        self.markerRadius = markerRadius
    }

    /// Blue rooms, purple allowed areas; green valid, red/orange invalid, grey resolved markers.
    public static let standard = ReviewStyle(
        roomFill: Colour(rgb: 0x3B82F6, opacity: 0.18),
        roomOutline: Colour(rgb: 0x1D4ED8),
        allowedOutline: Colour(rgb: 0x9333EA),
        valid: Colour(rgb: 0x15803D),
        invalid: [
            .outsideAllowedArea: Colour(rgb: 0xDC2626),
            .outsideRooms: Colour(rgb: 0xEA580C),
            .outsideDrawing: Colour(rgb: 0x9F1239),
            .invalidCoordinate: Colour(rgb: 0x9F1239),
        ],
        invalidFallback: Colour(rgb: 0xDC2626),
        resolved: Colour(rgb: 0x6B7280))

    /// The fill colour of a marker in `state`.
    public func colour(for state: ReviewMarkerState) -> Colour {
        switch state {
        case .valid: return valid
        case .invalid(let reason): return invalid[reason] ?? invalidFallback
        case .resolved: return resolved
        }
    }
}
