/// Which part of the sheet a review image shows.
public enum ReviewView: Hashable, Sendable {
    /// The whole sheet.
    case wholeSheet
    /// A square crop of `margin` pixels (full resolution) on each side of the first marker whose
    /// label is `label`, cut at the sheet's edges.
    case around(label: String, margin: Int)
}

/// What to draw besides the drawing, regions and markers, and at what size.
public struct ReviewOptions: Hashable, Sendable {
    /// Draw a legend box listing marker states (and statuses, and overdue markers) with their counts.
    public var legend: Bool
    /// A title drawn at the top left; nil for none.
    public var title: String?
    /// The whole sheet or a crop around one marker.
    public var view: ReviewView
    /// Output size over input size, in `(0, 1]`; below 1 the drawing is downscaled with an area filter
    /// before anything is drawn, so strokes and labels stay crisp.
    public var scale: Double
    /// The filters that chose the markers, e.g. "status=open,ready; room=2.05"; nil (or empty) for none.
    /// When set, the panel at the top left shows one line "Filters: <text>" (drawn even without legend
    /// or title), so the image says which markers it leaves out.
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

/// A room's name and area for the review legend, from a calibrated drawing.
public struct ReviewRoomArea: Hashable, Sendable {
    /// The room's name (or id when it has none).
    public var name: String
    /// Its area in square metres, holes subtracted.
    public var squareMetres: Double

    /// Creates a legend line.
    public init(name: String, squareMetres: Double) {
        self.name = name
        self.squareMetres = squareMetres
    }
}
