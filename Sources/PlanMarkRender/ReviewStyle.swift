import PlanMarkFormats
import PlanMarkGeometry

/// Colours and sizes of the review drawing. Sizes are in output pixels; a nil marker radius is chosen from
/// the rendered image's size (`defaultMarkerRadius`), so pins, labels and the legend keep the same share of
/// the picture at every scale and crop: readable in a whole-sheet view of a large sheet, small in a close-up.
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
    /// Marker colours for stored markers, by status (by default each status's own, `MarkerStatus.colour`).
    public var statuses: [MarkerStatus: Colour]
    /// The ring around an overdue marker's halo.
    public var overdue: Colour
    /// The ring around the marker an `around` view is centred on (`planmark render --around N`): wider than
    /// the overdue ring (`ReviewRenderer` sizes both) and outside it, so marker N stands out from its neighbours.
    public var aroundRing: Colour
    /// Colour of the number inside a marker.
    public var label: Colour
    /// The halo around a marker, separating it from the drawing's lines.
    public var halo: Colour
    /// The thin edge outside the halo, separating it from white paper.
    public var haloEdge: Colour
    /// Outline width in output pixels; nil for `max(1.5, shorter sheet side / 2000)`.
    public var outlineWidth: Double?
    /// Marker radius in output pixels; nil for `defaultMarkerRadius` of the rendered image.
    /// (`ReviewOptions.markerSize` overrides both.)
    public var markerRadius: Double?
    /// Leader lines from a fanned-out pin to its marker's position.
    public var leader: Colour
    /// Body of a stack badge ("+N": markers that found no room near their position).
    public var stack: Colour

    /// The smallest radius of a one-digit pin's body chosen from the image's size, output pixels (a 20 px pin
    /// with an 11 px label).
    public static let minimumMarkerRadius = 10.0
    /// The share of the rendered image's shorter side a one-digit pin's body takes across, when no size is given:
    /// 2% (a pin 20 px across when the image is shown 1000 px high, whatever its resolution).
    public static let markerDiameterFraction = 0.02

    /// The radius of a one-digit pin's body on a `width × height` output image:
    /// `max(minimumMarkerRadius, markerDiameterFraction × shorter side / 2)`. The label's font size is
    /// 1.1 × the radius, the legend's text 0.95 × and the title 1.3 ×; longer labels grow the disc up to 1.35 ×,
    /// then make it a pill.
    /// - Complexity: O(1).
    public static func defaultMarkerRadius(width: Int, height: Int) -> Double {
        max(minimumMarkerRadius, markerDiameterFraction * Double(min(width, height)) / 2)
    }

    /// Creates a style; the status, overdue and around-ring colours default to those of `standard`.
    public init(
        roomFill: Colour, roomOutline: Colour, allowedOutline: Colour, valid: Colour,
        invalid: [InvalidReason: Colour], invalidFallback: Colour,
        statuses: [MarkerStatus: Colour] = ReviewStyle.statusColours, overdue: Colour = Colour(rgb: Overdue.colour),
        aroundRing: Colour = Colour(rgb: 0xFFB000),
        label: Colour = .white, halo: Colour = .white, haloEdge: Colour = Colour(rgb: 0x000000, opacity: 0.45),
        outlineWidth: Double? = nil, markerRadius: Double? = nil,
        leader: Colour = Colour(rgb: 0x1F2937), stack: Colour = Colour(rgb: 0x111827)
    ) {
        self.roomFill = roomFill
        self.roomOutline = roomOutline
        self.allowedOutline = allowedOutline
        self.valid = valid
        self.invalid = invalid
        self.invalidFallback = invalidFallback
        self.statuses = statuses
        self.overdue = overdue
        self.aroundRing = aroundRing
        self.label = label
        self.halo = halo
        self.haloEdge = haloEdge
        self.outlineWidth = outlineWidth
        self.markerRadius = markerRadius
        self.leader = leader
        self.stack = stack
    }

    /// Blue rooms, purple allowed areas; green valid, red/orange invalid markers. The statuses take their own
    /// colours (`MarkerStatus.colour`); an overdue marker gets a crimson ring (`Overdue.colour`) (a shape cue as well as a colour); the marker an `around` view is
    /// centred on a wide gold ring (0xFFB000, from IBM's colour-blind-safe palette) with a dark edge.
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
    public func colour(for status: MarkerStatus) -> Colour {
        statuses[status] ?? Colour(rgb: status.colour)
    }

    /// Each status's own colour (`MarkerStatus.colour`).
    public static let statusColours = Dictionary(uniqueKeysWithValues: MarkerStatus.allCases.map { ($0, Colour(rgb: $0.colour)) })
}
