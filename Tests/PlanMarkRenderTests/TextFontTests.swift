import Testing
@testable import PlanMarkRender

/// FreeType text: the font is found, measured as DejaVu Sans Bold's metrics say, and drawn where measured.
@Suite("Text through FreeType")
struct TextFontTests {
    @Test("a missing font file is a clear error naming the path")
    func missingFont() {
        #expect(throws: ReviewError.fontNotFound(searched: ["/nonexistent/font.ttf"])) {
            _ = try TextFont(path: "/nonexistent/font.ttf")
        }
        #expect(ReviewError.fontNotFound(searched: ["/a.ttf"]).description.contains("fonts-dejavu-core"))
    }

    @Test("a file that is not a font is refused by FreeType")
    func notAFont() throws {
        #expect(throws: ReviewError.self) { _ = try TextFont(path: "/etc/hostname") }
    }

    // DejaVu Sans Bold has tabular digits of 1425/2048 em (Pillow's getlength gives 69.58 px at
    // 100 px) and its "8" spans 76 px at 100 px (Pillow's getbbox: 18...94); hinting rounds to pixels.
    @Test("digits are tabular, 1425/2048 em wide, and an 8 is about 0.76 em tall")
    func metrics() throws {
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
    func drawnWhereMeasured() throws {
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

    @Test("text partly or wholly off the image is clipped, not a crash", arguments: [
        (-30, 20), (90, 20), (300, 20), (-300, 20), (10, -5), (10, 400), (10, 62), (-1000, -1000),
    ])
    func offImage(_ origin: (Int, Int)) throws {
        let font = try TextFont()
        var image = RasterTesting.image(width: 100, height: 50)
        font.draw("2024", size: 24, x: origin.0, baseline: origin.1, colour: .black, into: &image)
        let extent = font.measure("2024", size: 24)
        // Only pixels inside the text's ink box (as far as it is on the image) may change.
        for y in 0..<50 {
            for x in 0..<100 where RasterTesting.pixel(image, x, y) != [255, 255, 255, 255] {
                #expect(x >= origin.0 + extent.inkMinX && x < origin.0 + extent.inkMaxX)
                #expect(y >= origin.1 + extent.inkMinY && y < origin.1 + extent.inkMaxY)
            }
        }
    }
}
