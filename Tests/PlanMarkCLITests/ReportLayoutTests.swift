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
    /// cards take at most 6 pages after page 1 (and one more for the photos' appendix). Who raised the marker, and when, is on its card.
    @Test(.enabled(if: enabled, "poppler-utils is not installed")) func cardsAreNeverSplit() async throws {
        guard popplerPresent() else { return }
        let sandbox = try Self.sandboxWithTwelve()
        let pdf = sandbox.folder.appendingPathComponent("report.pdf").path
        let dates = [Self.utcDate()]
        let result = try sandbox.run(["report", "A", "-o", pdf])
        try #require(result.status == 0, "\(result.stderr)")
        let pages = try Self.pageTexts(pdf)
        #expect(pages.count <= 1 + 6 + 1, "\(pages.count) pages for 12 cards")
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

    /// Where marker n of `sandboxWithTwelve` stands, and its room: R1 is x 10...200, R2 x 200...390 (y 10...290).
    static func position(_ n: Int) -> (x: Int, y: Int, room: String) {
        let (x, y) = (30 + (n * 29) % 340, 30 + (n * 53) % 240)
        return (x, y, x < 200 ? "R1" : "R2")
    }

    /// `pdfimages -list`'s rows split into columns (page num type width height color comp bpc enc interp object ...).
    static func imageRows(_ pdf: String) throws -> [[String]] {
        try Poppler.run("pdfimages", ["-list", pdf]).stdout.split(separator: "\n").dropFirst(2)
            .map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
            .filter { $0.count > 10 }
    }

    /// Page 1 has the legend in the page's type (`Open (12)`, the rooms, the allowed area) and the table of contents:
    /// a row per marker with its number, room, title (the note's first words), status, assignee and due, and the
    /// page its card starts on, which is the page pdftotext finds its `#n ` heading on. The HTML report has the same
    /// table, each number a link to its card.
    @Test(.enabled(if: enabled, "poppler-utils is not installed")) func contentsListEveryItem() async throws {
        guard popplerPresent() else { return }
        let sandbox = try Self.sandboxWithTwelve()
        let pdf = sandbox.folder.appendingPathComponent("report.pdf").path
        let result = try sandbox.run(["report", "A", "-o", pdf])
        try #require(result.status == 0, "\(result.stderr)")
        let pages = try Self.pageTexts(pdf)
        let first = pages[0]
        for text in ["Open (12)", "Room (2)", "Allowed area (1)", "Contents", "No.", "Title", "Assignee", "Page"] {
            #expect(first.contains(text), "page 1 lacks \(text): \(first)")
        }
        let rows = pages.joined().split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        for n in 1...12 {
            let card = try #require(pages.indices.first { pages[$0].contains("#\(n) ") }, "no card for \(n)") + 1
            let (_, _, room) = Self.position(n)
            // 1  R1  Item 1 note…  Open  –  –  2  (a note of 80 words is cut with an ellipsis)
            let row = rows.first { $0.count >= 8 && $0[0] == String(n) && $0[1] == room && $0[2] == "Item" && $0[3] == String(n) }
            let cells = try #require(row, "no contents row for \(n)")
            #expect(cells.suffix(4) == ["Open", "–", "–", String(card)], "row \(n): \(cells)")
        }

        let site = sandbox.folder.appendingPathComponent("site")
        try #require(try sandbox.run(["report", "A", "--format", "html", "-o", site.path]).status == 0)
        let index = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains("<h2>Contents</h2>") && index.contains("Open (12)"))
        for n in 1...12 {
            #expect(index.contains("<tr><td><a href=\"#marker-\(n)\">\(n)</a></td><td>\(Self.position(n).room)</td>"), "HTML row \(n)")
            #expect(index.contains("id=\"marker-\(n)\""))
        }
    }

    /// A card's crop shows the room around its pin: the smallest room covering the marker whole, with a tenth of the
    /// room's longer side around it (R1 and R2 are 190 x 280 px, so 28 px), at least 150 and at most 300 px each
    /// side of the pin (a quarter of this 400 px sheet is less than 300), cut at the sheet's edges and scaled to at
    /// most 480 px a side. The crops are the Flate pictures after page 1, one per card in number order (the photos
    /// are JPEGs); their sizes, worked out here from the rooms' corners, are what pdfimages lists (to 2 px).
    @Test(.enabled(if: enabled, "poppler-utils is not installed")) func cropsShowTheRoom() async throws {
        guard popplerPresent() else { return }
        let sandbox = try Self.sandboxWithTwelve()
        let pdf = sandbox.folder.appendingPathComponent("report.pdf").path
        try #require(try sandbox.run(["report", "A", "-o", pdf]).status == 0)
        let crops = try Self.imageRows(pdf).filter { $0[0] != "1" && $0[8] == "image" }
        try #require(crops.count == 12, "\(crops)")
        for n in 1...12 {
            let (x, y, room) = Self.position(n)
            let (minX, maxX) = room == "R1" ? (10.0, 200.0) : (200.0, 390.0)
            let (px, py) = (Double(x), Double(y))
            let reach = max(px - minX, maxX - px, py - 10, 290 - py) + 28
            let margin = min(max(reach, 150), 300).rounded(.up)
            let width = min(px + margin, 400) - max(px - margin, 0), height = min(py + margin, 300) - max(py - margin, 0)
            let scale = min(1, 480 / (2 * margin))
            let (w, h) = (Int(crops[n - 1][3])!, Int(crops[n - 1][4])!)
            #expect(abs(Double(w) - width * scale) <= 2 && abs(Double(h) - height * scale) <= 2,
                    "marker \(n) at \(x),\(y): crop \(w) x \(h), expected \(width * scale) x \(height * scale)")
        }
    }

    /// Photos are thumbnails on their card and full size on the appendix after the cards: its page says
    /// `Photos` and `Photo of #2: "photo 2", 64 x 48 px`; pdfimages lists the JPEG there too, the same PDF object as on
    /// the card (embedded once), and `pdfimages -j` gives back the attached file byte for byte.
    @Test(.enabled(if: enabled, "poppler-utils is not installed")) func photosAppendix() async throws {
        guard popplerPresent() else { return }
        let sandbox = try Self.sandboxWithTwelve()
        let pdf = sandbox.folder.appendingPathComponent("report.pdf").path
        try #require(try sandbox.run(["report", "A", "-o", pdf]).status == 0)
        let pages = try Self.pageTexts(pdf)
        let appendix = try #require(pages.lastIndex { $0.contains("Photos") && $0.contains("Photo of #2:") }, "no appendix page")
        for n in [2, 7] { #expect(pages[appendix...].joined().contains("Photo of #\(n): \"photo \(n)\", 64 x 48 px"), "photo \(n)") }
        #expect(pages[..<appendix].allSatisfy { !$0.contains("Photo of #2:") })
        let jpegs = try Self.imageRows(pdf).filter { $0[8] == "jpeg" }
        #expect(jpegs.allSatisfy { $0[3] == "64" && $0[4] == "48" }, "\(jpegs)")
        let onCards = jpegs.filter { Int($0[0])! - 1 < appendix }, onAppendix = jpegs.filter { Int($0[0])! - 1 >= appendix }
        #expect(onCards.count == 2 && onAppendix.count == 2, "\(jpegs)")
        #expect(Set(onCards.map { $0[10] }) == Set(onAppendix.map { $0[10] }), "the appendix embeds the photos again: \(jpegs)")
        let prefix = sandbox.folder.appendingPathComponent("extracted").path
        _ = try Poppler.run("pdfimages", ["-j", pdf, prefix])
        let original = try Data(contentsOf: ReportCommandTests.jpegFixture)
        let extracted = try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).filter { $0.hasPrefix("extracted") && $0.hasSuffix(".jpg") }
        #expect(!extracted.isEmpty)
        for file in extracted { #expect(try Data(contentsOf: sandbox.folder.appendingPathComponent(file)) == original, "\(file)") }
    }
}
