import Foundation
import PlanMarkPDF
import PlanMarkPDFCore
import PlanMarkPDFTestSupport
import PlanMarkRender
import Testing

/// Renders of `sheets.pdf` against pdftoppm's, and against where make_pdfs.py drew its black shapes (in points; a
/// pixel at d dpi covers 72 / d points).
@Suite(.enabled(if: PDFFixtures.missingTools == nil, "\(PDFFixtures.missingTools ?? "")"))
struct PDFRenderTests {
    func sheets() throws -> PDFDocument {
        try PDFDocument(bytes: try PDFFixtures.bytes("sheets.pdf"), source: "sheets.pdf")
    }

    /// A rectangle of page 1 at 150 dpi across the black rectangle's corner, and a 256-pixel tile of page 3 at 600 dpi
    /// across its line: within 2 levels a channel of pdftoppm's (which draws with Splash, not cairo) on average.
    @Test(arguments: [
        (page: 1, dpi: 150, x: 180, y: 380, width: 400, height: 300),
        (page: 3, dpi: 600, x: 5000, y: 3000, width: 256, height: 256),
        (page: 2, dpi: 50, x: 0, y: 0, width: 585, height: 414),
    ])
    func agreesWithPdftoppm(area: (page: Int, dpi: Int, x: Int, y: Int, width: Int, height: Int)) throws {
        let ours = try sheets().render(page: area.page, dpi: Double(area.dpi), x: area.x, y: area.y, width: area.width, height: area.height)
        let reference = try PDFFixtures.reference(
            "sheets.pdf", page: area.page, dpi: area.dpi, x: area.x, y: area.y, width: area.width, height: area.height
        )
        #expect((ours.width, ours.height) == (area.width, area.height))
        try #require((reference.width, reference.height) == (area.width, area.height))
        let difference = meanDifference(ours, reference)
        #expect(difference <= 2, "mean difference \(difference) a channel")
        // Not all white: the area holds some black (else the comparison would prove little).
        #expect(stride(from: 0, to: ours.pixels.count, by: 4).contains { ours.pixels[$0] < 32 })
    }

    /// Page 1 at 72 dpi (a pixel a point): the 4 pt line along y = 400 covers rows 398 to 401 from x 50 to 550;
    /// the rectangle covers x 100..300, y 200..260; elsewhere white paper, opaque.
    @Test func blackWhereTheScriptDrewAndWhiteElsewhere() throws {
        let image = try sheets().render(page: 1, dpi: 72)
        #expect((image.width, image.height) == (612, 792))
        for x in [51, 300, 549] {
            for y in 398...401 { #expect(pixel(image, x, y) == [0, 0, 0, 255], "(\(x), \(y))") }
        }
        #expect(pixel(image, 300, 396) == [255, 255, 255, 255])
        #expect(pixel(image, 300, 403) == [255, 255, 255, 255])
        #expect(pixel(image, 20, 399) == [255, 255, 255, 255])
        #expect(pixel(image, 200, 230) == [0, 0, 0, 255])
        #expect(pixel(image, 99, 230) == [255, 255, 255, 255])
        #expect(pixel(image, 301, 230) == [255, 255, 255, 255])
        #expect(pixel(image, 0, 0) == [255, 255, 255, 255])
        #expect(pixel(image, 611, 791) == [255, 255, 255, 255])
        #expect(stride(from: 3, to: image.pixels.count, by: 4).allSatisfy { image.pixels[$0] == 255 })
    }

    /// The rectangle is in pixels at the render's scale: at 144 dpi the line (y 398..402 pt) is rows 796..804, so a
    /// 10 x 4 rectangle at (400, 798) is all black and the one at (400, 780) all white. At 36 dpi page 3's 6 pt line
    /// along x = 612 is columns 304.5..307.5: 305 and 306 black.
    @Test func rectanglesAreInPixelsAtTheRenderScale() throws {
        let document = try sheets()
        let inside = try document.render(page: 1, dpi: 144, x: 400, y: 798, width: 10, height: 4)
        #expect(inside.pixels.count == 10 * 4 * 4)
        #expect(stride(from: 0, to: inside.pixels.count, by: 4).allSatisfy { inside.pixels[$0] == 0 })
        let above = try document.render(page: 1, dpi: 144, x: 400, y: 780, width: 10, height: 4)
        #expect(above.pixels.allSatisfy { $0 == 255 })
        let line = try document.render(page: 3, dpi: 36, x: 300, y: 100, width: 10, height: 1)
        #expect((0..<10).map { pixel(line, $0, 0)[0] == 0 } == [false, false, false, false, false, true, true, false, false, false])
    }

    /// A rectangle reaching past the page's edge is white there; an empty one is empty.
    @Test func pastThePageIsWhite() throws {
        let document = try sheets()
        // Page 1's rectangle ends at x 300 and y 260; the page at 612 x 792. This straddles the right edge.
        let edge = try document.render(page: 1, dpi: 72, x: 600, y: 220, width: 40, height: 10)
        #expect(edge.pixels.allSatisfy { $0 == 255 })
        let before = try document.render(page: 1, dpi: 72, x: -50, y: 220, width: 160, height: 10)
        #expect(pixel(before, 49, 0) == [255, 255, 255, 255])
        #expect(pixel(before, 150, 0) == [0, 0, 0, 255])
        let empty = try document.render(page: 1, dpi: 72, x: 0, y: 0, width: 0, height: 5)
        #expect(empty.pixels.isEmpty && empty.height == 5)
    }

    /// Renders from several tasks at once on one document (serialised by its lock) equal the same renders one by one.
    @Test func concurrentRendersEqualSequentialOnes() async throws {
        let document = try sheets()
        let areas = (0..<8).map { (page: $0 % 4 + 1, x: $0 * 37, y: $0 * 53) }
        let sequential = try areas.map { try document.render(page: $0.page, dpi: 100, x: $0.x, y: $0.y, width: 128, height: 128).pixels }
        let concurrent = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            for (index, area) in areas.enumerated() {
                group.addTask { (index, try document.render(page: area.page, dpi: 100, x: area.x, y: area.y, width: 128, height: 128).pixels) }
            }
            var results = [[UInt8]](repeating: [], count: areas.count)
            for try await (index, pixels) in group { results[index] = pixels }
            return results
        }
        #expect(concurrent == sequential)
    }
}
