import PlanMarkGeometry

/// The drawing state of one `ReviewRenderer.render` call: the output image, the display list being
/// recorded (see `ReviewPainter+Bands.swift`), reusable rasteriser buffers and path storage, and the
/// font once it is needed.
struct ReviewPainter {
    /// The image drawn on (opaque): the view, and right of it or below it the panel's margin when there is one
    /// (`extendCanvas(for:)`).
    var image: RGBAImage
    /// Width of the view (the drawing's part of `image`, at its top left), output pixels.
    private(set) var viewWidth: Int
    /// Height of the view, output pixels.
    private(set) var viewHeight: Int
    /// The first `viewItemCount` items of the display list (regions and markers) are clipped to the view, so
    /// that nothing of the drawing's reaches the panel's margin; the panel's items come after them.
    var viewItemCount = 0
    /// Colours and sizes.
    let style: ReviewStyle
    /// Drawing pixels to output pixels.
    let transform: ReviewTransform
    /// Font file override.
    let fontPath: String?
    /// Radius of a one-digit marker, output pixels.
    let markerRadius: Double
    /// Width of region outlines, output pixels.
    let outlineWidth: Double

    var rasteriser = Rasteriser()
    /// The path being built; `record(_:)` files a copy of it in the display list.
    var path = RasterPath()
    /// The display list, in drawing order.
    var items: [ReviewItem] = []
    /// Output rows each item may touch, parallel to `items`.
    var itemRows: [Range<Int>] = []
    /// Paths referred to by `.path` items.
    var paths: [RasterPath] = []
    private var points: [PixelPoint] = []
    private var font: TextFont?

    /// True for an overlay (`init(overlayWidth:...)`): nothing is painted, the display list is the result.
    let isOverlay: Bool

    init(image: consuming RGBAImage, style: ReviewStyle, transform: ReviewTransform, fontPath: String?,
         markerRadius: Double, outlineWidth: Double) {
        viewWidth = image.width
        viewHeight = image.height
        isOverlay = false
        self.image = image
        self.style = style
        self.transform = transform
        self.fontPath = fontPath
        self.markerRadius = markerRadius
        self.outlineWidth = outlineWidth
    }

    /// A painter that records a `width` x `height` view without pixels, its paths keeping their contours, for
    /// `overlayItems()`.
    init(overlayWidth width: Int, height: Int, style: ReviewStyle, transform: ReviewTransform, fontPath: String?,
         markerRadius: Double, outlineWidth: Double) {
        viewWidth = width
        viewHeight = height
        isOverlay = true
        image = RGBAImage(width: 0, height: 0, pixels: [])
        path = RasterPath(keepingContours: true)
        self.style = style
        self.transform = transform
        self.fontPath = fontPath
        self.markerRadius = markerRadius
        self.outlineWidth = outlineWidth
    }

    /// The display list as vectors: paths as their contours (non-zero), marker shapes as theirs (even-odd), text as it
    /// is.
    /// - Complexity: O(items + their contours' points).
    func overlayItems() -> [ReviewOverlay.Item] {
        var shapePath = RasterPath(keepingContours: true)
        return items.map { item in
            switch item {
            case .path(let index, let colour):
                return .fill(contours: paths[index].contours, colour: colour, evenOdd: false)
            case .shape(let shape, let colour):
                Self.build(shape, into: &shapePath)
                return .fill(contours: shapePath.contours, colour: colour, evenOdd: true)
            case .text(let text, let size, let x, let baseline, let colour):
                return .text(text, size: size, x: x, baseline: baseline, colour: colour)
            }
        }
    }

    /// The font, loaded on first use.
    mutating func textFont() throws(ReviewError) -> TextFont {
        if let font { return font }
        let loaded = try TextFont(path: fontPath)
        font = loaded
        return loaded
    }

    /// True when the drawing-pixel box `bounds`, widened by `pad` output pixels, reaches the image.
    private func isVisible(_ bounds: BoundingBox, pad: Double) -> Bool {
        let a = transform.apply(PixelPoint(x: bounds.minX, y: bounds.minY))
        let b = transform.apply(PixelPoint(x: bounds.maxX, y: bounds.maxY))
        return b.x + pad > 0 && b.y + pad > 0 && a.x - pad < Double(viewWidth) && a.y - pad < Double(viewHeight)
    }

    /// Records room fills (each room one non-zero path: exteriors one way round, holes the other, so there is
    /// no seam between parts and holes stay untouched), then room outlines, then allowed-area outlines.
    /// - Complexity: O(vertices + bounding-box area) per visible region.
    mutating func drawRegions(_ regions: [Region]) {
        let pad = outlineWidth
        for region in regions where region.kind == .room && isVisible(region.bounds, pad: pad) {
            path.removeAll()
            for polygon in region.polygons {
                let outerPositive = polygon.exterior.doubleSignedArea > 0
                addRing(polygon.exterior, reversed: !outerPositive)
                for hole in polygon.holes { addRing(hole, reversed: (hole.doubleSignedArea > 0) == outerPositive) }
            }
            record(colour: style.roomFill)
        }
        for kind in [RegionKind.room, .allowed] {
            let colour = kind == .room ? style.roomOutline : style.allowedOutline
            for region in regions where region.kind == kind && isVisible(region.bounds, pad: pad) {
                path.removeAll()
                for polygon in region.polygons {
                    strokeRing(polygon.exterior)
                    for hole in polygon.holes { strokeRing(hole) }
                }
                record(colour: colour)
            }
        }
    }

    private mutating func addRing(_ ring: Ring, reversed: Bool) {
        points.removeAll(keepingCapacity: true)
        for vertex in ring.vertices { points.append(transform.apply(vertex)) }
        if reversed { points.reverse() }
        path.addPolygon(points)
    }

    private mutating func strokeRing(_ ring: Ring) {
        points.removeAll(keepingCapacity: true)
        for vertex in ring.vertices { points.append(transform.apply(vertex)) }
        path.addStroke(points, closed: true, width: outlineWidth, join: .miter(limit: 4))
    }
}
