import PlanMarkFormats
import PlanMarkGeometry
import Testing
@testable import PlanMarkRender

/// Stored markers' statuses, the overdue ring, the legend's counts and the filters line.
@Suite("Review statuses")
struct ReviewStatusTests {
    /// A mid grey that no marker, ring, halo or panel colour equals.
    static let background = Colour(rgb: 0x808080)

    /// The standard colours with radius 12 and an invisible label, so a marker's centre pixel is its body colour.
    static let style: ReviewStyle = {
        var style = ReviewStyle.standard
        style.markerRadius = 12
        style.outlineWidth = 1.5
        style.label = Colour(rgb: 0xFFFFFF, opacity: 0)
        return style
    }()

    static func render(_ markers: [ReviewMarker], width: Int = 80, height: Int = 80,
                       options: ReviewOptions = ReviewOptions()) throws -> RGBAImage {
        try ReviewRenderer(style: style).render(
            drawing: RasterTesting.image(width: width, height: height, colour: background), regions: [],
            markers: markers, options: options)
    }

    static func rgb(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] { Array(RasterTesting.pixel(image, x, y).prefix(3)) }

    /// The palette as documented on `MarkerStatus.colour`, written out by hand from its hex values.
    static let documented: [(MarkerStatus, [UInt8])] = [
        (.open, [0x00, 0x72, 0xB2]), (.inProgress, [0xAA, 0x44, 0x99]), (.ready, [0x00, 0x9E, 0x73]),
        (.closed, [0x4B, 0x55, 0x63]), (.void, [0xA8, 0xAE, 0xB8]),
    ]

    @Test("each status is drawn in its own colour at the marker's centre", arguments: documented.map(\.0))
    func statusColourAtCentre(_ status: MarkerStatus) async throws {
        let expected = Self.documented.first { $0.0 == status }!.1
        let image = try Self.render([ReviewMarker(label: "1", position: PixelPoint(x: 40, y: 40), state: .status(status))])
        // The body is a disc of radius 12 around (40, 40): pixels (38..41, 38..41) are wholly inside it.
        for (x, y) in [(39, 39), (40, 40), (38, 41), (41, 38)] { #expect(Self.rgb(image, x, y) == expected) }
    }

    @Test("the five status colours differ from each other and from the valid and invalid colours")
    func statusColoursDistinct() async {
        let style = ReviewStyle.standard
        let statuses = MarkerStatus.allCases.map { style.colour(for: $0) }
        #expect(Set(statuses).count == 5)
        let fileColours = [style.valid, style.invalidFallback] + Array(style.invalid.values)
        #expect(Set(statuses).isDisjoint(with: fileColours))
        #expect(!statuses.contains(style.overdue) && !fileColours.contains(style.overdue))
        // Colour-blind aware also means apart in lightness: closed and void differ by more than a third
        // of the range in every channel (0x4B..0xA8 = 75..168).
        let void = style.colour(for: .void), closed = style.colour(for: .closed)
        #expect(Int(void.red) - Int(closed.red) > 85 && Int(void.green) - Int(closed.green) > 85)
    }

    @Test("status raw values and legend words")
    func statusNames() async {
        #expect(MarkerStatus.allCases.map(\.rawValue) == ["open", "in-progress", "ready", "closed", "void"])
        #expect(MarkerStatus(rawValue: "in-progress") == .inProgress)
        #expect(MarkerStatus.allCases.map(\.title) == ["Open", "In progress", "Ready for inspection", "Closed", "Void"])
    }

    /// Ring geometry at radius 12: halo max(1.5, 12 × 0.15) = 1.8, ring max(2, 12 × 0.25) = 3, so around
    /// a marker at (40, 40) the ring alone covers distances 13.8 ... 16.8 and its dark edge 16.8 ... 17.8.
    /// Pixel (55, 40) spans x 55...56, distances 15 ... 16.03: inside the ring only; likewise (24, 40),
    /// (40, 55) and (40, 24). Without a ring the halo's edge ends at 12 + 1.8 + 1 = 14.8, short of them.
    static let ringPixels = [(55, 40), (24, 40), (40, 55), (40, 24)]
    static let overdueRGB: [UInt8] = [0xE1, 0x1D, 0x48]

    @Test("an overdue marker has the overdue ring whatever its colour", arguments: [
        ReviewMarkerState.status(.open), .status(.inProgress), .status(.ready), .status(.closed), .status(.void),
        .valid, .invalid(.outsideAllowedArea),
    ])
    func overdueRing(_ state: ReviewMarkerState) async throws {
        let overdue = try Self.render([ReviewMarker(label: "1", position: PixelPoint(x: 40, y: 40), state: state, overdue: true)])
        for (x, y) in Self.ringPixels { #expect(Self.rgb(overdue, x, y) == Self.overdueRGB, "(\(x), \(y))") }
        // The body keeps its state's colour.
        let body = ReviewStyle.standard.colour(for: state)
        #expect(Self.rgb(overdue, 40, 40) == [body.red, body.green, body.blue])
        // The ring is a ring: every pixel wholly between radius 14 and 16.5 is ring-coloured, and the white
        // halo still separates it from the body (pixel (53, 40) spans distances 13 ... 14.04: mostly halo).
        var ring = 0, other: [String] = []
        for y in 0..<80 {
            for x in 0..<80 {
                let near = Self.distanceRange(x, y)
                if near.min >= 14 && near.max <= 16.5 {
                    ring += 1
                    if Self.rgb(overdue, x, y) != Self.overdueRGB { other.append("(\(x), \(y))") }
                }
            }
        }
        #expect(ring > 100)
        #expect(other.isEmpty, "not the ring colour: \(other.prefix(5).joined(separator: " "))...")
        #expect(Self.rgb(overdue, 53, 40) != Self.overdueRGB)
    }

    @Test("a marker that is not overdue has no ring: no pixel near it is the ring colour")
    func noRingWhenNotOverdue() async throws {
        for state in [ReviewMarkerState.status(.open), .status(.closed), .valid, .invalid(.outsideRooms)] {
            let plain = try Self.render([ReviewMarker(label: "1", position: PixelPoint(x: 40, y: 40), state: state)])
            for (x, y) in Self.ringPixels { #expect(Self.rgb(plain, x, y) == [0x80, 0x80, 0x80], "(\(x), \(y))") }
            #expect(!Self.hasNearRingColour(plain, around: (40, 40), radius: 25))
        }
        // Side by side: only the overdue one is ringed.
        let both = try Self.render(
            [ReviewMarker(label: "1", position: PixelPoint(x: 40, y: 40), state: .status(.open), overdue: true),
             ReviewMarker(label: "2", position: PixelPoint(x: 120, y: 40), state: .status(.open))], width: 160)
        #expect(Self.hasNearRingColour(both, around: (40, 40), radius: 25))
        #expect(!Self.hasNearRingColour(both, around: (120, 40), radius: 25))
    }

    /// The least and greatest distance from (40, 40) of the pixel square (x...x+1, y...y+1).
    static func distanceRange(_ x: Int, _ y: Int) -> (min: Double, max: Double) {
        let dx0 = Double(x) - 40, dx1 = Double(x + 1) - 40, dy0 = Double(y) - 40, dy1 = Double(y + 1) - 40
        let nx = dx0 > 0 ? dx0 : (dx1 < 0 ? -dx1 : 0), ny = dy0 > 0 ? dy0 : (dy1 < 0 ? -dy1 : 0)
        let fx = max(abs(dx0), abs(dx1)), fy = max(abs(dy0), abs(dy1))
        return ((nx * nx + ny * ny).squareRoot(), (fx * fx + fy * fy).squareRoot())
    }

    /// True when some pixel within `radius` of `around` is within 40 per channel of the ring colour.
    static func hasNearRingColour(_ image: RGBAImage, around: (Int, Int), radius: Int) -> Bool {
        for y in max(0, around.1 - radius)..<min(image.height, around.1 + radius) {
            for x in max(0, around.0 - radius)..<min(image.width, around.0 + radius) {
                let p = rgb(image, x, y)
                if zip(p, overdueRGB).allSatisfy({ abs(Int($0) - Int($1)) <= 40 }) { return true }
            }
        }
        return false
    }

    @Test("draw order: closed and void below, open in the middle, invalid on top, whatever the list's order")
    func drawOrder() async throws {
        // Markers on one point are fanned out; the dots left at the point are drawn in the same order, so the
        // point shows the most important marker's colour.
        let p = PixelPoint(x: 100, y: 100)
        let open = ReviewMarker(label: "1", position: p, state: .status(.open))
        let closed = ReviewMarker(label: "2", position: p, state: .status(.closed))
        let void = ReviewMarker(label: "3", position: p, state: .status(.void))
        let invalid = ReviewMarker(label: "4", position: p, state: .invalid(.outsideRooms))
        #expect(Self.rgb(try Self.render([open, closed, void], width: 200, height: 200), 100, 100) == [0x00, 0x72, 0xB2])
        #expect(Self.rgb(try Self.render([invalid, open, closed], width: 200, height: 200), 100, 100) == [0xEA, 0x58, 0x0C])
    }

    // MARK: - Legend

    static func texts(_ markers: [ReviewMarker], regions: [Region] = []) -> [String] {
        ReviewLegendEntry.entries(markers: markers, regions: regions, style: .standard).map(\.text)
    }

    static func marker(_ state: ReviewMarkerState, overdue: Bool = false) -> ReviewMarker {
        ReviewMarker(label: "1", position: PixelPoint(x: 10, y: 10), state: state, overdue: overdue)
    }

    @Test("legend lines: counts by status in workflow order, overdue, then invalid; absent statuses left out")
    func legendTexts() async throws {
        let stored = [
            Self.marker(.status(.closed)), Self.marker(.status(.open), overdue: true), Self.marker(.status(.void)),
            Self.marker(.status(.open)), Self.marker(.status(.closed)), Self.marker(.status(.inProgress), overdue: true),
            Self.marker(.invalid(.outsideRooms), overdue: true), Self.marker(.status(.closed)),
        ]
        // By hand: open 2, in progress 1, ready 0 (left out), closed 3, void 1; overdue 3; invalid 1.
        #expect(Self.texts(stored) == [
            "Open (2)", "In progress (1)", "Closed (3)", "Void (1)", "Overdue (3)", "Invalid: outside-rooms (1)",
        ])
        #expect(Self.texts([Self.marker(.status(.ready))]) == ["Ready for inspection (1)"])
        // Markers from a file: as before, less the resolved line.
        #expect(Self.texts([Self.marker(.valid), Self.marker(.valid), Self.marker(.invalid(.outsideDrawing))])
                == ["Valid (2)", "Invalid: outside-drawing (1)"])
        #expect(Self.texts([]) == ["Valid (0)", "Invalid (0)"])
        let room = try Region(id: "R", coordinates: [[[PixelPoint(x: 0, y: 0), PixelPoint(x: 5, y: 0), PixelPoint(x: 5, y: 5)]]])
        #expect(Self.texts([Self.marker(.status(.open))], regions: [room]) == ["Room (1)", "Open (1)"])
    }

    /// An image with its panel: the panel (title, filters line, legend) lies in a white margin beside or below the
    /// `width × height` view, its box at `panel`'s top-left corner.
    struct Paneled {
        var image: RGBAImage
        var viewWidth: Int, viewHeight: Int
        /// The box's top-left corner (where the renderer put it), or (12, 12) when there is no panel.
        var left: Int, top: Int
    }

    static func renderPanel(_ markers: [ReviewMarker], width: Int, height: Int, options: ReviewOptions) throws -> Paneled {
        let (image, layout) = try ReviewRenderer(style: style).renderWithLayout(
            drawing: RasterTesting.image(width: width, height: height, colour: background), regions: [],
            markers: markers, options: options)
        return Paneled(image: image, viewWidth: width, viewHeight: height,
                       left: Int(layout.panel?.minX ?? 12), top: Int(layout.panel?.minY ?? 12))
    }

    /// Panel geometry at radius 12 (see `measurePanel`): the box starts 12 px (the margin) from the view; entry text
    /// size max(11, round(12 × 0.95)) = 11, line height round(11 × 1.5) = 17, padding round(11 × 0.8) = 9,
    /// title size max(14, round(12 × 1.3)) = 16, title line round(16 × 1.5) = 24. The 1-pixel border
    /// touches rows top - 1 ... bottom, so a panel of n lines (no title) touches 2 + 9 + 17n + 9 + 1 - 1 rows
    /// from 11 when its top is 12: rows 11 ... 30 + 17n, that is 17n + 20 rows. Rows here are counted from 12 px
    /// above the box's top, as if it were drawn at (12, 12); the margin round the view is white, the box's inside
    /// too (0.92 white on white), so what is not white there is the box's border, swatches and text.
    static func panelRows(_ paneled: Paneled) -> [Int] {
        let image = paneled.image
        return (0..<image.height).filter { y in
            (0..<image.width).contains { x in
                (x >= paneled.viewWidth || y >= paneled.viewHeight) && rgb(image, x, y) != [255, 255, 255]
            }
        }.map { $0 - (paneled.top - 12) }
    }

    /// True when line `index` (0 first) of a panel without title has dark text ink right of the swatches.
    static func lineHasInk(_ paneled: Paneled, line index: Int, titleHeight: Int = 0) -> Bool {
        let image = paneled.image, dx = paneled.left - 12
        let top = paneled.top + 9 + titleHeight + 17 * index
        for y in top..<(top + 17) {
            for x in (38 + dx)..<min(image.width, 160 + dx) where rgb(image, x, y).allSatisfy({ $0 < 90 }) { return true }
        }
        return false
    }

    @Test("the legend has one line per count, each with text")
    func legendLines() async throws {
        let far = { (state: ReviewMarkerState, overdue: Bool) in
            ReviewMarker(label: "1", position: PixelPoint(x: 380, y: 260), state: state, overdue: overdue)
        }
        // Open 1, closed 2, overdue 1: three lines.
        let image = try Self.renderPanel(
            [far(.status(.open), true), far(.status(.closed), false), far(.status(.closed), false)],
            width: 400, height: 280, options: ReviewOptions(legend: true))
        #expect(Self.panelRows(image) == Array(11...(30 + 17 * 3)))
        for line in 0..<3 { #expect(Self.lineHasInk(image, line: line), "line \(line)") }
        #expect(!Self.lineHasInk(image, line: 3))
    }

    @Test("filters add the line \"Filters: ...\": with a legend, with a title, and alone")
    func filtersLine() async throws {
        let markers = [ReviewMarker(label: "1", position: PixelPoint(x: 380, y: 260), state: .status(.open))]
        let filters = "status=open,ready; room=2.05"
        let legend = try Self.renderPanel(markers, width: 400, height: 280, options: ReviewOptions(legend: true))
        let legendAndFilters = try Self.renderPanel(markers, width: 400, height: 280, options: ReviewOptions(legend: true, filters: filters))
        // Legend: one line ("Open (1)"); with filters: two.
        #expect(Self.panelRows(legend) == Array(11...(30 + 17)))
        #expect(Self.panelRows(legendAndFilters) == Array(11...(30 + 17 * 2)))
        #expect(Self.lineHasInk(legendAndFilters, line: 0) && Self.lineHasInk(legendAndFilters, line: 1))
        // The filters line is text from the left edge of the text column (x = 21): no swatch there, ink
        // where the legend line has its swatch's white space. "Filters:" is wider than the swatch column (17 px).
        let filtersOnly = try Self.renderPanel(markers, width: 400, height: 280, options: ReviewOptions(filters: filters))
        #expect(Self.panelRows(filtersOnly) == Array(11...(30 + 17)))
        #expect(Self.lineHasInk(filtersOnly, line: 0))
        // The line is as wide as its text: wider than the legend-only panel ("Open (1)" is 8 characters,
        // the filters line 37).
        #expect(Self.panelWidth(filtersOnly) > 2 * Self.panelWidth(legend))
        // With a title the filters line comes after it.
        let titled = try Self.renderPanel(markers, width: 400, height: 280, options: ReviewOptions(title: "L2", filters: filters))
        #expect(Self.panelRows(titled) == Array(11...(30 + 24 + 17)))
        #expect(Self.lineHasInk(titled, line: 0, titleHeight: 24))
        // No filters (nil or empty): no panel at all, and no margin for one.
        for none in [nil, ""] as [String?] {
            let plain = try Self.renderPanel(markers, width: 400, height: 280, options: ReviewOptions(filters: none))
            #expect(plain.image.width == 400 && plain.image.height == 280)
            #expect(Self.panelRows(plain).isEmpty)
        }
    }

    /// Columns outside the view with ink: the box's width with its border.
    static func panelWidth(_ paneled: Paneled) -> Int {
        let image = paneled.image
        return (0..<image.width).count { x in
            (0..<image.height).contains { y in
                (x >= paneled.viewWidth || y >= paneled.viewHeight) && rgb(image, x, y) != [255, 255, 255]
            }
        }
    }
}
