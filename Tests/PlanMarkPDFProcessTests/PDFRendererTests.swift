import Foundation
import PlanMarkPDFCore
import PlanMarkPDFProcess
import PlanMarkPDFTestSupport
import PlanMarkRender
import Testing

/// `PDFRenderer` on good files: the info and the renders that come back from `planmark-pdf`, against pdfinfo, pypdf and
/// pdftoppm (make_pdfs.py says what each fixture holds).
@Suite(.enabled(if: PDFProcessFixtures.missing == nil, "\(PDFProcessFixtures.missing ?? "")"), .hangGuard)
struct PDFRendererTests {
    let renderer = PDFRenderer()

    /// Page count and sizes in points as pdfinfo prints them; pixels at 300 dpi worked by hand (ceil(pt * 300 / 72):
    /// 612 -> 2550, 792 -> 3300, 842 -> 3508.33 -> 3509, 595 -> 2479.17 -> 2480, 1224 -> 5100, 300 -> 1250,
    /// 200 -> 833.33 -> 834); names as pypdf reads the outline and the page labels.
    @Test func infoOfSheets() async throws {
        let file = try PDFFixtures.path("sheets.pdf")
        let info = try await renderer.info(file: file, dpi: 300)
        #expect(info.pageCount == (try PDFProcessFixtures.pdfinfoPageCount("sheets.pdf")))
        #expect(info.pageCount == 4)
        #expect(info.pages.map(\.number) == [1, 2, 3, 4])
        let sizes = try PDFProcessFixtures.pdfinfoSizes("sheets.pdf", pages: 4)
        #expect(info.pages.map(\.widthPoints) == sizes.map(\.0))
        #expect(info.pages.map(\.heightPoints) == sizes.map(\.1))
        #expect(info.pages.map(\.width) == [2550, 3509, 5100, 1250])
        #expect(info.pages.map(\.height) == [3300, 2480, 3300, 834])
        #expect(info.dpi == 300)
        let names = try PDFProcessFixtures.pypdfNames("sheets.pdf")
        #expect(info.pages.map(\.name) == (1...4).map { names[String($0)] })
        #expect(info.pages.map(\.name) == ["A-101 - Ground floor", "A-102 \u{2013} First floor", "S-1", nil])
    }

    /// A resolution that is not a whole number: 300 x 200 pt at 34.2 dpi is 142.5 x 95 (95.00000000000001 in
    /// doubles): 143 x 95. The 14400 pt page at 300 dpi: 60000 x 60000, reported (only a render is refused).
    @Test func infoAtOtherResolutions() async throws {
        let page4 = try await renderer.info(file: try PDFFixtures.path("sheets.pdf"), dpi: 34.2).pages[3]
        #expect((page4.width, page4.height) == (143, 95))
        let enormous = try await renderer.info(file: try PDFFixtures.path("enormous.pdf"), dpi: 300)
        #expect(enormous.pages.map { [$0.width, $0.height] } == [[60000, 60000]])
        #expect(enormous.pages.map(\.name) == [nil])
    }

    /// Rectangles across black shapes, and a whole page: within 2 levels a channel of pdftoppm's on average (cairo
    /// against Splash), the size asked for.
    @Test(arguments: [
        (page: 1, dpi: 150, x: 180, y: 380, width: 400, height: 300),
        (page: 3, dpi: 600, x: 5000, y: 3000, width: 256, height: 256),
    ])
    func rectangleAgreesWithPdftoppm(area: (page: Int, dpi: Int, x: Int, y: Int, width: Int, height: Int)) async throws {
        let image = try await renderer.render(
            file: try PDFFixtures.path("sheets.pdf"), page: area.page, dpi: Double(area.dpi), x: area.x, y: area.y, width: area.width,
            height: area.height
        )
        let reference = try PDFFixtures.reference(
            "sheets.pdf", page: area.page, dpi: area.dpi, x: area.x, y: area.y, width: area.width, height: area.height
        )
        #expect((image.width, image.height) == (area.width, area.height))
        try #require((reference.width, reference.height) == (area.width, area.height))
        let difference = meanDifference(image, reference)
        #expect(difference <= 2, "mean difference \(difference) a channel")
        #expect(stride(from: 0, to: image.pixels.count, by: 4).contains { image.pixels[$0] < 32 }, "no black in the rectangle")
    }

    /// Page 2 at 50 dpi, whole: 842 x 595 pt is 584.72 x 413.19, so 585 x 414 (pdftoppm's size too).
    @Test func wholePageAgreesWithPdftoppm() async throws {
        let image = try await renderer.render(file: try PDFFixtures.path("sheets.pdf"), page: 2, dpi: 50)
        let reference = try PDFFixtures.reference("sheets.pdf", page: 2, dpi: 50, x: 0, y: 0, width: 585, height: 414)
        #expect((image.width, image.height) == (585, 414))
        try #require((reference.width, reference.height) == (585, 414))
        #expect(meanDifference(image, reference) <= 2)
    }

    /// Eight renders at once, each in its own child, equal the same eight one after another; an empty rectangle is
    /// an empty image.
    @Test func concurrentRendersEqualSequentialOnes() async throws {
        let file = try PDFFixtures.path("sheets.pdf")
        let areas = (0..<8).map { (page: $0 % 4 + 1, x: $0 * 37, y: $0 * 53) }
        var sequential: [[UInt8]] = []
        for area in areas {
            sequential.append(try await renderer.render(file: file, page: area.page, dpi: 100, x: area.x, y: area.y, width: 128, height: 128).pixels)
        }
        let renderer = renderer
        let concurrent = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            for (index, area) in areas.enumerated() {
                group.addTask {
                    (index, try await renderer.render(file: file, page: area.page, dpi: 100, x: area.x, y: area.y, width: 128, height: 128).pixels)
                }
            }
            var results = [[UInt8]](repeating: [], count: areas.count)
            for try await (index, pixels) in group { results[index] = pixels }
            return results
        }
        #expect(concurrent == sequential)
        let empty = try await renderer.render(file: file, page: 1, dpi: 72, x: 0, y: 0, width: 0, height: 7)
        #expect((empty.width, empty.height, empty.pixels.count) == (0, 7, 0))
    }

    /// `name` replaces the path in messages.
    @Test func nameIsUsedInMessages() async throws {
        let file = try PDFFixtures.path("sheets.pdf")
        let error = await processError { () async throws(PDFProcessError) in
            try await renderer.render(file: file, page: 9, dpi: 72, name: "Level 2")
        }
        #expect(error == .refused(source: "Level 2", code: .pageOutOfRange, message: "Level 2: no page 9: the PDF has 4 pages"))
    }
}
