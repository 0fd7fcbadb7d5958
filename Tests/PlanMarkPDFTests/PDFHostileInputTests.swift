import Foundation
import PlanMarkPDF
import PlanMarkPDFCore
import PlanMarkPDFTestSupport
import Testing

/// What is not a readable PDF, or asks for more than the limits: each refused with its own `PDFError`, nothing
/// crashes, and nothing is allocated for a render over the limits.
@Suite(.enabled(if: PDFFixtures.missingTools == nil, "\(PDFFixtures.missingTools ?? "")"))
struct PDFHostileInputTests {
    func open(_ bytes: [UInt8], _ limits: PDFLimits = PDFLimits()) throws(PDFError) -> PDFDocument {
        try PDFDocument(bytes: bytes, source: "in.pdf", limits: limits)
    }

    @Test func emptyAndNonPDFDataAreNotPDF() throws {
        #expect(throws: PDFError.notPDF(source: "in.pdf")) { try open([]) }
        #expect(throws: PDFError.notPDF(source: "in.pdf")) { try open(Array("hello, world\n".utf8)) }
        #expect(throws: PDFError.notPDF(source: "in.pdf")) { try open([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) }
        #expect(throws: PDFError.notPDF(source: "in.pdf")) { try open(Array("%PDF".utf8)) }
    }

    /// The first half of sheets.pdf: a header, but no cross-reference table or trailer.
    @Test func truncatedIsUnreadable() throws {
        let bytes = try PDFFixtures.bytes("sheets.pdf")
        do {
            _ = try open(Array(bytes[..<(bytes.count / 2)]))
            Issue.record("a truncated PDF opened")
        } catch {
            #expect(error.code == "unreadable", "\(error)")
            #expect(error.description.hasPrefix("in.pdf: corrupt or unreadable PDF: "))
        }
        // Only a header.
        #expect(throws: PDFError.self) { try open(Array("%PDF-1.7\n".utf8)) }
    }

    @Test func emptyPageTreeHasNoPages() throws {
        #expect(throws: PDFError.noPages(source: "in.pdf")) { try open(try PDFFixtures.bytes("no-pages.pdf")) }
    }

    @Test(.enabled(if: PDFFixtures.hasEncrypted, "neither pypdf nor qpdf could encrypt the fixture"))
    func encryptedNeedsAPassword() throws {
        #expect(throws: PDFError.encrypted(source: "in.pdf")) { try open(try PDFFixtures.bytes("encrypted.pdf")) }
    }

    /// The byte limit is checked first: even data that is not a PDF is refused as too large.
    @Test func overTheByteLimit() throws {
        let bytes = try PDFFixtures.bytes("sheets.pdf")
        #expect(throws: PDFError.tooLarge(source: "in.pdf", bytes: bytes.count, max: 1000)) { try open(bytes, PDFLimits(maxBytes: 1000)) }
        #expect(throws: PDFError.tooLarge(source: "in.pdf", bytes: 11, max: 10)) { try open(Array("not a PDF!!".utf8), PDFLimits(maxBytes: 10)) }
        #expect(throws: Never.self) { try open(bytes, PDFLimits(maxBytes: bytes.count)) }
    }

    @Test func overThePageLimit() throws {
        let bytes = try PDFFixtures.bytes("sheets.pdf")
        #expect(throws: PDFError.tooManyPages(source: "in.pdf", count: 4, max: 3)) { try open(bytes, PDFLimits(maxPages: 3)) }
        #expect(throws: Never.self) { try open(bytes, PDFLimits(maxPages: 4)) }
    }

    /// A 20000 x 300 pt page opens (its size can be shown) but is neither measured in pixels nor drawn.
    @Test func pageOverTheSideLimit() throws {
        let document = try open(try PDFFixtures.bytes("huge.pdf"))
        #expect(try document.pageSize(page: 1) == (20000, 300))
        let expected = PDFError.pageTooLarge(source: "in.pdf", page: 1, widthPt: 20000, heightPt: 300, max: 14400)
        #expect(throws: expected) { try document.pixelSize(page: 1, dpi: 1) }
        #expect(throws: expected) { try document.render(page: 1, dpi: 1) }
        #expect(throws: expected) { try document.render(page: 1, dpi: 1, x: 0, y: 0, width: 1, height: 1) }
    }

    /// Page 1 at 72 dpi is 612 x 792 = 484,704 pixels: over a limit of 484,703, within one of 484,704.
    @Test func overThePixelLimit() throws {
        let bytes = try PDFFixtures.bytes("sheets.pdf")
        let tight = try open(bytes, PDFLimits(maxPixels: 484_703))
        #expect(throws: PDFError.tooManyPixels(source: "in.pdf", page: 1, width: 612, height: 792, max: 484_703)) {
            try tight.render(page: 1, dpi: 72)
        }
        #expect(throws: PDFError.tooManyPixels(source: "in.pdf", page: 1, width: 1 << 40, height: 1 << 40, max: 484_703)) {
            try tight.render(page: 1, dpi: 72, x: 0, y: 0, width: 1 << 40, height: 1 << 40)
        }
        // Width x height overflows Int: still refused, not trapped.
        #expect(throws: PDFError.tooManyPixels(source: "in.pdf", page: 1, width: Int.max, height: 2, max: 484_703)) {
            try tight.render(page: 1, dpi: 72, x: 0, y: 0, width: Int.max, height: 2)
        }
        #expect(try open(bytes, PDFLimits(maxPixels: 484_704)).render(page: 1, dpi: 72).pixels.count == 484_704 * 4)
        // The default limit stops a whole page at an absurd resolution before any pixel is allocated.
        #expect(throws: PDFError.self) { try open(bytes).render(page: 1, dpi: 1_000_000) }
        #expect(throws: PDFError.self) { try open(bytes).pixelSize(page: 1, dpi: 1e300) }
    }

    @Test func pagesOutOfRange() throws {
        let document = try open(try PDFFixtures.bytes("sheets.pdf"))
        for page in [0, -1, 5, Int.max] {
            let expected = PDFError.pageOutOfRange(source: "in.pdf", page: page, count: 4)
            #expect(throws: expected) { try document.pageSize(page: page) }
            #expect(throws: expected) { try document.pixelSize(page: page, dpi: 72) }
            #expect(throws: expected) { try document.render(page: page, dpi: 72) }
            #expect(throws: expected) { try document.render(page: page, dpi: 72, x: 0, y: 0, width: 1, height: 1) }
        }
    }

    @Test func resolutionsAndRectanglesThatAreNotOnes() throws {
        let document = try open(try PDFFixtures.bytes("sheets.pdf"))
        for dpi in [0, -72, .nan, .infinity] as [Double] {
            #expect(throws: PDFError.self) { try document.render(page: 1, dpi: dpi) }
            do {
                _ = try document.pixelSize(page: 1, dpi: dpi)
                Issue.record("dpi \(dpi) accepted")
            } catch {
                #expect(error.code == "invalid_area")
            }
        }
        #expect(throws: PDFError.invalidArea(source: "in.pdf", page: 1, reason: "a -1x5 rectangle has a negative side")) {
            try document.render(page: 1, dpi: 72, x: 0, y: 0, width: -1, height: 5)
        }
    }
}
