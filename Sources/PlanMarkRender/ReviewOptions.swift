/// Which part of the sheet a review image shows.
public enum ReviewView: Hashable, Sendable {
    /// The whole sheet.
    case wholeSheet
    /// A square crop of `margin` pixels (full resolution) on each side of the first marker whose
    /// label is `label`, cut at the sheet's edges.
    case around(label: String, margin: Int)
}

/// What to draw besides the drawing, regions and markers, and at what size.
///
/// The output is the view (the whole sheet or the crop) times `scale`. The panel (title, filters line,
/// legend), when there is one, never covers the drawing: the canvas grows by a white margin sized to the
/// panel, to the right of the drawing or below it, whichever adds fewer pixels (`ReviewPanelPlacement`).
/// The drawing keeps its pixels, place and scale; only the image's width or height grows.
public struct ReviewOptions: Hashable, Sendable {
    /// Draw a legend box listing marker states (and statuses, and overdue markers) with their counts.
    public var legend: Bool
    /// A title drawn at the top of the panel beside (or below) the drawing; nil for none.
    public var title: String?
    /// The whole sheet or a crop around one marker.
    public var view: ReviewView
    /// Output size over input size, in `(0, 1]`; below 1 the drawing is downscaled with an area filter
    /// before anything is drawn, so strokes and labels stay crisp.
    public var scale: Double
    /// The filters that chose the markers, e.g. "status=open,ready; room=2.05"; nil (or empty) for none.
    /// When set, the panel shows one line "Filters: <text>" (drawn even without legend or title), so the
    /// image says which markers it leaves out.
    public var filters: String?
    /// The rooms' areas, listed in the legend when it is drawn; empty when the drawing has no scale
    /// (areas are then absent, not zero).
    public var roomAreas: [ReviewRoomArea]
    /// The diameter of a one-digit pin's body in output pixels (`planmark render --marker-size`), overriding
    /// the style's radius and `ReviewStyle.defaultMarkerRadius`; labels and the legend follow it. Must be finite
    /// and in `(0, 10000]`. nil: chosen from the image's size.
    public var markerSize: Double?

    /// Creates options; the defaults draw the whole sheet at full size without legend, title or filters line.
    public init(
        legend: Bool = false, title: String? = nil, view: ReviewView = .wholeSheet, scale: Double = 1,
        filters: String? = nil, roomAreas: [ReviewRoomArea] = [], markerSize: Double? = nil
    ) {
        self.legend = legend
        self.title = title
        self.view = view
        self.scale = scale
        self.filters = filters
        self.roomAreas = roomAreas
        self.markerSize = markerSize
    }
}

/// A room's id, name and area for the review legend, from a calibrated drawing.
public struct ReviewRoomArea: Hashable, Sendable {
    /// The room's id ("2.01"); nil when the caller does not know it.
    public var id: String?
    /// The room's name (or id when it has none).
    public var name: String
    /// Its area in square metres, holes subtracted.
    public var squareMetres: Double

    /// Creates a legend line.
    public init(id: String? = nil, name: String, squareMetres: Double) {
        self.id = id
        self.name = name
        self.squareMetres = squareMetres
    }

    /// The words that name the room in the legend: id and name ("2.01 Office"), so two rooms of one name
    /// can be told apart; the name alone when there is no id, the name is the id, or the name already
    /// starts with the id and a space ("2.04 Kitchen").
    /// - Complexity: O(length of the id).
    public var title: String {
        guard let id, !id.isEmpty, name != id, !name.hasPrefix(id + " ") else { return name }
        return "\(id) \(name)"
    }
}
