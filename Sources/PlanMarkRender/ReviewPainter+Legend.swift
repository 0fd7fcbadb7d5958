import PlanMarkFormats
import PlanMarkGeometry

/// One line of the legend: a swatch and its text.
public struct ReviewLegendEntry: Hashable, Sendable {
    /// What the swatch shows.
    public enum Swatch: Hashable, Sendable {
        /// A marker disc in this colour.
        case marker(Colour)
        /// A filled and outlined square (rooms).
        case area(fill: Colour, outline: Colour)
        /// An outlined square (allowed areas).
        case outline(Colour)
        /// A ring in this colour around a white disc (overdue markers).
        case ring(Colour)
        /// A stack badge's disc in this colour, with "+" on it.
        case stack(Colour)
    }

    /// The swatch.
    public var swatch: Swatch
    /// The text, e.g. "Valid (12)".
    public var text: String

    /// The legend's lines: rooms and allowed areas when there are any; one line per status present, in
    /// workflow order ("Open (12)", "In progress (3)", "Ready for inspection (1)", "Closed (40)", "Void (2)"),
    /// then "Overdue (5)" when any marker is overdue; then valid markers and invalid markers per reason.
    /// With no stored (status) markers at all, as for a markers file, "Valid (n)" is always listed and
    /// "Invalid (0)" stands for no invalid markers; with stored markers, those two lines appear only when
    /// there is something to count (open markers the current regions refuse are invalid).
    /// - Complexity: O(markers + regions).
    ///
    /// After the rooms line, one line per entry of `roomAreas`, "ID NAME  12.34 m²" (`ReviewRoomArea.title`;
    /// `squareMetres` is the unit as the font can draw it); after the overdue line, "Around marker N" when the
    /// view is centred on marker `around` (ringed in `ReviewStyle.aroundRing`); after the markers,
    /// "Stack badge (n)" when `stacks` badges were drawn.
    public static func entries(
        markers: [ReviewMarker], regions: [Region], style: ReviewStyle,
        roomAreas: [ReviewRoomArea] = [], squareMetres: String = "m²", stacks: Int = 0, around: String? = nil
    ) -> [ReviewLegendEntry] {
        var valid = 0, overdue = 0
        var statuses: [MarkerStatus: Int] = [:]
        var invalid: [InvalidReason: Int] = [:]
        for marker in markers {
            switch marker.state {
            case .valid: valid += 1
            case .status(let status): statuses[status, default: 0] += 1
            case .invalid(let reason): invalid[reason, default: 0] += 1
            }
            if marker.overdue { overdue += 1 }
        }
        var entries: [ReviewLegendEntry] = []
        let rooms = regions.count { $0.kind == .room }
        let allowed = regions.count - rooms
        if rooms > 0 { entries.append(.init(swatch: .area(fill: style.roomFill, outline: style.roomOutline), text: "Room (\(rooms))")) }
        for room in roomAreas {
            entries.append(.init(swatch: .area(fill: style.roomFill, outline: style.roomOutline),
                                 text: "\(room.title)  \(Quantity.squareMetres.text(room.squareMetres)) \(squareMetres)"))
        }
        if allowed > 0 { entries.append(.init(swatch: .outline(style.allowedOutline), text: "Allowed area (\(allowed))")) }
        for status in MarkerStatus.allCases {
            guard let count = statuses[status] else { continue }
            entries.append(.init(swatch: .marker(style.colour(for: status)), text: "\(status.title) (\(count))"))
        }
        if overdue > 0 { entries.append(.init(swatch: .ring(style.overdue), text: "Overdue (\(overdue))")) }
        if let around { entries.append(.init(swatch: .ring(style.aroundRing), text: "Around marker \(around)")) }
        let fileMarkers = statuses.isEmpty
        if fileMarkers || valid > 0 { entries.append(.init(swatch: .marker(style.valid), text: "Valid (\(valid))")) }
        if fileMarkers && invalid.isEmpty {
            entries.append(.init(swatch: .marker(style.invalidFallback), text: "Invalid (0)"))
        }
        for reason in InvalidReason.allCases {
            guard let count = invalid[reason] else { continue }
            entries.append(.init(swatch: .marker(style.colour(for: .invalid(reason))), text: "Invalid: \(reason.rawValue) (\(count))"))
        }
        if stacks > 0 { entries.append(.init(swatch: .stack(style.stack), text: "Stack badge (\(stacks))")) }
        return entries
    }
}

/// The panel's lines and sizes, measured before the canvas is extended for it (`ReviewPainter.measurePanel`).
struct ReviewPanel {
    /// The title, when given.
    var title: String?
    /// "Filters: <filters>", when given.
    var filtersLine: String?
    /// The legend's lines (none without a legend).
    var entries: [ReviewLegendEntry]
    /// Font sizes, pixels: the title's, and the filters line's and legend's.
    var titleSize: Int, entrySize: Int
    /// Line heights, pixels.
    var titleHeight: Int, entryHeight: Int
    /// Space inside the box round its lines, pixels.
    var pad: Int
    /// The widest line and the lines' total height, pixels.
    var contentWidth: Int, contentHeight: Int
    /// Space between the drawing and the box, and round the box, pixels.
    var margin: Int

    /// The box's width, pixels (its 1-pixel border is centred on the edge).
    var boxWidth: Int { contentWidth + 2 * pad }
    /// The box's height, pixels.
    var boxHeight: Int { contentHeight + 2 * pad }
}

/// Where the panel goes: in a white margin added to the right of the view or below it, so that it never covers
/// the drawing. The margin holds the box with `margin` pixels between it and the view and round it; the
/// side is the one that makes the smaller image (right on a tie).
struct ReviewPanelPlacement: Hashable {
    /// The canvas: the view and the margin.
    var width: Int, height: Int
    /// The box's top-left corner, output pixels.
    var left: Int, top: Int

    /// The placement of `panel` beside a `viewWidth × viewHeight` view.
    /// - Complexity: O(1).
    static func choose(viewWidth: Int, viewHeight: Int, panel: ReviewPanel) -> ReviewPanelPlacement {
        let margin = panel.margin
        let right = ReviewPanelPlacement(
            width: viewWidth + margin + panel.boxWidth + margin, height: max(viewHeight, margin + panel.boxHeight + margin),
            left: viewWidth + margin, top: margin)
        let below = ReviewPanelPlacement(
            width: max(viewWidth, margin + panel.boxWidth + margin), height: viewHeight + margin + panel.boxHeight + margin,
            left: margin, top: viewHeight + margin)
        return below.width * below.height < right.width * right.height ? below : right
    }
}

extension ReviewPainter {
    /// The panel holding the title (when given), the line "Filters: <filters>" (when given) and the legend (when
    /// asked): its lines and sizes, in the font sizes of this painter's pins.
    /// - Complexity: O(markers + regions) to count, plus the text's length to measure it.
    mutating func measurePanel(
        title: String?, filters: String?, legend: Bool, markers: [ReviewMarker], regions: [Region],
        roomAreas: [ReviewRoomArea] = [], stacks: Int = 0, around: String? = nil
    ) throws(ReviewError) -> ReviewPanel {
        let font = try textFont()
        // DejaVu Sans has "²"; a font without it gets "m2".
        let squareMetres = font.hasGlyph("\u{B2}") ? "m\u{B2}" : "m2"
        let entrySize = max(11, Int((markerRadius * 0.95).rounded()))
        let titleSize = max(14, Int((markerRadius * 1.3).rounded()))
        let entries = legend
            ? ReviewLegendEntry.entries(markers: markers, regions: regions, style: style, roomAreas: roomAreas,
                                        squareMetres: squareMetres, stacks: stacks, around: around)
            : []
        let entryHeight = Int((Double(entrySize) * 1.5).rounded())
        let titleHeight = Int((Double(titleSize) * 1.5).rounded())
        let swatchSpace = entryHeight
        var contentWidth = 0
        let filtersLine = filters.map { "Filters: \($0)" }
        if let title { contentWidth = font.measure(title, size: titleSize).advance }
        if let filtersLine { contentWidth = max(contentWidth, font.measure(filtersLine, size: entrySize).advance) }
        for entry in entries {
            contentWidth = max(contentWidth, swatchSpace + font.measure(entry.text, size: entrySize).advance)
        }
        let contentHeight = (title == nil ? 0 : titleHeight) + (filtersLine == nil ? 0 : entryHeight)
            + entries.count * entryHeight
        return ReviewPanel(
            title: title, filtersLine: filtersLine, entries: entries, titleSize: titleSize, entrySize: entrySize,
            titleHeight: titleHeight, entryHeight: entryHeight, pad: Int((Double(entrySize) * 0.8).rounded()),
            contentWidth: contentWidth, contentHeight: contentHeight, margin: Int(markerRadius.rounded()))
    }

    /// Makes room for the panel: the image becomes `placement`'s canvas, white, with the view copied to its top
    /// left (pixels unchanged, flattened later with the rest).
    /// - Complexity: O(pixels of the canvas).
    mutating func extendCanvas(to placement: ReviewPanelPlacement) {
        let width = placement.width, height = placement.height
        guard width != image.width || height != image.height else { return }
        precondition(width >= viewWidth && height >= viewHeight && image.width == viewWidth && image.height == viewHeight)
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        let rowBytes = viewWidth * 4
        image.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                for y in 0..<viewHeight {
                    target.baseAddress!.advanced(by: y * width * 4)
                        .update(from: source.baseAddress!.advanced(by: y * rowBytes), count: rowBytes)
                }
            }
        }
        image = RGBAImage(width: width, height: height, pixels: pixels, physicalScale: image.physicalScale)
    }

    /// Records `panel` in a white box with its top-left corner at `(left, top)`: the title, the filters line and
    /// the legend's lines, each legend line a swatch and its text. Everything recorded before it (the drawing's
    /// regions and markers) is clipped to the view.
    /// - Complexity: O(lines + the box's area).
    mutating func drawPanel(_ panel: ReviewPanel, left boxLeft: Int, top boxTop: Int) throws(ReviewError) {
        viewItemCount = items.count
        let font = try textFont()
        let entrySize = panel.entrySize, entryHeight = panel.entryHeight, pad = panel.pad
        let swatchSpace = entryHeight
        let left = Double(boxLeft), top = Double(boxTop)
        let right = left + Double(panel.boxWidth), bottom = top + Double(panel.boxHeight)

        path.removeAll()
        path.addRoundedRectangle(minX: left, minY: top, maxX: right, maxY: bottom, radius: Double(pad) / 2)
        record(colour: Colour(rgb: 0xFFFFFF, opacity: 0.92))
        path.removeAll()
        path.addStroke(
            [PixelPoint(x: left, y: top), PixelPoint(x: right, y: top), PixelPoint(x: right, y: bottom),
             PixelPoint(x: left, y: bottom)], closed: true, width: 1, join: .miter(limit: 4))
        record(colour: Colour(rgb: 0x374151, opacity: 0.8))

        var lineTop = boxTop + pad
        let textLeft = boxLeft + pad
        if let title = panel.title {
            let baseline = lineTop + Int((Double(panel.titleHeight) * 0.72).rounded())
            recordText(title, size: panel.titleSize, x: textLeft, baseline: baseline,
                       extent: font.measure(title, size: panel.titleSize), colour: Colour(rgb: 0x111827))
            lineTop += panel.titleHeight
        }
        if let filtersLine = panel.filtersLine {
            let extent = font.measure(filtersLine, size: entrySize)
            let middle = Double(lineTop) + Double(entryHeight) / 2
            let baseline = Int((middle - Double(extent.inkMinY + extent.inkMaxY) / 2).rounded())
            recordText(filtersLine, size: entrySize, x: textLeft, baseline: baseline, extent: extent,
                       colour: Colour(rgb: 0x374151))
            lineTop += entryHeight
        }
        for entry in panel.entries {
            let middle = Double(lineTop) + Double(entryHeight) / 2
            let swatchCentre = PixelPoint(x: Double(textLeft) + Double(swatchSpace) * 0.4, y: middle)
            let half = Double(entrySize) * 0.42
            path.removeAll()
            switch entry.swatch {
            case .marker(let colour):
                fill(.disc(centre: swatchCentre, radius: half + 1.5), colour: style.haloEdge)
                fill(.disc(centre: swatchCentre, radius: half), colour: colour)
            case .area(let fillColour, let outline):
                path.addRectangle(minX: swatchCentre.x - half, minY: middle - half, maxX: swatchCentre.x + half, maxY: middle + half)
                record(colour: fillColour)
                strokeSquare(centre: swatchCentre, half: half, colour: outline)
            case .outline(let outline):
                strokeSquare(centre: swatchCentre, half: half, colour: outline)
            case .stack(let colour):
                fill(.disc(centre: swatchCentre, radius: half + 1.5), colour: style.haloEdge)
                fill(.disc(centre: swatchCentre, radius: half), colour: colour)
                path.removeAll()
                let arm = half * 0.55, bar = max(1, half * 0.22)
                path.addRectangle(minX: swatchCentre.x - arm, minY: middle - bar / 2, maxX: swatchCentre.x + arm, maxY: middle + bar / 2)
                path.addRectangle(minX: swatchCentre.x - bar / 2, minY: middle - arm, maxX: swatchCentre.x + bar / 2, maxY: middle + arm)
                record(colour: style.label)
            case .ring(let colour):
                fill(.disc(centre: swatchCentre, radius: half + 1.5), colour: style.haloEdge)
                fill(.disc(centre: swatchCentre, radius: half), colour: colour)
                fill(.disc(centre: swatchCentre, radius: half * 0.55), colour: style.halo)
            }
            let extent = font.measure(entry.text, size: entrySize)
            let baseline = Int((middle - Double(extent.inkMinY + extent.inkMaxY) / 2).rounded())
            recordText(entry.text, size: entrySize, x: textLeft + swatchSpace, baseline: baseline, extent: extent,
                       colour: Colour(rgb: 0x111827))
            lineTop += entryHeight
        }
    }

    private mutating func strokeSquare(centre: PixelPoint, half: Double, colour: Colour) {
        path.removeAll()
        path.addStroke(
            [PixelPoint(x: centre.x - half, y: centre.y - half), PixelPoint(x: centre.x + half, y: centre.y - half),
             PixelPoint(x: centre.x + half, y: centre.y + half), PixelPoint(x: centre.x - half, y: centre.y + half)],
            closed: true, width: max(1.5, outlineWidth), join: .miter(limit: 4))
        record(colour: colour)
    }
}
