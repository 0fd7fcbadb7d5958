import Foundation
@testable import PlanMarkPDF
import PlanMarkPDFCore
import PlanMarkPDFTestSupport
import PlanMarkRender
import Testing

/// Opening, measuring and naming the pages of `sheets.pdf` (see `make_pdfs.py` for what it holds).
@Suite(.enabled(if: PDFFixtures.missingTools == nil, "\(PDFFixtures.missingTools ?? "")"))
struct PDFDocumentTests {
    func sheets(_ limits: PDFLimits = PDFLimits()) throws -> PDFDocument {
        try PDFDocument(bytes: try PDFFixtures.bytes("sheets.pdf"), source: "sheets.pdf", limits: limits)
    }

    /// Four pages, each the size make_pdfs.py gave it.
    @Test func pagesAndTheirSizesInPoints() throws {
        let document = try sheets()
        #expect(document.pageCount == 4)
        let sizes = try (1...4).map { try document.pageSize(page: $0) }
        #expect(sizes.map(\.width) == [612, 842, 1224, 300])
        #expect(sizes.map(\.height) == [792, 595, 792, 200])
    }

    /// ceil(points * dpi / 72), worked by hand: whole numbers stay, anything above rounds up.
    @Test func pixelSizesRoundUp() throws {
        let document = try sheets()
        // 612 x 792 at 150 dpi: 1275 x 1650 exactly.
        #expect(try document.pixelSize(page: 1, dpi: 150) == (1275, 1650))
        // 842 x 595 at 300 dpi: 3508.33 x 2479.17.
        #expect(try document.pixelSize(page: 2, dpi: 300) == (3509, 2480))
        // 300 x 200 at 96 dpi: 400 x 266.67.
        #expect(try document.pixelSize(page: 4, dpi: 96) == (400, 267))
        // 200 * 34.2 / 72 is 95 exactly, but 95.00000000000001 in doubles: still 95. 300 * 34.2 / 72 = 142.5.
        #expect(try document.pixelSize(page: 4, dpi: 34.2) == (143, 95))
        // pdftoppm agrees on a whole page's size: page 2 at 50 dpi, 584.72 x 413.19.
        let reference = try PDFFixtures.reference("sheets.pdf", page: 2, dpi: 50, x: 0, y: 0, width: 0, height: 0)
        #expect(try document.pixelSize(page: 2, dpi: 50) == (reference.width, reference.height))
        #expect((reference.width, reference.height) == (585, 414))
    }

    /// Page 1: the first outline entry (before its child, also on page 1, and before the page's label "A-101");
    /// page 2: the nested entry, reached through the named destination, before a later top-level entry; page 3:
    /// its label; page 4: its label is its own number, so no name. A PDF without outline or labels: no names.
    @Test func sheetNamesFromOutlineThenLabels() throws {
        let names = try sheets().sheetNames()
        #expect(names == [1: "A-101 - Ground floor", 2: "A-102 \u{2013} First floor", 3: "S-1"])
        #expect(try PDFDocument(bytes: try PDFFixtures.bytes("huge.pdf"), source: "huge.pdf").sheetNames() == [:])
    }

    /// The header may follow up to 1019 bytes of something else, as in poppler and Acrobat; not later.
    @Test func headerIsLookedForInTheFirst1024Bytes() {
        let header = Array("%PDF-1.4\n".utf8)
        #expect(PDFDocument.hasHeader(header))
        #expect(PDFDocument.hasHeader([UInt8](repeating: 32, count: 1019) + header))
        #expect(!PDFDocument.hasHeader([UInt8](repeating: 32, count: 1020) + header))
        #expect(!PDFDocument.hasHeader(Array("%PDF".utf8)))
        #expect(!PDFDocument.hasHeader([]))
    }

    /// Surrounding whitespace goes, inner whitespace stays.
    @Test func titlesAreTrimmedOnly() {
        #expect(PDFDocument.trimmed("  A-101  Ground\tfloor \n") == "A-101  Ground\tfloor")
        #expect(PDFDocument.trimmed(" \t\n") == "")
    }

    /// cairo's premultiplied native-endian ARGB words become straight RGBA bytes.
    @Test func unpremultipliesCairoWords() {
        // Opaque (r 1, g 2, b 3); half-transparent red premultiplied to 64 (straight: 64 * 255 / 128 = 127.5 -> 128);
        // fully transparent.
        let words: [UInt32] = [0xFF01_0203, 0x8040_0000, 0x0000_0000]
        var bytes = words.withUnsafeBytes { [UInt8]($0) }
        PDFDocument.unpremultiply(&bytes)
        #expect(bytes == [1, 2, 3, 255, 128, 0, 0, 128, 0, 0, 0, 0])
    }

    /// Every case has its own code, and every message starts with the source.
    @Test func errorCodesAreDistinctAndMessagesNameTheSource() {
        let errors: [PDFError] = [
            .notPDF(source: "s.pdf"), .unreadable(source: "s.pdf", reason: "r"), .encrypted(source: "s.pdf"),
            .noPages(source: "s.pdf"), .tooLarge(source: "s.pdf", bytes: 2, max: 1),
            .tooManyPages(source: "s.pdf", count: 2, max: 1), .pageOutOfRange(source: "s.pdf", page: 5, count: 4),
            .pageTooLarge(source: "s.pdf", page: 1, widthPt: 20000, heightPt: 300, max: 14400),
            .tooManyPixels(source: "s.pdf", page: 1, width: 10, height: 10, max: 99),
            .invalidArea(source: "s.pdf", page: 1, reason: "r"), .renderFailed(source: "s.pdf", page: 1, reason: "r"),
            .notVectors(source: "s.pdf", page: 1, reason: "r"),
        ]
        #expect(Set(errors.map(\.code)).count == errors.count)
        for error in errors {
            #expect(error.description.hasPrefix("s.pdf: "))
            #expect(!error.description.contains("\n"))
        }
        #expect(PDFError.pageTooLarge(source: "s.pdf", page: 1, widthPt: 595.276, heightPt: 20000, max: 14400).description
            == "s.pdf: page 1 is 595.28 x 20000 pt, over the side limit of 14400 pt")
        #expect(PDFError.pageOutOfRange(source: "s.pdf", page: 5, count: 4).description == "s.pdf: no page 5: the PDF has 4 pages")
    }
}
