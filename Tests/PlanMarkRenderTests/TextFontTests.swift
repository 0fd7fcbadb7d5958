import Testing
@testable import PlanMarkRender

/// FreeType text: the font is found, measured as DejaVu Sans Bold's metrics say, and drawn where measured.
@Suite("Text through FreeType")
struct TextFontTests {
    @Test("a missing font file is a clear error naming the path")
    func missingFont() async {
        #expect(throws: ReviewError.fontNotFound(searched: ["/nonexistent/font.ttf"])) {
            _ = try TextFont(path: "/nonexistent/font.ttf")
        }
        #expect(ReviewError.fontNotFound(searched: ["/a.ttf"]).description.contains("fonts-dejavu-core"))
    }

    @Test("a file that is not a font is refused by FreeType")
    func notAFont() async throws {
        #expect(throws: ReviewError.self) { _ = try TextFont(path: "/etc/hostname") }
    }

    // DejaVu Sans Bold has tabular digits of 1425/2048 em (Pillow's getlength gives 69.58 px at
    // 100 px) and its "8" spans 76 px at 100 px (Pillow's getbbox: 18...94); hinting rounds to pixels.
    @Test("digits are tabular, 1425/2048 em wide, and an 8 is about 0.76 em tall")
    func metrics() async throws {
        let font = try TextFont()
        let advances = "0123456789".map { font.measure(String($0), size: 100).advance }
        #expect(Set(advances).count == 1)
        #expect(abs(Double(advances[0]) - 69.58) <= 1)
        #expect(font.measure("2024", size: 100).advance == 4 * advances[0])
        let eight = font.measure("8", size: 100)
        #expect(abs(eight.inkMaxY - eight.inkMinY - 76) <= 2)
        #expect(eight.inkMaxY <= 2 && eight.inkMinY < -70)  // sits on the baseline, grows upwards
    }

    @Test("ink lands inside the measured box and nowhere else")
    func drawnWhereMeasured() async throws {
        let font = try TextFont()
        var image = RasterTesting.image(width: 120, height: 60)
        let extent = font.measure("42", size: 30)
        font.draw("42", size: 30, x: 40, baseline: 40, colour: .black, into: &image)
        var inked = (minX: Int.max, minY: Int.max, maxX: Int.min, maxY: Int.min)
        for y in 0..<60 {
            for x in 0..<120 where RasterTesting.pixel(image, x, y) != [255, 255, 255, 255] {
                inked = (min(inked.minX, x), min(inked.minY, y), max(inked.maxX, x + 1), max(inked.maxY, y + 1))
            }
        }
        #expect(inked.minX == 40 + extent.inkMinX && inked.maxX == 40 + extent.inkMaxX)
        #expect(inked.minY == 40 + extent.inkMinY && inked.maxY == 40 + extent.inkMaxY)
    }

    /// A pixel is ink when every colour channel is at most this dark (black text on white).
    static func isInk(_ pixel: [UInt8]) -> Bool { pixel[0] <= 96 && pixel[1] <= 96 && pixel[2] <= 96 }

    @Test("unclipped text puts dark ink across its measured box, and only there")
    func inkFillsTheMeasuredBox() async throws {
        let font = try TextFont()
        let extent = font.measure("2024", size: 24)
        // DejaVu Sans Bold's digits: 1425/2048 em advance, about 0.73 em tall (the "0" and "2").
        #expect(extent.inkMaxY - extent.inkMinY >= 15 && extent.inkMaxY - extent.inkMinY <= 20, "\(extent)")
        #expect(extent.inkMaxX - extent.inkMinX >= 55 && extent.inkMaxX - extent.inkMinX <= 68, "\(extent)")
        var image = RasterTesting.image(width: 100, height: 50)
        font.draw("2024", size: 24, x: 10, baseline: 35, colour: .black, into: &image)
        // Each quarter of the box (one digit each) holds dark pixels; nothing outside it changes.
        let box = (x0: 10 + extent.inkMinX, y0: 35 + extent.inkMinY, x1: 10 + extent.inkMaxX, y1: 35 + extent.inkMaxY)
        var inkPerQuarter = [0, 0, 0, 0]
        for y in 0..<50 {
            for x in 0..<100 {
                let p = RasterTesting.pixel(image, x, y)
                let inside = x >= box.x0 && x < box.x1 && y >= box.y0 && y < box.y1
                if !inside {
                    #expect(p == [255, 255, 255, 255], "(\(x), \(y)) outside the ink box \(box) is \(p)")
                } else if Self.isInk(p) {
                    inkPerQuarter[min(3, (x - box.x0) * 4 / (box.x1 - box.x0))] += 1
                }
            }
        }
        // A bold digit 24 px high has strokes 3 or more pixels wide: dozens of dark pixels each.
        #expect(inkPerQuarter.allSatisfy { $0 >= 25 }, "dark pixels per digit \(inkPerQuarter)")
    }

    @Test("text partly or wholly off the image is clipped, not a crash", arguments: [
        (-30, 20), (90, 20), (300, 20), (-300, 20), (10, -5), (10, 400), (10, 62), (-1000, -1000),
    ])
    func offImage(_ origin: (Int, Int)) async throws {
        let font = try TextFont()
        var image = RasterTesting.image(width: 100, height: 50)
        font.draw("2024", size: 24, x: origin.0, baseline: origin.1, colour: .black, into: &image)
        let extent = font.measure("2024", size: 24)
        // The same text drawn whole on its own canvas, 4 pixels of margin round its ink box.
        let margin = 4
        let whole = (x: margin - extent.inkMinX, baseline: margin - extent.inkMinY)
        let wholeWidth = extent.inkMaxX - extent.inkMinX + 2 * margin, wholeHeight = extent.inkMaxY - extent.inkMinY + 2 * margin
        var reference = RasterTesting.image(width: wholeWidth, height: wholeHeight)
        font.draw("2024", size: 24, x: whole.x, baseline: whole.baseline, colour: .black, into: &reference)
        // The clipped drawing is exactly the part of the whole drawing that falls on the image.
        var ink = 0, expectedInk = 0
        for y in 0..<50 {
            for x in 0..<100 {
                let p = RasterTesting.pixel(image, x, y)
                let rx = x - origin.0 + whole.x, ry = y - origin.1 + whole.baseline
                let expected = rx >= 0 && rx < wholeWidth && ry >= 0 && ry < wholeHeight
                    ? RasterTesting.pixel(reference, rx, ry) : [255, 255, 255, 255]
                #expect(p == expected, "(\(x), \(y)): \(p), the whole text has \(expected) there")
                if p != [255, 255, 255, 255] {
                    #expect(x >= origin.0 + extent.inkMinX && x < origin.0 + extent.inkMaxX)
                    #expect(y >= origin.1 + extent.inkMinY && y < origin.1 + extent.inkMaxY)
                }
                if Self.isInk(p) { ink += 1 }
                if Self.isInk(expected) { expectedInk += 1 }
            }
        }
        // Where part of the ink box is on the image, dark pixels are (checked by hand for each case).
        let visible = [[-30, 20], [90, 20], [10, 62]].contains([origin.0, origin.1])
        #expect((ink > 0) == visible, "\(ink) dark pixels")
        #expect(ink == expectedInk)
    }
}
