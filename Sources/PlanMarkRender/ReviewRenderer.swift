import PlanMarkGeometry

/// Draws the review image: the drawing flattened onto white, translucent room fills with outlines,
/// allowed-area outlines, numbered markers coloured by state or status (overdue ones ringed, the marker an
/// `around` view is centred on ringed wider and drawn on top), and optionally a panel with a title, the filters
/// that chose the markers, and a legend, in a margin added beside or below the drawing (never over it).
///
/// Everything is anti-aliased with exact-area coverage; work per shape is bounded by the shape's
/// bounding box. Text is set in DejaVu Sans Bold through FreeType, loaded once per call and only
/// when some text is drawn.
public struct ReviewRenderer: Sendable {
    /// Colours and sizes.
    public var style: ReviewStyle
    /// The font file to use; nil searches the standard places for DejaVu Sans Bold.
    public var fontPath: String?

    /// Creates a renderer.
    public init(style: ReviewStyle = .standard, fontPath: String? = nil) {
        self.style = style
        self.fontPath = fontPath
    }

    /// Draws `regions` and `markers` over `drawing` and returns the review image.
    ///
    /// The whole-sheet view at scale 1 draws in place in `drawing`'s own buffer (no copy when the
    /// caller passes its last reference); a crop copies only the cropped rectangle; a scale below 1
    /// makes the smaller image first and draws on it. A panel (legend, title or filters line) makes the
    /// image larger than the view by a white margin that holds it (`ReviewPanelPlacement`: right of the view
    /// or below it), which costs a copy of the view. With no regions, no markers, no legend and no
    /// title, the result is `drawing` flattened onto white.
    /// - Complexity: O(pixels of the view) for flattening, plus O(bounding-box area) per region and
    ///   marker, plus the length of every edge.
    public func render(
        drawing: consuming RGBAImage, regions: [Region], markers: [ReviewMarker], options: ReviewOptions = ReviewOptions()
    ) throws(ReviewError) -> RGBAImage {
        try renderWithLayout(drawing: drawing, regions: regions, markers: markers, options: options).image
    }

    /// As `render`, and also where every marker was drawn (`ReviewLayout`: pins at their position or fanned out
    /// with a leader line, and stack badges).
    ///
    /// Pins are sized from the view as drawn (`ReviewStyle.defaultMarkerRadius`, the panel's margin left out) unless
    /// `options.markerSize` or `style.markerRadius` says otherwise; pins that would overlap are fanned out
    /// (`PinPlacer`), except the marker an `around` view is centred on, which keeps its place; pins keep off the rooms'
    /// labels (`Region.labelBox`) where there is room.
    /// - Complexity: as `render`, plus O(markers + grid cells) for the layout.
    public func renderWithLayout(
        drawing: consuming RGBAImage, regions: [Region], markers: [ReviewMarker], options: ReviewOptions = ReviewOptions()
    ) throws(ReviewError) -> (image: RGBAImage, layout: ReviewLayout) {
        guard options.scale > 0, options.scale <= 1 else { throw .invalidScale(options.scale) }
        if let size = options.markerSize, !(size.isFinite && size > 0 && size <= 10_000) { throw .invalidMarkerSize(size) }
        let sheetWidth = drawing.width, sheetHeight = drawing.height
        var image: RGBAImage
        var origin = PixelPoint(x: 0, y: 0)
        var around: Int?
        switch options.view {
        case .wholeSheet:
            image = consume drawing
        case .around(let label, let margin):
            guard margin >= 0 else { throw .invalidMargin(margin) }
            guard let index = markers.firstIndex(where: { $0.label == label }) else { throw .markerNotFound(label: label) }
            around = index
            let p = markers[index].position
            guard p.isFinite else { throw .markerOffDrawing(label: label) }
            let crop = PixelRect(
                x0: Rasteriser.floorInt(p.x - Double(margin)), y0: Rasteriser.floorInt(p.y - Double(margin)),
                x1: Rasteriser.ceilInt(p.x + Double(margin)), y1: Rasteriser.ceilInt(p.y + Double(margin))
            ).intersection(PixelRect(x0: 0, y0: 0, x1: drawing.width, y1: drawing.height))
            guard !crop.isEmpty else { throw .markerOffDrawing(label: label) }
            image = drawing.cropped(to: crop)
            origin = PixelPoint(x: Double(crop.x0), y: Double(crop.y0))
        }
        let croppedWidth = image.width, croppedHeight = image.height
        if options.scale < 1 {
            image.flattenOntoWhite()
            let width = max(1, Int((Double(croppedWidth) * options.scale).rounded()))
            let height = max(1, Int((Double(croppedHeight) * options.scale).rounded()))
            image = image.downscaled(width: width, height: height)
        }
        let transform = ReviewTransform(
            origin: origin, scaleX: Double(image.width) / Double(croppedWidth),
            scaleY: Double(image.height) / Double(croppedHeight))
        let (markerRadius, outlineWidth) = sizes(viewWidth: image.width, viewHeight: image.height, sheetWidth: sheetWidth,
                                                 sheetHeight: sheetHeight, scale: options.scale, markerSize: options.markerSize)
        var painter = ReviewPainter(
            image: consume image, style: style, transform: transform, fontPath: fontPath,
            markerRadius: markerRadius, outlineWidth: outlineWidth)
        painter.drawRegions(regions)
        var layout = try painter.drawMarkers(markers, around: around, labels: regions.compactMap(\.labelBox))
        let filters = options.filters.flatMap { $0.isEmpty ? nil : $0 }
        if options.legend || options.title != nil || filters != nil {
            let panel = try painter.measurePanel(
                title: options.title, filters: filters, legend: options.legend, markers: markers, regions: regions,
                roomAreas: options.roomAreas, stacks: layout.stacks.count, around: around.map { markers[$0].label })
            let placement = ReviewPanelPlacement.choose(viewWidth: painter.viewWidth, viewHeight: painter.viewHeight, panel: panel)
            painter.extendCanvas(to: placement)
            try painter.drawPanel(panel, left: placement.left, top: placement.top)
            layout.panel = BoundingBox(minX: Double(placement.left), minY: Double(placement.top),
                                       maxX: Double(placement.left + panel.boxWidth), maxY: Double(placement.top + panel.boxHeight))
        }
        try painter.paint(flatten: options.scale == 1)
        return (painter.image, layout)
    }
}

extension ReviewRenderer {
    /// What `render` draws over the whole sheet (`drawingWidth` x `drawingHeight` pixels) times `scale`, as shapes and
    /// text instead of pixels: the same regions, pins, leader lines, stack badges and labels in the same places (the same
    /// layout code), for an output that draws them as vectors over a drawing it draws itself (the report's PDF over a
    /// PDF drawing's page). No panel: a legend, title or filters line is the output's to set in its own type.
    ///
    /// - Parameters:
    ///   - drawingWidth: the drawing's width in pixels (the markers' and regions' coordinates).
    ///   - drawingHeight: its height.
    ///   - regions: rooms and allowed areas, in drawing pixels.
    ///   - markers: the markers, in drawing pixels.
    ///   - scale: the overlay's size over the drawing's, in `(0, 1]`: `width` is `round(drawingWidth * scale)` (at
    ///     least 1), as `render` sizes a downscaled sheet.
    ///   - markerSize: a one-digit pin's diameter in overlay pixels (`ReviewOptions.markerSize`); nil to size pins from
    ///     the overlay as `render` does.
    /// - Throws: `invalidScale`, `invalidMarkerSize`, the font's errors (labels are measured with DejaVu Sans Bold).
    /// - Complexity: O(regions' vertices + markers + grid cells) for the layout; the items hold every contour's points.
    public func overlay(drawingWidth: Int, drawingHeight: Int, regions: [Region], markers: [ReviewMarker], scale: Double = 1,
                        markerSize: Double? = nil) throws(ReviewError) -> ReviewOverlay {
        guard scale > 0, scale <= 1 else { throw .invalidScale(scale) }
        if let size = markerSize, !(size.isFinite && size > 0 && size <= 10_000) { throw .invalidMarkerSize(size) }
        let width = scale < 1 ? max(1, Int((Double(drawingWidth) * scale).rounded())) : max(1, drawingWidth)
        let height = scale < 1 ? max(1, Int((Double(drawingHeight) * scale).rounded())) : max(1, drawingHeight)
        let transform = ReviewTransform(
            origin: PixelPoint(x: 0, y: 0), scaleX: Double(width) / Double(max(1, drawingWidth)),
            scaleY: Double(height) / Double(max(1, drawingHeight)))
        let (markerRadius, outlineWidth) = sizes(viewWidth: width, viewHeight: height, sheetWidth: drawingWidth,
                                                 sheetHeight: drawingHeight, scale: scale, markerSize: markerSize)
        var painter = ReviewPainter(
            overlayWidth: width, height: height, style: style, transform: transform, fontPath: fontPath,
            markerRadius: markerRadius, outlineWidth: outlineWidth)
        painter.drawRegions(regions)
        let layout = try painter.drawMarkers(markers, around: nil, labels: regions.compactMap(\.labelBox))
        return ReviewOverlay(width: width, height: height, items: painter.overlayItems(), layout: layout)
    }

    /// A pin's radius and a region outline's width in output pixels, for a view `viewWidth` x `viewHeight` of a sheet
    /// `sheetWidth` x `sheetHeight` drawn at `scale`: `markerSize` (a diameter), else the style's, else
    /// `ReviewStyle.defaultMarkerRadius` of the view; the style's outline width, else 1.5 px or a 2000th of the sheet's
    /// shorter side at that scale, whichever is more.
    /// - Complexity: O(1).
    func sizes(viewWidth: Int, viewHeight: Int, sheetWidth: Int, sheetHeight: Int, scale: Double, markerSize: Double?)
        -> (markerRadius: Double, outlineWidth: Double) {
        let shorterSide = Double(min(sheetWidth, sheetHeight)) * scale
        let markerRadius = markerSize.map { $0 / 2 } ?? style.markerRadius ?? ReviewStyle.defaultMarkerRadius(width: viewWidth, height: viewHeight)
        return (markerRadius, style.outlineWidth ?? max(1.5, shorterSide / 2000))
    }
}

/// What the review renderer draws over a drawing, as shapes and text (`ReviewRenderer.overlay`), in overlay pixels:
/// origin top-left, y down, the overlay `width` x `height` pixels covering the whole sheet.
public struct ReviewOverlay: Sendable {
    /// One thing drawn, in drawing order.
    public enum Item: Sendable {
        /// Closed contours (each implicitly closed) filled with `colour`: non-zero winding, or even-odd when `evenOdd`
        /// (a pin's rings). Region outlines and leader lines come as the outlines of their strokes.
        case fill(contours: [[PixelPoint]], colour: Colour, evenOdd: Bool)
        /// A label in DejaVu Sans Bold, `size` pixels (the em), its pen at (`x`, `baseline`).
        case text(String, size: Int, x: Int, baseline: Int, colour: Colour)
    }

    /// The overlay's width in pixels.
    public var width: Int
    /// Its height in pixels.
    public var height: Int
    /// What is drawn, bottom first. Everything lies on the overlay or is meant to be clipped to it.
    public var items: [Item]
    /// Where the pins and stack badges went.
    public var layout: ReviewLayout

    /// An overlay.
    public init(width: Int, height: Int, items: [Item], layout: ReviewLayout) {
        self.width = width
        self.height = height
        self.items = items
        self.layout = layout
    }
}

/// Full-resolution drawing pixels to output pixels: shift by the crop's origin, then scale.
struct ReviewTransform: Sendable {
    /// Top-left of the view in drawing pixels.
    var origin: PixelPoint
    /// Output pixels per drawing pixel along x.
    var scaleX: Double
    /// Output pixels per drawing pixel along y.
    var scaleY: Double

    /// `point` in output pixels.
    @inline(__always)
    func apply(_ point: PixelPoint) -> PixelPoint {
        PixelPoint(x: (point.x - origin.x) * scaleX, y: (point.y - origin.y) * scaleY)
    }
}

extension RGBAImage {
    /// A copy of the pixels in `rect` (which must lie inside the image).
    /// - Complexity: O(rect area).
    func cropped(to rect: PixelRect) -> RGBAImage {
        precondition(rect.x0 >= 0 && rect.y0 >= 0 && rect.x1 <= width && rect.y1 <= height && !rect.isEmpty)
        if rect == PixelRect(x0: 0, y0: 0, x1: width, y1: height) { return self }
        var out = [UInt8]()
        out.reserveCapacity(rect.width * rect.height * 4)
        pixels.withUnsafeBufferPointer { source in
            for y in rect.y0..<rect.y1 {
                let start = (y * width + rect.x0) * 4
                out.append(contentsOf: source[start..<(start + rect.width * 4)])
            }
        }
        return RGBAImage(width: rect.width, height: rect.height, pixels: out, physicalScale: physicalScale)
    }
}
