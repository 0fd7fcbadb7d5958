import Foundation
import PlanMarkGeometry
import Testing
@testable import PlanMarkRender

/// The review image's panel (legend, title, filters line) in a margin beside or below the drawing, never over it;
/// rooms named by id and name in the legend; the ring round the marker an `around` view is centred on.
@Suite("Review panel and around ring")
struct ReviewPanelTests {
    /// The standard colours with radius 12 and an invisible label, so a marker's centre pixel is its body colour.
    static let style = ReviewStatusTests.style

    static func rgb(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] { Array(RasterTesting.pixel(image, x, y).prefix(3)) }

    /// The smallest box `[x0, y0, x1, y1]` (min inclusive, max exclusive) holding every pixel darker than 128 in its
    /// first channel.
    static func darkBox(_ image: RGBAImage) -> [Int]? {
        var x0 = Int.max, y0 = Int.max, x1 = Int.min, y1 = Int.min
        for y in 0..<image.height {
            for x in 0..<image.width where image.pixels[(y * image.width + x) * 4] < 128 {
                x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x + 1); y1 = max(y1, y + 1)
            }
        }
        return x0 == .max ? nil : [x0, y0, x1, y1]
    }

    /// The pixels of `image` in the top-left `width × height` rectangle, row by row.
    static func topLeft(_ image: RGBAImage, width: Int, height: Int) -> [UInt8] {
        (0..<height).flatMap { y in image.pixels[(y * image.width * 4)..<(y * image.width * 4 + width * 4)] }
    }

    /// Pixels outside the top-left `width × height` rectangle that are not white.
    static func inkOutside(_ image: RGBAImage, width: Int, height: Int) -> [(x: Int, y: Int)] {
        var ink: [(x: Int, y: Int)] = []
        for y in 0..<image.height {
            for x in 0..<image.width where (x >= width || y >= height) && rgb(image, x, y) != [255, 255, 255] {
                ink.append((x, y))
            }
        }
        return ink
    }

    @Test("the sample drawing: the legend lies beside the walls, and the drawing's pixels are those drawn without it")
    func sampleLegendBesideTheWalls() async throws {
        let plan = PNGFixtures.repositoryRoot.appendingPathComponent("Drawings/sample/plan.png").path
        let source = try PNGDecoder().decode(path: plan)
        // The walls' box from the source image, by scanning it here; Pillow agrees:
        // Image.open('plan.png').point(lambda v: 255 if v < 128 else 0).getbbox() == (40, 40, 2360, 1560).
        let walls = try #require(Self.darkBox(source))
        #expect(walls == [40, 40, 2360, 1560])
        // Markers where the old panel was (the top-left corner) and on the right edge, where a pin is cut in two.
        let markers = [
            ReviewMarker(label: "1", position: PixelPoint(x: 60, y: 60), state: .status(.open)),
            ReviewMarker(label: "2", position: PixelPoint(x: 450, y: 400), state: .status(.open), overdue: true),
            ReviewMarker(label: "3", position: PixelPoint(x: 2398, y: 30), state: .invalid(.outsideRooms)),
        ]
        let room = try Region(id: "2.01", name: "Office", coordinates: [[[
            PixelPoint(x: 200, y: 150), PixelPoint(x: 700, y: 150), PixelPoint(x: 700, y: 650), PixelPoint(x: 200, y: 650),
        ]]])
        let renderer = ReviewRenderer(style: Self.style)
        let bare = try renderer.render(drawing: source, regions: [room], markers: markers)
        let (withLegend, layout) = try renderer.renderWithLayout(
            drawing: source, regions: [room], markers: markers,
            options: ReviewOptions(legend: true, title: "Level 2", filters: "status=open",
                                   roomAreas: [ReviewRoomArea(id: "2.01", name: "Office", squareMetres: 25)]))
        #expect(bare.width == 2400 && bare.height == 1600)
        // A landscape sheet with a short panel: the margin is added on the right, the height kept.
        #expect(withLegend.width > 2400 && withLegend.height == 1600)
        #expect(layout.viewWidth == 2400 && layout.viewHeight == 1600)
        // The drawing's part of the image is the image drawn without a panel, pixel for pixel: no legend pixel lies
        // over the walls' box (nor anywhere else on the drawing), and the pin cut by the right edge stays cut.
        #expect(Self.topLeft(withLegend, width: 2400, height: 1600) == Self.topLeft(bare, width: 2400, height: 1600))
        // The legend is drawn, wholly right of the drawing, a margin (the pin radius, 12 px) away from it.
        let ink = Self.inkOutside(withLegend, width: 2400, height: 1600)
        #expect(ink.count > 1000)
        #expect(ink.allSatisfy { $0.x >= 2400 + 12 - 1 && $0.x > walls[2] })
        let panel = try #require(layout.panel)
        #expect(panel.minX == 2412 && panel.minY == 12 && Double(withLegend.width) == panel.maxX + 12)
    }

    @Test("a tall narrow view gets its panel below, a wide flat one to its right; the drawing untouched either way",
          arguments: [(100, 1000, false), (1000, 100, true)])
    func placement(_ size: (Int, Int, Bool)) async throws {
        let (width, height, right) = size
        // A dark frame 5 px in from the edges: the walls.
        var drawing = RasterTesting.image(width: width, height: height, colour: Colour(rgb: 0xF3F4F6))
        for y in 5..<(height - 5) {
            for x in 5..<(width - 5) where x < 8 || y < 8 || x >= width - 8 || y >= height - 8 {
                let o = (y * width + x) * 4
                drawing.pixels[o] = 20; drawing.pixels[o + 1] = 20; drawing.pixels[o + 2] = 20
            }
        }
        #expect(Self.darkBox(drawing) == [5, 5, width - 5, height - 5])
        let markers = [ReviewMarker(label: "1", position: PixelPoint(x: 12, y: 12), state: .status(.open))]
        let renderer = ReviewRenderer(style: Self.style)
        let bare = try renderer.render(drawing: drawing, regions: [], markers: markers)
        let framed = try renderer.render(drawing: drawing, regions: [], markers: markers, options: ReviewOptions(legend: true))
        // One legend line ("Open (1)"): a box 17 + 2 × 9 = 35 px high, about 100 wide, 12 px margins. Below a
        // 100 × 1000 view it adds about 59 rows of 124 px; to its right it would add about 124 columns of 1000 rows.
        // Right of a 1000 × 100 view it adds about 124 columns of 100 rows; below, 59 rows of 1000.
        if right {
            #expect(framed.width > width && framed.height == height)
        } else {
            #expect(framed.height == height + 12 + 35 + 12 && framed.width >= width)
        }
        #expect(Self.topLeft(framed, width: width, height: height) == Self.topLeft(bare, width: width, height: height))
        #expect(!Self.inkOutside(framed, width: width, height: height).isEmpty)
    }

    @Test("a pin at the view's edge is cut there: none of it reaches the panel's margin")
    func pinsStayOnTheView() async throws {
        let markers = [ReviewMarker(label: "1", position: PixelPoint(x: 599, y: 30), state: .status(.open), overdue: true)]
        let image = try ReviewRenderer(style: Self.style).render(
            drawing: RasterTesting.image(width: 600, height: 200, colour: Colour(rgb: 0x808080)), regions: [],
            markers: markers, options: ReviewOptions(legend: true))
        try #require(image.width > 600 && image.height == 200)
        // The pin is drawn up to x = 599: its body's left half is there.
        #expect(Self.rgb(image, 595, 30) == [0x00, 0x72, 0xB2])
        // It would reach x = 599 + 12 + 1.8 + 3 + 1 ≈ 617 uncut; the margin (x 600 ..< 611) stays white.
        var margin: Set<[UInt8]> = []
        for y in 0..<image.height { for x in 600..<611 { margin.insert(Self.rgb(image, x, y)) } }
        #expect(margin == [[255, 255, 255]])
    }

    @Test("rooms of one name are told apart by their ids in the legend")
    func roomsByIdAndName() async throws {
        let areas = [
            ReviewRoomArea(id: "2.01", name: "Office", squareMetres: 25), ReviewRoomArea(id: "2.02", name: "Office", squareMetres: 25),
            ReviewRoomArea(id: "2.04", name: "2.04 Kitchen", squareMetres: 12.5), ReviewRoomArea(id: "L", name: "L", squareMetres: 3),
            ReviewRoomArea(name: "Hall", squareMetres: 7),
        ]
        let texts = ReviewLegendEntry.entries(markers: [], regions: [], style: .standard, roomAreas: areas).map(\.text)
        #expect(Array(texts.prefix(5)) == [
            "2.01 Office  25.00 m²", "2.02 Office  25.00 m²", "2.04 Kitchen  12.50 m²", "L  3.00 m²", "Hall  7.00 m²",
        ])
        // The two "Office" lines differ in the image too: same length, different ink.
        let (image, layout) = try ReviewRenderer(style: Self.style).renderWithLayout(
            drawing: RasterTesting.image(width: 300, height: 200), regions: [], markers: [],
            options: ReviewOptions(legend: true, roomAreas: Array(areas.prefix(2))))
        let panel = try #require(layout.panel)
        // Lines of 17 px after a 9 px pad; lines 0 and 1 are the two rooms (no regions: no "Room (n)" line).
        func line(_ k: Int) -> [[UInt8]] {
            let top = Int(panel.minY) + 9 + 17 * k
            return (top..<(top + 17)).flatMap { y in (Int(panel.minX)..<Int(panel.maxX)).map { Self.rgb(image, $0, y) } }
        }
        #expect(line(0) != line(1))
    }

    /// Around marker "5" at (100, 100) in a 200 × 200 crop: pin radius 12, halo 1.8, around ring 5.4 wide (13.8 to
    /// 19.2 px from the centre), edge to 20.2. Pixels whose centres lie 15.8 to 17.2 px out are wholly in the ring.
    static func ringSamples(around centre: PixelPoint) -> [(Int, Int)] {
        (0..<36).map { k in
            let angle = Double(k) * Double.pi / 18
            return (Int((centre.x + 16.5 * cos(angle)).rounded(.down)), Int((centre.y + 16.5 * sin(angle)).rounded(.down)))
        }
    }

    @Test("--around: marker N is ringed in the around colour; a neighbour is not")
    func aroundRing() async throws {
        let gold: [UInt8] = [0xFF, 0xB0, 0x00]
        #expect(Self.style.aroundRing == Colour(rgb: 0xFFB000))
        let markers = [
            ReviewMarker(label: "4", position: PixelPoint(x: 1060, y: 600), state: .status(.open)),
            ReviewMarker(label: "5", position: PixelPoint(x: 1000, y: 600), state: .status(.open)),
            ReviewMarker(label: "6", position: PixelPoint(x: 1000, y: 650), state: .status(.ready), overdue: true),
        ]
        let (image, layout) = try ReviewRenderer(style: Self.style).renderWithLayout(
            drawing: RasterTesting.image(width: 2000, height: 1200, colour: Colour(rgb: 0x808080)), regions: [],
            markers: markers, options: ReviewOptions(view: .around(label: "5", margin: 100)))
        #expect(image.width == 200 && image.height == 200)
        // Nobody was displaced (60 and 50 px apart, pins at most 20.2 px out).
        #expect(layout.pins.allSatisfy { !$0.isDisplaced })
        for (x, y) in Self.ringSamples(around: PixelPoint(x: 100, y: 100)) { #expect(Self.rgb(image, x, y) == gold, "(\(x), \(y))") }
        // The neighbours, at (160, 100) and (100, 150) in the crop: no gold anywhere near them.
        for neighbour in [PixelPoint(x: 160, y: 100), PixelPoint(x: 100, y: 150)] {
            for (x, y) in Self.ringSamples(around: neighbour) { #expect(Self.rgb(image, x, y) != gold, "(\(x), \(y))") }
        }
        // Only marker 5's ring is gold: its pixels lie between 13.8 and 19.2 px from (100, 100) (edges blended).
        for y in 0..<200 {
            for x in 0..<200 where Self.rgb(image, x, y) == gold {
                let d = ((Double(x) + 0.5 - 100) * (Double(x) + 0.5 - 100) + (Double(y) + 0.5 - 100) * (Double(y) + 0.5 - 100)).squareRoot()
                #expect(d > 13.8 - 0.71 && d < 19.2 + 0.71, "(\(x), \(y))")
            }
        }
        // Without --around nothing is gold.
        let whole = try ReviewRenderer(style: Self.style).render(
            drawing: RasterTesting.image(width: 2000, height: 1200, colour: Colour(rgb: 0x808080)), regions: [], markers: markers)
        for (x, y) in Self.ringSamples(around: PixelPoint(x: 1000, y: 600)) { #expect(Self.rgb(whole, x, y) != gold) }
    }

    @Test("--around in a crowd: marker N keeps its place and is drawn over the neighbours that make room for it")
    func aroundOnTop() async throws {
        // An invalid marker (normally placed first and drawn on top) 4 px from N, and a closed one on N's point.
        let markers = [
            ReviewMarker(label: "8", position: PixelPoint(x: 504, y: 300), state: .invalid(.outsideRooms)),
            ReviewMarker(label: "9", position: PixelPoint(x: 500, y: 300), state: .status(.open)),
            ReviewMarker(label: "7", position: PixelPoint(x: 500, y: 300), state: .status(.closed)),
        ]
        let (image, layout) = try ReviewRenderer(style: Self.style).renderWithLayout(
            drawing: RasterTesting.image(width: 1000, height: 600, colour: Colour(rgb: 0x808080)), regions: [],
            markers: markers, options: ReviewOptions(legend: true, view: .around(label: "9", margin: 100)))
        let n = try #require(layout.pins.first { $0.marker == 1 })
        #expect(!n.isDisplaced && n.centre == PixelPoint(x: 100, y: 100))
        #expect(layout.pins.last?.marker == 1)  // drawn last
        #expect(layout.pins.filter { $0.marker != 1 }.allSatisfy { $0.isDisplaced })
        // Its body (open blue) at its centre, its ring whole all round.
        #expect(Self.rgb(image, 100, 100) == [0x00, 0x72, 0xB2])
        for (x, y) in Self.ringSamples(around: PixelPoint(x: 100, y: 100)) { #expect(Self.rgb(image, x, y) == [0xFF, 0xB0, 0x00], "(\(x), \(y))") }
        // The legend says what the ring means.
        let texts = ReviewLegendEntry.entries(markers: markers, regions: [], style: .standard, around: "9").map(\.text)
        #expect(texts == ["Open (1)", "Closed (1)", "Around marker 9", "Invalid: outside-rooms (1)"])
    }
}
