import PlanMarkGeometry
import Testing
@testable import PlanMarkRender

/// The review drawing's behaviour: flattening, centring (the y-axis trap), views, scale and errors.
@Suite("Review renderer")
struct ReviewRendererTests {
    @Test("no regions and no markers: the input flattened onto white, nothing else")
    func flattenOnly() async throws {
        // (100, 50, 0) at alpha 128 over white: c·128/255 + 255·127/255 -> 177, 152, 127.
        let input = RGBAImage(width: 3, height: 1, pixels: [100, 50, 0, 128, 0, 0, 0, 0, 9, 8, 7, 255])
        let output = try ReviewRenderer().render(drawing: input, regions: [], markers: [])
        #expect(output.pixels == [177, 152, 127, 255, 255, 255, 255, 255, 9, 8, 7, 255])
    }

    /// A style whose markers are one opaque blue shape (label and halo invisible), so the blue
    /// coverage of every pixel is the marker body's coverage.
    static let flatStyle: ReviewStyle = {
        var style = ReviewStyle.standard
        style.valid = Colour(rgb: 0x0000FF)
        style.label = Colour(rgb: 0x0000FF)
        style.halo = Colour(rgb: 0xFFFFFF, opacity: 0)
        style.haloEdge = Colour(rgb: 0xFFFFFF, opacity: 0)
        style.markerRadius = 9
        return style
    }()

    static func centroid(_ image: RGBAImage) -> (x: Double, y: Double, mass: Double) {
        var sx = 0.0, sy = 0.0, mass = 0.0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let weight = Double(255 - Int(RasterTesting.pixel(image, x, y)[0])) / 255
                sx += weight * (Double(x) + 0.5)
                sy += weight * (Double(y) + 0.5)
                mass += weight
            }
        }
        return (sx / mass, sy / mass, mass)
    }

    @Test("a marker at pixel (x, y) is centred at (x, y), y counted down from the top", arguments: [
        (30.0, 20.0), (61.5, 17.25), (140.3, 99.7), (25.0, 130.0),
    ])
    func centred(_ position: (Double, Double)) async throws {
        let marker = ReviewMarker(label: "8", position: PixelPoint(x: position.0, y: position.1), state: .valid)
        let output = try ReviewRenderer(style: Self.flatStyle).render(
            drawing: RasterTesting.image(width: 180, height: 150), regions: [], markers: [marker])
        let c = Self.centroid(output)
        #expect(abs(c.x - position.0) < 0.02 && abs(c.y - position.1) < 0.02)
        #expect(abs(c.mass - Double.pi * 81) < 0.05 * 2 * Double.pi * 9)
    }

    @Test("the label is centred on the marker within a pixel")
    func labelCentred() async throws {
        var style = ReviewStyle.standard
        style.markerRadius = 20
        style.label = Colour(rgb: 0xFF0000)  // red text on a green body: the text is where red > 0
        style.valid = Colour(rgb: 0x00FF00)
        let position = PixelPoint(x: 47.5, y: 31.25)
        let output = try ReviewRenderer(style: style).render(
            drawing: RasterTesting.image(width: 100, height: 70, colour: .black), regions: [],
            markers: [ReviewMarker(label: "0", position: position, state: .valid)])
        var sx = 0.0, sy = 0.0, mass = 0.0
        for y in 0..<70 {
            for x in 0..<100 {
                let p = RasterTesting.pixel(output, x, y)
                guard p[2] == 0, p[0] > 0 else { continue }  // inside the body: no blue from the halo
                let w = Double(p[0])
                sx += w * (Double(x) + 0.5); sy += w * (Double(y) + 0.5); mass += w
            }
        }
        #expect(mass > 0)
        #expect(abs(sx / mass - position.x) < 1 && abs(sy / mass - position.y) < 1)
    }

    @Test("a room fill blends its colour over the drawing and leaves the hole alone")
    func roomFill() async throws {
        let room = try Region(id: "R", coordinates: [[
            [PixelPoint(x: 2, y: 2), PixelPoint(x: 38, y: 2), PixelPoint(x: 38, y: 38), PixelPoint(x: 2, y: 38)],
            [PixelPoint(x: 12, y: 12), PixelPoint(x: 28, y: 12), PixelPoint(x: 28, y: 28), PixelPoint(x: 12, y: 28)],
        ]])
        var style = ReviewStyle.standard
        style.roomFill = Colour(red: 200, green: 100, blue: 0, alpha: 51)
        style.outlineWidth = 1
        let background = Colour(red: 10, green: 20, blue: 250)
        let output = try ReviewRenderer(style: style).render(
            drawing: RasterTesting.image(width: 40, height: 40, colour: background), regions: [room], markers: [])
        // Straight-alpha source-over at 51/255: (200·51 + 10·204) / 255 = 48, (100·51 + 20·204)/255 = 36,
        // (0·51 + 250·204)/255 = 200.
        #expect(RasterTesting.pixel(output, 6, 20) == [48, 36, 200, 255])
        #expect(RasterTesting.pixel(output, 20, 20) == [10, 20, 250, 255])
        #expect(RasterTesting.pixel(output, 0, 0) == [10, 20, 250, 255])
    }

    @Test("the crop around a marker is 2 × margin square with the marker in its middle")
    func around() async throws {
        let markers = [
            ReviewMarker(label: "1", position: PixelPoint(x: 10, y: 10), state: .valid),
            ReviewMarker(label: "2", position: PixelPoint(x: 100, y: 60), state: .valid),
        ]
        let output = try ReviewRenderer(style: Self.flatStyle).render(
            drawing: RasterTesting.image(width: 200, height: 120), regions: [], markers: markers,
            options: ReviewOptions(view: .around(label: "2", margin: 30)))
        #expect(output.width == 60 && output.height == 60)
        let c = Self.centroid(output)
        #expect(abs(c.x - 30) < 0.02 && abs(c.y - 30) < 0.02)
        // Cut at the sheet's edge: marker 1 at (10, 10) with margin 30 -> [0, 40) both ways.
        let edge = try ReviewRenderer(style: Self.flatStyle).render(
            drawing: RasterTesting.image(width: 200, height: 120), regions: [], markers: markers,
            options: ReviewOptions(view: .around(label: "1", margin: 30)))
        #expect(edge.width == 40 && edge.height == 40)
    }

    @Test("errors: unknown marker, marker off the sheet, bad scale, bad margin")
    func errors() async {
        let renderer = ReviewRenderer()
        let image = RasterTesting.image(width: 10, height: 10)
        let off = ReviewMarker(label: "9", position: PixelPoint(x: 500, y: 5), state: .invalid(.outsideDrawing))
        #expect(throws: ReviewError.markerNotFound(label: "3")) {
            _ = try renderer.render(drawing: image, regions: [], markers: [off], options: ReviewOptions(view: .around(label: "3", margin: 5)))
        }
        #expect(throws: ReviewError.markerOffDrawing(label: "9")) {
            _ = try renderer.render(drawing: image, regions: [], markers: [off], options: ReviewOptions(view: .around(label: "9", margin: 5)))
        }
        #expect(throws: ReviewError.invalidScale(0)) {
            _ = try renderer.render(drawing: image, regions: [], markers: [], options: ReviewOptions(scale: 0))
        }
        #expect(throws: ReviewError.invalidScale(2)) {
            _ = try renderer.render(drawing: image, regions: [], markers: [], options: ReviewOptions(scale: 2))
        }
        #expect(throws: ReviewError.invalidMargin(-1)) {
            _ = try renderer.render(drawing: image, regions: [], markers: [off], options: ReviewOptions(view: .around(label: "9", margin: -1)))
        }
    }

    @Test("markers off the sheet or with no position are skipped, not fatal")
    func offSheetMarkers() async throws {
        let markers = [
            ReviewMarker(label: "1", position: PixelPoint(x: -400, y: 5), state: .invalid(.outsideDrawing)),
            ReviewMarker(label: "2", position: PixelPoint(x: .nan, y: 5), state: .invalid(.invalidCoordinate)),
        ]
        let output = try ReviewRenderer().render(drawing: RasterTesting.image(width: 20, height: 20), regions: [], markers: markers)
        #expect(output.pixels.allSatisfy { $0 == 255 })
    }

    @Test("scale: the drawing is area-averaged, markers drawn at scaled positions")
    func scaled() async throws {
        // A 4x2 image of columns 0, 90, 180, 30 scaled by 0.5 -> 2x1: (0 + 90)/2 = 45, (180 + 30)/2 = 105.
        var pixels: [UInt8] = []
        for _ in 0..<2 { for v: UInt8 in [0, 90, 180, 30] { pixels += [v, v, v, 255] } }
        let small = try ReviewRenderer().render(
            drawing: RGBAImage(width: 4, height: 2, pixels: pixels), regions: [], markers: [], options: ReviewOptions(scale: 0.5))
        #expect(small.width == 2 && small.height == 1)
        #expect(small.pixels == [45, 45, 45, 255, 105, 105, 105, 255])
        // 3 columns to 2 (scale 2/3): each output pixel covers 1.5 inputs:
        // (0 + 90·0.5)/1.5 = 30, (90·0.5 + 180)/1.5 = 150.
        let three = RGBAImage(width: 3, height: 1, pixels: [0, 0, 0, 255, 90, 90, 90, 255, 180, 180, 180, 255])
        #expect(three.downscaled(width: 2, height: 1).pixels == [30, 30, 30, 255, 150, 150, 150, 255])
        let marker = ReviewMarker(label: "5", position: PixelPoint(x: 120, y: 60), state: .valid)
        let preview = try ReviewRenderer(style: Self.flatStyle).render(
            drawing: RasterTesting.image(width: 300, height: 200), regions: [], markers: [marker], options: ReviewOptions(scale: 0.5))
        #expect(preview.width == 150 && preview.height == 100)
        let c = Self.centroid(preview)
        #expect(abs(c.x - 60) < 0.02 && abs(c.y - 30) < 0.02)
    }

    @Test("drawing in bands leaves no seam: shapes crossing band boundaries are drawn exactly once")
    func bands() async throws {
        // 2048 wide: bands of 524288 / 8192 = 64 rows, so y = 64 and 128 are band boundaries.
        let room = try Region(id: "R", coordinates: [[[
            PixelPoint(x: 100, y: 10), PixelPoint(x: 300, y: 10), PixelPoint(x: 300, y: 190), PixelPoint(x: 100, y: 190),
        ]]])
        var style = Self.flatStyle
        style.roomFill = Colour(red: 0, green: 0, blue: 0, alpha: 100)
        style.outlineWidth = 1
        let marker = ReviewMarker(label: "1", position: PixelPoint(x: 1000.5, y: 64.3), state: .valid)
        let output = try ReviewRenderer(style: style).render(
            drawing: RasterTesting.image(width: 2048, height: 200), regions: [room], markers: [marker])
        // The fill is one uniform blend (255·155/255 = 155) on every row, boundaries included.
        for y in [20, 63, 64, 65, 127, 128, 129, 180] { #expect(RasterTesting.pixel(output, 200, y) == [155, 155, 155, 255]) }
        // The marker straddling y = 64 keeps its centre and its area.
        var crop = RasterTesting.image(width: 60, height: 60)
        for y in 0..<60 {
            for x in 0..<60 {
                let from = ((y + 34) * 2048 + x + 970) * 4, to = (y * 60 + x) * 4
                for c in 0..<4 { crop.pixels[to + c] = output.pixels[from + c] }
            }
        }
        let c = Self.centroid(crop)
        #expect(abs(c.x + 970 - 1000.5) < 0.02 && abs(c.y + 34 - 64.3) < 0.02)
        #expect(abs(c.mass - Double.pi * 81) < 0.05 * 2 * Double.pi * 9)
    }
}
