import Foundation
import PlanMarkPDFTestSupport
import PlanMarkTestSupport
import Testing

/// The report's sheet page of a PDF drawing (issue 29): the page goes into the report as vectors, its text selectable,
/// the pins drawn over it where the markers are; a page that cannot be kept so is drawn as pixels and the line on
/// stderr says why; a page that cannot be drawn at all fails as it always did. make_pdfs.py's text.pdf (600 x 400 pt,
/// "ROOM 2.01" and "KITCHEN 2.02" in a TrueType font) and type3.pdf (300 x 200 pt, a Type 3 font); read back with
/// poppler-utils.
@Suite(.enabled(if: (Poppler.missing == nil || Poppler.inCI) && PDFFixtures.missingTools == nil, "poppler-utils or pycairo is missing"))
struct ReportVectorSheetTests {
    /// A word `pdftotext -bbox` finds on page 1, with its box in points.
    struct Word: CustomStringConvertible {
        var text: String, minX: Double, minY: Double, maxX: Double, maxY: Double
        var centre: (x: Double, y: Double) { ((minX + maxX) / 2, (minY + maxY) / 2) }
        var description: String { "\(text) [\(minX), \(minY), \(maxX), \(maxY)]" }
    }

    /// Page 1's words.
    static func words(_ pdf: String) throws -> [Word] {
        let html = try Poppler.run("pdftotext", ["-bbox", "-f", "1", "-l", "1", pdf, "-"]).stdout
        return html.split(separator: "\n").compactMap { line -> Word? in
            guard line.contains("<word "), let open = line.firstIndex(of: ">"), let close = line.range(of: "</word>") else { return nil }
            func attribute(_ name: String) -> Double? {
                guard let range = line.range(of: name + "=\"") else { return nil }
                return Double(line[range.upperBound...].prefix { $0 != "\"" })
            }
            guard let minX = attribute("xMin"), let minY = attribute("yMin"), let maxX = attribute("xMax"), let maxY = attribute("yMax") else { return nil }
            return Word(text: String(line[line.index(after: open)..<close.lowerBound]), minX: minX, minY: minY, maxX: maxX, maxY: maxY)
        }
    }

    /// The images `pdfimages -list` lists on page 1, as (width, height).
    static func images(_ pdf: String) throws -> [(Int, Int)] {
        try Poppler.run("pdfimages", ["-list", "-f", "1", "-l", "1", pdf]).stdout.split(separator: "\n").dropFirst(2).map { line in
            let columns = line.split(separator: " ")
            return (Int(columns[3]) ?? -1, Int(columns[4]) ?? -1)
        }
    }

    /// text.pdf at 100 dpi is 834 x 556 px (600 * 100 / 72 = 833.3, 400 * 100 / 72 = 555.6, rounded up). Markers 1 and
    /// 2 at (208, 417) and (625, 417) px: at 72 / 100 pt a pixel, (149.76, 300.24) and (450, 300.24) pt on the page.
    ///
    /// The report's page 1 has the sheet's words as text and no image at all. Where the page went is measured on the
    /// report itself: the words ROOM and KITCHEN (pdftotext's boxes, there and in text.pdf) give the scale and the
    /// offset from the page's points to the report's; the pins' labels 1 and 2 are words whose boxes are centred within
    /// 1 pt of where their markers then fall (a pin is centred on its marker; its label on the pin).
    @Test func pdfDrawingSheetIsVectorsWithSelectableText() throws {
        guard popplerPresent() else { return }
        let sandbox = try StoreSandbox()
        let fixture = try PDFFixtures.path("text.pdf")
        let added = try sandbox.run(["drawing", "add", fixture, "--name", "T", "--dpi", "100", "--no-tiles"])
        try #require(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.hasPrefix("added drawing \"T\" (834x556 px, pdf page 1 at 100 dpi"), "\(added.stdout)")
        #expect(try sandbox.run(["mark", "T", "208", "417"]).status == 0)
        #expect(try sandbox.run(["mark", "T", "625", "417"]).status == 0)
        let pdf = sandbox.folder.appendingPathComponent("r.pdf").path
        let result = try sandbox.run(["report", "T", "-o", pdf])
        try #require(result.status == 0, "\(result.stderr)")
        let pages = try #require(try Poppler.pages(pdf))
        #expect(result.stderr == "planmark: report: wrote \(pages) pages (2 markers) to \(pdf) (the sheet as vectors)\n")

        let first = try Poppler.text(pdf, first: 1, last: 1)
        #expect(first.contains("ROOM 2.01") && first.contains("KITCHEN 2.02"), "\(first)")
        let images = try Self.images(pdf)
        #expect(images.isEmpty, "\(images)")

        let words = try Self.words(pdf), original = try Self.words(fixture)
        func word(_ text: String, in list: [Word]) throws -> Word { try #require(list.first { $0.text == text }, "no \(text) in \(list)") }
        let (room, kitchen) = (try word("ROOM", in: words), try word("KITCHEN", in: words))
        let (roomThere, kitchenThere) = (try word("ROOM", in: original), try word("KITCHEN", in: original))
        let scale = (kitchen.minX - room.minX) / (kitchenThere.minX - roomThere.minX)
        #expect(scale > 0.5 && scale < 1, "\(scale)")
        let offset = (x: room.minX - scale * roomThere.minX, y: room.minY - scale * roomThere.minY)
        for (label, point) in [("1", (x: 149.76, y: 300.24)), ("2", (x: 450.0, y: 300.24))] {
            let expected = (x: offset.x + scale * point.x, y: offset.y + scale * point.y)
            let near = words.filter { $0.text == label }.min { a, b in
                hypot(a.centre.x - expected.x, a.centre.y - expected.y) < hypot(b.centre.x - expected.x, b.centre.y - expected.y)
            }
            let found = try #require(near, "no word \(label) on page 1")
            #expect(abs(found.centre.x - expected.x) < 1 && abs(found.centre.y - expected.y) < 1, "\(found) vs \(expected)")
        }
    }

    /// type3.pdf at 100 dpi (417 x 278 px: 300 * 100 / 72 = 416.7, 200 * 100 / 72 = 277.8): a Type 3 font cannot be
    /// kept as outlines, so the sheet is the drawing's pixels as before (one image of the drawing's size on page 1) and
    /// the line on stderr says why.
    @Test func typeThreeFontSheetIsPixelsAndSaysWhy() throws {
        guard popplerPresent() else { return }
        let sandbox = try StoreSandbox()
        try #require(try sandbox.run(["drawing", "add", try PDFFixtures.path("type3.pdf"), "--name", "T3", "--dpi", "100", "--no-tiles"]).status == 0)
        #expect(try sandbox.run(["mark", "T3", "100", "100"]).status == 0)
        let pdf = sandbox.folder.appendingPathComponent("r.pdf").path
        let result = try sandbox.run(["report", "T3", "-o", pdf])
        try #require(result.status == 0, "\(result.stderr)")
        let pages = try #require(try Poppler.pages(pdf))
        #expect(result.stderr == "planmark: report: wrote \(pages) pages (1 marker) to \(pdf) (the sheet as pixels: drawing \"T3\": page 1: "
            + "cannot be kept as vectors: it uses a Type 1, CFF or Type 3 font, whose glyphs CairoScript cannot carry as outlines)\n")
        let images = try Self.images(pdf)
        #expect(images.count == 1 && images.first.map { $0 == (417, 278) } == true, "\(images)")
    }

    /// A PDF drawing whose stored bytes are no longer a readable PDF (corrupt.pdf written over them with the SQLite
    /// shell): the report fails as `planmark render` does on it, the same exit status and line, and the report
    /// process itself does not crash.
    @Test(.enabled(if: ReportHardeningTests.sqliteShellPresent, "/usr/bin/sqlite3 is not installed"))
    func unreadablePDFFailsAsBefore() throws {
        let sandbox = try StoreSandbox()
        try #require(try sandbox.run(["drawing", "add", try PDFFixtures.path("text.pdf"), "--name", "T", "--dpi", "100", "--no-tiles"]).status == 0)
        try sqliteShell(sandbox.store, "UPDATE image SET bytes = \(DeclaredPhotos.sqlBlob(try PDFFixtures.bytes("corrupt.pdf"))) "
            + "WHERE sha256 = (SELECT imageSHA256 FROM drawing WHERE name = 'T')")
        let rendered = try sandbox.run(["render", "T", "-o", sandbox.folder.appendingPathComponent("x.png").path])
        let reported = try sandbox.run(["report", "T", "-o", sandbox.folder.appendingPathComponent("r.pdf").path])
        #expect(rendered.status == 65, "\(rendered.stderr)")
        #expect(reported.status == rendered.status)
        #expect(reported.stderr == rendered.stderr, "\(reported.stderr)")
        #expect(reported.stderr.contains("corrupt or unreadable PDF") && reported.stderr.filter { $0 == "\n" }.count == 1, "\(reported.stderr)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.folder.appendingPathComponent("r.pdf").path))
    }
}
