import Foundation
import Hummingbird
import PlanMarkPDFTestSupport
import PlanMarkRender
import PlanMarkStore
import PlanMarkTestSupport
import Testing
@testable import PlanMarkServer

/// The review image of a drawing whose image is a page of a PDF: drawn by `planmark-pdf` (make_pdfs.py's `sheets.pdf`,
/// page 1 is 612 x 792 pt: 850 x 1100 px at 100 dpi; its rectangle x 100..300 pt, y 200..260 pt is 138.9..416.7 x
/// 277.8..361.1 px). A PDF that cannot be drawn is a 422 `pdf-unreadable` for that drawing, and the server answers the
/// next request as before.
@Suite(.hangGuard, .enabled(if: PDFFixtures.missingTools == nil, "\(PDFFixtures.missingTools ?? "")")) struct PDFDrawingEndpointTests {
    @Test func theReviewImageOfAPDFDrawingIsItsPageAndABrokenOneIsRefused() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let sheets = try PDFFixtures.path("sheets.pdf"), truncated = try PDFFixtures.path("truncated.pdf")
        _ = try await fixture.store.addDrawing(NewDrawing(name: "sheet", imagePath: sheets, pdf: PDFPageImage(page: 1, dpi: 100, width: 850, height: 1100)),
                                               regions: [])
        _ = try await fixture.store.addDrawing(NewDrawing(name: "broken", imagePath: truncated, pdf: PDFPageImage(page: 1, dpi: 100, width: 850, height: 1100)),
                                               regions: [])
        try await fixture.application().test(.router) { client in
            let review = try await client.get("/drawings/sheet/review.png")
            #expect(review.status == .ok)
            let image = try PNGDecoder().decode(data: Array(review.body.readableBytesView), source: "review.png")
            #expect(image.width == 850 && image.height == 1100)
            func grey(_ x: Int, _ y: Int) -> Int { Int(image.pixels[(y * image.width + x) * 4]) }
            #expect(grey(270, 320) < 40 && grey(700, 900) > 215)

            let broken = try await client.get("/drawings/broken/review.png")
            #expect(broken.status == .unprocessableContent && broken.errorCode == "pdf-unreadable")
            #expect(try await client.get("/drawings/plan/markers").status == .ok)
            #expect(try await client.get("/drawings/sheet/review.png?scale=0.5").status == .ok)
            // The image is the PDF as added, byte for byte.
            let pdf = try await client.get("/drawings/sheet/image")
            #expect(pdf.status == .ok && pdf.headers[.contentType] == "application/pdf")
            #expect(Array(pdf.body.readableBytesView) == (try PDFFixtures.bytes("sheets.pdf")))
        }
    }

    /// The report of a PDF drawing (make_pdfs.py's text.pdf at 100 dpi: 834 x 556 px) has the page's words as text on
    /// page 1 (pdftotext), the page having gone into the report as vectors; the report of a drawing whose PDF cannot be
    /// read is 422 `pdf-unreadable`, as it was, and the server answers the next request.
    @Test func theReportOfAPDFDrawingHasThePagesText() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let text = try PDFFixtures.path("text.pdf"), truncated = try PDFFixtures.path("truncated.pdf")
        _ = try await fixture.store.addDrawing(NewDrawing(name: "text", imagePath: text, pdf: PDFPageImage(page: 1, dpi: 100, width: 834, height: 556)),
                                               regions: [])
        _ = try await fixture.store.addDrawing(NewDrawing(name: "broken", imagePath: truncated, pdf: PDFPageImage(page: 1, dpi: 100, width: 850, height: 1100)),
                                               regions: [])
        _ = try await fixture.store.addMarker(to: "text", at: .init(x: 208, y: 417), note: "Skirting loose", author: nil)
        let file = fixture.folder.appendingPathComponent("text-report.pdf")
        try await fixture.application().test(.router) { client in
            let report = try await client.get("/drawings/text/report.pdf")
            #expect(report.status == .ok)
            try Data(report.body.readableBytesView).write(to: file)
            if FileManager.default.isExecutableFile(atPath: "/usr/bin/pdftotext") {
                let first = try ProcessRunner.run("/usr/bin/pdftotext", ["-f", "1", "-l", "1", file.path, "-"]).stdout
                #expect(first.contains("ROOM 2.01") && first.contains("KITCHEN 2.02"), "\(first)")
            } else if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record("CI=true but pdftotext (poppler-utils) is not installed")
            }
            let broken = try await client.get("/drawings/broken/report.pdf")
            #expect(broken.status == .unprocessableContent && broken.errorCode == "pdf-unreadable")
            #expect(try await client.get("/drawings/plan/markers").status == .ok)
        }
    }
}
