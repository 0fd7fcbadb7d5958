import Foundation
import PlanMarkPDFCore
import PlanMarkPDFProcess
import PlanMarkPDFTestSupport
import PlanMarkRender
import PlanMarkSheets
import PlanMarkStore
import PlanMarkTestSupport
import Testing

/// A drawing's sheet as pixels: a PDF page drawn by `planmark-pdf` agrees with `pdftoppm` at the same resolution
/// (make_pdfs.py's `sheets.pdf`: page 1 is 612 x 792 pt, so 850 x 1100 px at 100 dpi, counted by hand), a picture that
/// fits a box is drawn at the resolution that fits it, a PNG is decoded as before, and a broken PDF is one error.
@Suite(.enabled(if: PDFFixtures.missingTools == nil, "\(PDFFixtures.missingTools ?? "")")) struct SheetPixelsTests {
    static func sheet(_ name: String = "sheets.pdf", page: Int = 1, dpi: Int = 100) throws -> DrawingImage {
        let bytes = try PDFFixtures.bytes(name)
        return DrawingImage(sha256: sha256sum(bytes), bytes: bytes, pdf: PDFSource(page: page, dpi: dpi))
    }

    /// The scratch folder, empty, of this test alone.
    static func scratch() throws -> String {
        try TestFolder.make("sheet-scratch").path
    }

    @Test func aPDFPageIsDrawnAtTheDrawingsResolution() async throws {
        let scratch = try Self.scratch()
        let image = try await SheetPixels(scratch: scratch).image(try Self.sheet(), source: "drawing \"A\"")
        #expect(image.width == 850 && image.height == 1100)
        let reference = try PDFFixtures.reference("sheets.pdf", page: 1, dpi: 100, x: 0, y: 0, width: 850, height: 1100)
        #expect(meanDifference(image, reference) <= 2)
        // The PDF went to a file of its own for the child, and it is gone.
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).isEmpty)
    }

    @Test func aPictureThatFitsABoxIsDrawnAtItsOwnResolution() async throws {
        // 850 x 1100 into 200 x 200: the height decides, 100 dpi x 200 / 1100 = 18.18 dpi; 792 pt is then 200 px.
        let image = try await SheetPixels(scratch: try Self.scratch()).image(try Self.sheet(), source: "drawing \"A\"", fitting: (200, 200),
                                                                             drawing: (850, 1100))
        #expect(image.height == 200 && image.width <= 200 && image.width >= 154, "\(image.width)x\(image.height)")
        // A box larger than the drawing draws it at its own resolution, never above.
        let whole = try await SheetPixels(scratch: try Self.scratch()).image(try Self.sheet(), source: "drawing \"A\"", fitting: (5000, 5000),
                                                                             drawing: (850, 1100))
        #expect(whole.width == 850 && whole.height == 1100)
    }

    @Test func aPNGIsDecodedAsBefore() async throws {
        let picture = RGBAImage(width: 3, height: 2, pixels: [UInt8]((0..<24).map { UInt8($0 * 10) }))
        let bytes = try PNGEncoder().encode(picture)
        let image = try await SheetPixels().image(DrawingImage(sha256: sha256sum(bytes), bytes: bytes), source: "drawing \"P\"")
        #expect(image.width == 3 && image.height == 2 && image.pixels == picture.pixels)
    }

    @Test func aBrokenPDFIsOneError() async throws {
        let scratch = try Self.scratch()
        let bytes = try PDFFixtures.bytes("truncated.pdf")
        let image = DrawingImage(sha256: sha256sum(bytes), bytes: bytes, pdf: PDFSource(page: 1, dpi: 100))
        await #expect {
            _ = try await SheetPixels(scratch: scratch).image(image, source: "drawing \"T\"")
        } throws: { error in
            guard case .pdf(.refused(_, let code, let message)) = error as? SheetError else { return false }
            return code == .unreadable && message.hasPrefix("drawing \"T\": ")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).isEmpty)
    }
}
