import Foundation
import PlanMarkPDFTestSupport
import PlanMarkRender
import PlanMarkTestSupport
import Testing

/// `planmark sheets add` and `sheets revise`, and `drawing add` of a PDF page, on two issues of a three-page set that
/// cairo writes (`make_sheet_sets.py`). Every size is counted by hand from the pages' points: at 100 dpi a 612 x 792 pt
/// page is 612 * 100 / 72 = 850 x 1100 px, 792 x 612 pt is 1100 x 850, and 842 x 595 pt is 1169.4 x 826.4, rounded up
/// 1170 x 827.
@Suite(.enabled(if: SheetSets.missing == nil, "\(SheetSets.missing ?? "")")) struct SheetsCommandTests {
    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The pages of a `--format json` report, as (page, name, width, height, stored).
    static func pages(_ text: String) throws -> [(Int, String, Int, Int, Bool)] {
        let pages = try #require(try json(text)["pages"] as? [[String: Any]])
        return pages.map { ($0["page"] as? Int ?? -1, $0["name"] as? String ?? "", $0["width"] as? Int ?? -1, $0["height"] as? Int ?? -1, $0["stored"] as? Bool ?? false) }
    }

    @Test func aSetIsNamedFromItsOutlineAndANewIssueCarriesTheMarkers() throws {
        let sandbox = try StoreSandbox()
        let (first, second) = try SheetSets.make(in: sandbox.folder)
        let added = try sandbox.run(["sheets", "add", first, "--dpi", "100", "--format", "json"])
        #expect(added.status == 0, "\(added.stderr)")
        let addedPages = try Self.pages(added.stdout)
        #expect(addedPages.map(\.0) == [1, 2, 3])
        #expect(addedPages.map(\.1) == ["A-101 - Ground floor", "A-102 - First floor", "set p3"])
        #expect(addedPages.map { [$0.2, $0.3] } == [[850, 1100], [850, 1100], [1100, 850]])
        #expect(addedPages.allSatisfy { $0.4 })

        // The drawings are the pages: the PDF's bytes (sha256sum's digest), the page and the resolution.
        let list = try Self.json(try sandbox.run(["drawing", "show", "A-101 - Ground floor", "--format", "json"]).stdout)
        #expect(list["sha256"] as? String == (try SheetSets.digest(first)))
        #expect((list["pdf"] as? [String: Any])?["page"] as? Int == 1 && (list["pdf"] as? [String: Any])?["dpi"] as? Int == 100)
        #expect(list["width"] as? Int == 850 && list["height"] as? Int == 1100)

        let marked = try sandbox.run(["mark", "A-101 - Ground floor", "400", "500"])
        #expect(marked.status == 0, "\(marked.stderr)")

        // Again: every name exists, every page is skipped, nothing else is stored.
        let again = try sandbox.run(["sheets", "add", first, "--dpi", "100"])
        #expect(again.status == 1 && again.stderr == "planmark: \(first): 3 of 3 pages not stored (each line says why)\n", "\(again.stderr)")
        #expect(again.stdout == """
            1\tA-101 - Ground floor\t850 x 1100\tnot stored: a drawing with this name already exists
            2\tA-102 - First floor\t850 x 1100\tnot stored: a drawing with this name already exists
            3\tset p3\t1100 x 850\tnot stored: a drawing with this name already exists

            """)

        // The second issue: pages 1 and 2 are revisions (same paper, the markers carried); page 3 changed paper, so it
        // is listed and skipped.
        let revised = try sandbox.run(["sheets", "revise", second])
        #expect(revised.status == 1, "\(revised.stderr)")
        let lines = revised.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.first == "1\tA-101 - Ground floor\t850 x 1100\trevision 2: 1 marker carried, 0 need placement")
        #expect(lines.dropFirst().first == "2\tA-102 - First floor\t850 x 1100\trevision 2: 0 markers carried, 0 need placement")
        #expect(lines.last?.hasPrefix("3\tset p3\t1170 x 827\tnot stored: the page is 1170 x 827 px at 100 dpi, the drawing 1100 x 850") == true)
        let show = try Self.json(try sandbox.run(["drawing", "show", "A-101 - Ground floor", "--format", "json"]).stdout)
        #expect(show["sha256"] as? String == (try SheetSets.digest(second)) && show["revision"] as? Int == 2)
        let markers = try sandbox.run(["markers", "A-101 - Ground floor", "--format", "csv"])
        #expect(markers.stdout.contains(",1,400,500,open,"), "\(markers.stdout)")
        let third = try Self.json(try sandbox.run(["drawing", "show", "set p3", "--format", "json"]).stdout)
        #expect(third["sha256"] as? String == (try SheetSets.digest(first)))

        // The same issue again is the current sheet of pages 1 and 2 already.
        let twice = try sandbox.run(["sheets", "revise", second, "--format", "json"])
        #expect(twice.status == 1)
        #expect(try Self.pages(twice.stdout).map(\.4) == [false, false, false])
    }

    /// The review image and the report draw a PDF drawing's page: page 1's rectangle (x 100..300 pt, y 200..260 pt, so
    /// 138.9..416.7 x 277.8..361.1 px at 100 dpi) is black in the review image, the paper beside it white.
    @Test func aPDFDrawingIsRenderedAndReported() throws {
        let sandbox = try StoreSandbox()
        let (first, _) = try SheetSets.make(in: sandbox.folder)
        #expect(try sandbox.run(["sheets", "add", first, "--dpi", "100"]).status == 0)
        let out = sandbox.folder.appendingPathComponent("review.png").path
        let rendered = try sandbox.run(["render", "A-101 - Ground floor", "-o", out])
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let image = try PNGDecoder().decode(path: out)
        #expect(image.width == 850 && image.height == 1100)
        func grey(_ x: Int, _ y: Int) -> Int { Int(image.pixels[(y * image.width + x) * 4]) }
        #expect(grey(270, 320) < 40 && grey(150, 290) < 40 && grey(700, 900) > 215, "\(grey(270, 320)) \(grey(150, 290)) \(grey(700, 900))")
        let report = sandbox.folder.appendingPathComponent("report.pdf").path
        let reported = try sandbox.run(["report", "A-101 - Ground floor", "-o", report])
        #expect(reported.status == 0, "\(reported.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: report)).starts(with: Array("%PDF-".utf8)))
    }

    /// make_pdfs.py's hostile files: each is one line and exit 65 from `drawing add` and from `sheets add`, and nothing is
    /// stored (the enormous page is 60000 x 60000 px at 300 dpi, over --max-pixels; huge.pdf's side is over PDF's 14400 pt).
    @Test(.enabled(if: PDFFixtures.missingTools == nil, "\(PDFFixtures.missingTools ?? "")"),
          arguments: ["truncated.pdf", "corrupt.pdf", "encrypted.pdf", "no-pages.pdf", "enormous.pdf", "huge.pdf"])
    func hostilePDFsAreRefusedAndNothingIsStored(_ name: String) throws {
        if name == "encrypted.pdf" && !PDFFixtures.hasEncrypted { return }
        let sandbox = try StoreSandbox.withDrawing()
        let file = try PDFFixtures.path(name)
        for arguments in [["drawing", "add", file, "--name", "X", "--no-tiles"], ["sheets", "add", file]] {
            let refused = try sandbox.run(arguments)
            #expect(refused.status == 65, "\(arguments): \(refused.stderr)")
            #expect(refused.stderr.hasPrefix("planmark: \(file): ") && refused.stderr.filter { $0 == "\n" }.count == 1, "\(refused.stderr)")
            // A file that cannot be read is refused whole; a page that cannot be used is listed, and the line on stderr
            // counts it.
            #expect(refused.stdout.isEmpty || (arguments[0] == "sheets" && refused.stdout.hasPrefix("1\t") && refused.stdout.contains("\tnot stored: ")
                                                 && refused.stderr.hasSuffix(": 1 of 1 page not stored (each line says why)\n")), "\(refused.stdout)")
        }
        let list = try sandbox.run(["drawing", "list"])
        #expect(list.stdout.split(separator: "\n").map { $0.split(separator: "\t").first } == ["A"], "\(list.stdout)")
    }

    @Test func drawingAddTakesOnePageAndRefusesWhatIsNotOne() throws {
        let sandbox = try StoreSandbox()
        let (first, _) = try SheetSets.make(in: sandbox.folder)
        let added = try sandbox.run(["drawing", "add", first, "--name", "S", "--page", "3", "--dpi", "100", "--no-tiles"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout == "added drawing \"S\" (1100x850 px, pdf page 3 at 100 dpi, zoom 8.0, leaflet, 0 regions)\n")

        // A PDF drawing knows its dpi: at 1:100 and 100 dpi a pixel is 0.0254 / 100 m of paper, 0.0254 m of building.
        let calibrated = try sandbox.run(["drawing", "calibrate", "S", "--paper-scale", "1:100"])
        #expect(calibrated.status == 0, "\(calibrated.stderr)")
        let scale = try Self.json(try sandbox.run(["drawing", "show", "S", "--format", "json"]).stdout)["metresPerPixel"] as? Double
        #expect(abs((scale ?? 0) - 0.0254) < 1e-12, "\(String(describing: scale))")

        let noPage = try sandbox.run(["drawing", "add", first, "--name", "T", "--page", "4", "--no-tiles"])
        #expect(noPage.status == 64 && noPage.stderr == "planmark: --page: \(first) has 3 pages; there is no page 4\n")
        let png = try sandbox.png()
        let pageOfPNG = try sandbox.run(["drawing", "add", png, "--name", "T", "--page", "1", "--no-tiles"])
        #expect(pageOfPNG.status == 64 && pageOfPNG.stderr.hasPrefix("planmark: \(png): --page and --dpi are for a PDF"))
        let tooBig = try sandbox.run(["drawing", "add", first, "--name", "T", "--dpi", "2400", "--max-pixels", "1000000", "--no-tiles"])
        #expect(tooBig.status == 65 && tooBig.stderr.contains("page 1 is 20400x26400 px at 2400 dpi, over --max-pixels 1000000"), "\(tooBig.stderr)")

        // The first half of a PDF: one line, exit 65, nothing stored.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: first))
        let truncated = sandbox.folder.appendingPathComponent("truncated.pdf")
        try bytes.prefix(bytes.count / 2).write(to: truncated)
        let bad = try sandbox.run(["drawing", "add", truncated.path, "--name", "T", "--no-tiles"])
        #expect(bad.status == 65 && bad.stderr.hasPrefix("planmark: \(truncated.path): ") && bad.stderr.filter { $0 == "\n" }.count == 1, "\(bad.stderr)")
        let set = try sandbox.run(["sheets", "add", truncated.path])
        #expect(set.status == 65 && set.stdout.isEmpty)
        let list = try sandbox.run(["drawing", "list"])
        #expect(list.stdout.split(separator: "\n").map { $0.split(separator: "\t").first } == ["S"], "\(list.stdout)")
    }
}

/// Writes the sets with `make_sheet_sets.py` (pycairo, through /usr/bin/python3).
enum SheetSets {
    static let python = "/usr/bin/python3"

    /// Why the sets cannot be made here, or nil.
    static let missing: String? = {
        let probe = try? CLIRunner.run(["-c", "import cairo"], executable: URL(fileURLWithPath: python))
        return probe?.status == 0 ? nil : "pycairo is missing (Debian: python3-cairo)"
    }()

    /// `sha256sum`'s digest of the file at `path`.
    static func digest(_ path: String) throws -> String {
        sha256sum([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    /// Issue 1 and issue 2 of the set, in `folder`.
    static func make(in folder: URL) throws -> (String, String) {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("make_sheet_sets.py").path
        let result = try CLIRunner.run([script, folder.path], executable: URL(fileURLWithPath: python))
        try #require(result.status == 0, "\(result.stderr)")
        return (folder.appendingPathComponent("issue-1/set.pdf").path, folder.appendingPathComponent("issue-2/set.pdf").path)
    }
}
