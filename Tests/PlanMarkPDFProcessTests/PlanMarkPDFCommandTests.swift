import Foundation
import PlanMarkPDFCore
import PlanMarkPDFTestSupport
import PlanMarkTestSupport
import Testing

/// `planmark-pdf` run as a person runs it: its exit statuses, its one stderr line, its output formats.
@Suite(.enabled(if: PDFProcessFixtures.missing == nil, "\(PDFProcessFixtures.missing ?? "")"), .hangGuard)
struct PlanMarkPDFCommandTests {
    /// A refused PDF: status 65 and one line, `planmark-pdf: CODE: FILE: what`, with --name as FILE.
    @Test func refusalIsOneLineWithItsCode() throws {
        let text = TestFolder.path("plan", extension: "pdf")
        try Data("hello\n".utf8).write(to: text)
        let output = try ChildCommand.run(["info", text.path, "--name", "plan.pdf"])
        #expect(output.status == 65)
        #expect(output.stderr == "planmark-pdf: not_pdf: plan.pdf: not a PDF file\n")
        #expect(output.stdout.isEmpty)
    }

    /// 66 for a missing file, 64 for bad usage (no --page), with nothing on stdout.
    @Test func missingFileAndUsage() throws {
        let path = TestFolder.path("nothing", extension: "pdf").path
        let missing = try ChildCommand.run(["info", path])
        #expect(missing.status == 66)
        #expect(missing.stderr == "planmark-pdf: \(path): no such file\n")
        let usage = try ChildCommand.run(["render", try PDFFixtures.path("sheets.pdf"), "--dpi", "72"])
        #expect(usage.status == 64)
        #expect(usage.stdout.isEmpty)
    }

    /// info: one line of JSON, `name` null where a page has none (page 4), sizes as make_pdfs.py drew them.
    @Test func infoIsOneLineOfJSON() throws {
        let output = try ChildCommand.run(["info", try PDFFixtures.path("sheets.pdf"), "--dpi", "72"])
        #expect(output.status == 0)
        let text = String(decoding: output.stdout, as: UTF8.self)
        #expect(text.hasSuffix("}\n") && text.dropLast().firstIndex(of: "\n") == nil)
        let object = try #require(try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any])
        #expect(object["pageCount"] as? Int == 4)
        let pages = try #require(object["pages"] as? [[String: Any]])
        #expect(pages.map { $0["width"] as? Int } == [612, 842, 1224, 300])
        #expect(pages[3]["name"] is NSNull)
    }

    /// render: a PAM header then exactly width x height x 4 bytes; 612 x 792 at 72 dpi, white at the corner.
    @Test func renderIsPAM() throws {
        let output = try ChildCommand.run(["render", try PDFFixtures.path("sheets.pdf"), "--page", "1", "--dpi", "72"])
        #expect(output.status == 0)
        let header = Array("P7\nWIDTH 612\nHEIGHT 792\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n".utf8)
        #expect(Array(output.stdout.prefix(header.count)) == header)
        #expect(output.stdout.count == header.count + 612 * 792 * 4)
        #expect(Array(output.stdout[header.count..<header.count + 4]) == [255, 255, 255, 255])
    }
}
