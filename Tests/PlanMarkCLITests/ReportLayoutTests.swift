import Foundation
import PlanMarkTestSupport
import Testing

/// The report's pages (issue 28): every foot says `Page N of M` with the drawing, revision and date, and a marker's
/// card is never split across a page break. Read back page by page with poppler-utils (pdfinfo, pdftotext).
@Suite struct ReportLayoutTests {
    static let enabled = Poppler.missing == nil || Poppler.inCI

    /// Today's date in UTC (`YYYY-MM-DD`), the report's default date.
    static func utcDate() -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: Date())
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    /// Drawing A with 12 markers spread over the sheet: marker n's note starts `Item n note`; every fourth has a
    /// note of about 80 words ending `end-of-note-n.` (several lines); markers 2 and 7 have the JPEG photo; every
    /// marker has one comment `Comment on item n.` (the last line of its card). Markers raised by ann (odd) and
    /// bob (even).
    static func sandboxWithTwelve() throws -> StoreSandbox {
        let sandbox = try StoreSandbox.withDrawing()
        for n in 1...12 {
            var note = "Item \(n) note"
            if n % 4 == 0 { note += " " + Array(repeating: "filler", count: 80).joined(separator: " ") + " end-of-note-\(n)." }
            let (x, y) = (30 + (n * 29) % 340, 30 + (n * 53) % 240)
            let marked = try sandbox.run(["mark", "A", String(x), String(y), "--note", note, "--author", n % 2 == 1 ? "ann" : "bob"])
            try #require(marked.status == 0, "\(marked.stderr)")
            let commented = try sandbox.run(["comment", "A", String(n), "Comment on item \(n)."])
            try #require(commented.status == 0, "\(commented.stderr)")
        }
        for n in [2, 7] {
            let attached = try sandbox.run(["attach", "A", String(n), ReportCommandTests.jpegFixture.path, "--caption", "photo \(n)"])
            try #require(attached.status == 0, "\(attached.stderr)")
        }
        return sandbox
    }

    /// Each page's text (pdftotext -layout -f N -l N), pages 1 to pdfinfo's count.
    static func pageTexts(_ pdf: String) throws -> [String] {
        let count = try #require(try Poppler.pages(pdf))
        return try (1...count).map { try Poppler.text(pdf, first: $0, last: $0) }
    }

    /// Every page's foot says `Page N of M`, M being pdfinfo's page count, and names the drawing, its revision and
    /// the report's date.
    @Test(.enabled(if: enabled, "poppler-utils is not installed")) func everyPageSaysPageNOfM() async throws {
        guard popplerPresent() else { return }
        let sandbox = try Self.sandboxWithTwelve()
        for paper in ["a4", "letter"] {
            let pdf = sandbox.folder.appendingPathComponent("\(paper).pdf").path
            let before = Self.utcDate()
            let result = try sandbox.run(["report", "A", "--paper", paper, "-o", pdf])
            try #require(result.status == 0, "\(result.stderr)")
            let after = Self.utcDate()
            let pages = try Self.pageTexts(pdf)
            #expect(pages.count >= 3, "\(paper): \(pages.count) pages")
            for (index, text) in pages.enumerated() {
                #expect(text.contains("Page \(index + 1) of \(pages.count)"), "\(paper) page \(index + 1): \(text)")
                #expect(text.contains("A · revision 1 · \(before)") || text.contains("A · revision 1 · \(after)"), "\(paper) page \(index + 1)")
            }
        }
    }

    /// No card is split: each marker's heading (`#n `) is on exactly one page, and its note's first and last words
    /// and its comment (the card's last line) are on that same page; page 1 has no card. Cards share pages: 12
    /// cards take at most 6 pages after page 1. Who raised the marker, and when, is on its card.
    @Test(.enabled(if: enabled, "poppler-utils is not installed")) func cardsAreNeverSplit() async throws {
        guard popplerPresent() else { return }
        let sandbox = try Self.sandboxWithTwelve()
        let pdf = sandbox.folder.appendingPathComponent("report.pdf").path
        let dates = [Self.utcDate()]
        let result = try sandbox.run(["report", "A", "-o", pdf])
        try #require(result.status == 0, "\(result.stderr)")
        let pages = try Self.pageTexts(pdf)
        #expect(pages.count <= 1 + 6, "\(pages.count) pages for 12 cards")
        for n in 1...12 {
            let holding = pages.indices.filter { pages[$0].contains("#\(n) ") }
            try #require(holding.count == 1, "marker \(n) heading on pages \(holding.map { $0 + 1 })")
            let page = pages[holding[0]]
            #expect(holding[0] > 0, "marker \(n) on page 1")
            #expect(page.contains("Item \(n) note"), "marker \(n)'s note is not on its heading's page \(holding[0] + 1)")
            if n % 4 == 0 { #expect(page.contains("end-of-note-\(n)."), "marker \(n)'s note's end") }
            #expect(page.contains("Comment on item \(n)."), "marker \(n)'s comment is not on its heading's page \(holding[0] + 1)")
            // Marked a moment before the report: the same UTC day unless midnight passed in between.
            let raised = (n % 2 == 1 ? "ann, " : "bob, ")
            #expect(page.contains("Raised:") && (dates + [Self.utcDate()]).contains { page.contains(raised + $0) }, "marker \(n): who raised it")
        }
    }

    /// `--sign-off "Name, Role"` (repeated) ends the report with a sign-off block: every name and role is on the last
    /// page, after the last card's comment, with lines for the date and signature; the HTML report has them in a table.
    /// A sign-off without a name is a usage error (64).
    @Test(.enabled(if: enabled, "poppler-utils is not installed")) func signOffBlockEndsTheReport() async throws {
        guard popplerPresent() else { return }
        let sandbox = try Self.sandboxWithTwelve()
        let pdf = sandbox.folder.appendingPathComponent("signed.pdf").path
        let result = try sandbox.run(["report", "A", "-o", pdf, "--sign-off", "Ann Smith, Site manager",
                                      "--sign-off", "Bob Jones , Electrician, level 2", "--sign-off", "Cy"])
        try #require(result.status == 0, "\(result.stderr)")
        let pages = try Self.pageTexts(pdf)
        let last = try #require(pages.last)
        for text in ["Sign-off", "Ann Smith", "Site manager", "Bob Jones", "Electrician, level 2", "Cy", "Signature:"] {
            #expect(last.contains(text), "\(text) is not on the last page: \(last)")
        }
        #expect(pages.dropLast().allSatisfy { !$0.contains("Ann Smith") })
        let comment = try #require(pages.joined().range(of: "Comment on item 12."))
        let block = try #require(pages.joined().range(of: "Ann Smith"))
        #expect(comment.lowerBound < block.lowerBound)
        let noName = try sandbox.run(["report", "A", "-o", pdf + ".x", "--sign-off", " , Role only"])
        #expect(noName.status == 64, "\(noName.stderr)")

        let site = sandbox.folder.appendingPathComponent("site")
        let html = try sandbox.run(["report", "A", "--format", "html", "-o", site.path, "--sign-off", "Ann Smith, Site manager"])
        try #require(html.status == 0, "\(html.stderr)")
        let index = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains("<h2>Sign-off</h2>") && index.contains("<td>Ann Smith</td><td>Site manager</td>"))
    }
}
