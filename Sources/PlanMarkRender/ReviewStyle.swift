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
    /// Marker colour for valid markers (from a markers file).
    public var valid: Colour
    /// Marker colours for invalid markers, by reason.
    public var invalid: [InvalidReason: Colour]
    /// Marker colour for invalid markers whose reason has no colour in `invalid`.
    public var invalidFallback: Colour
    /// Marker colour for stored markers with status `open`.
    public var open: Colour
    /// Marker colour for stored markers with status `in-progress`.
    public var inProgress: Colour
    /// Marker colour for stored markers with status `ready` (ready for inspection).
    public var ready: Colour
    /// Marker colour for stored markers with status `closed`.
    public var closed: Colour
    /// Marker colour for stored markers with status `void`.
    public var void: Colour
    /// The ring around an overdue marker's halo.
    public var overdue: Colour
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

    /// Creates a style; the status and overdue colours default to those of `standard`.
    public init(
        roomFill: Colour, roomOutline: Colour, allowedOutline: Colour, valid: Colour,
        invalid: [InvalidReason: Colour], invalidFallback: Colour,
        open: Colour = Colour(rgb: 0x0072B2), inProgress: Colour = Colour(rgb: 0xAA4499),
        ready: Colour = Colour(rgb: 0x009E73), closed: Colour = Colour(rgb: 0x4B5563),
        void: Colour = Colour(rgb: 0xA8AEB8), overdue: Colour = Colour(rgb: 0xE11D48),
        label: Colour = .white, halo: Colour = .white, haloEdge: Colour = Colour(rgb: 0x000000, opacity: 0.45),
        outlineWidth: Double? = nil, markerRadius: Double? = nil
    ) {
        self.roomFill = roomFill
        self.roomOutline = roomOutline
        self.allowedOutline = allowedOutline
        self.valid = valid
        self.invalid = invalid
        self.invalidFallback = invalidFallback
        self.open = open
        self.inProgress = inProgress
        self.ready = ready
        self.closed = closed
        self.void = void
        self.overdue = overdue
        self.label = label
        self.halo = halo
        self.haloEdge = haloEdge
        self.outlineWidth = outlineWidth
        self.markerRadius = markerRadius
    }

    /// Blue rooms, purple allowed areas; green valid, red/orange invalid markers. The statuses take hues
    /// from the Okabe–Ito and Tol colour-blind-safe palettes and differ in lightness too: open blue,
    /// in-progress reddish purple, ready bluish green, closed dark grey, void light grey (greyed out);
    /// an overdue marker gets a crimson ring (a shape cue as well as a colour).
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
        invalidFallback: Colour(rgb: 0xDC2626))

    /// The fill colour of a marker in `state`.
    public func colour(for state: ReviewMarkerState) -> Colour {
        switch state {
        case .valid: return valid
        case .invalid(let reason): return invalid[reason] ?? invalidFallback
        case .status(let status): return colour(for: status)
        }
    }

    /// The fill colour of a stored marker with `status`.
    public func colour(for status: ReviewMarkerStatus) -> Colour {
        switch status {
        case .open: return open
        case .inProgress: return inProgress
        case .ready: return ready
        case .closed: return closed
        case .void: return void
        }
    }
}
