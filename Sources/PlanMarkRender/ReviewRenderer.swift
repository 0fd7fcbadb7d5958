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
        let shorterSide = Double(min(sheetWidth, sheetHeight)) * options.scale
        let markerRadius = options.markerSize.map { $0 / 2 } ?? style.markerRadius
            ?? ReviewStyle.defaultMarkerRadius(width: image.width, height: image.height)
        var painter = ReviewPainter(
            image: consume image, style: style, transform: transform, fontPath: fontPath,
            markerRadius: markerRadius,
            outlineWidth: style.outlineWidth ?? max(1.5, shorterSide / 2000))
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
