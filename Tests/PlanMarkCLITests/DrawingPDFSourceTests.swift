import Foundation
import PlanMarkSQLite
import PlanMarkStore
import Testing

/// `drawing show` and `drawing list`, text and JSON, name the page and resolution of a drawing (and of a revision) whose
/// image is a page of a PDF; a PNG drawing's output is as before. The PDF drawings are stored through the store's API
/// (the CLI's `drawing add plan.pdf` comes with the PDF renderer).
@Suite struct DrawingPDFSourceTests {
    /// A PDF's first bytes: the store reads no further than `%PDF-`.
    static let pdf = Array("%PDF-1.4\n%%EOF\n".utf8)

    static func json(_ text: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
    }

    /// A (PNG, 400 x 300) revised to page 1 of a PDF at 72 dpi (595 x 842 px), B a PNG drawing, P page 2 of the PDF at
    /// 300 dpi (595 * 300 / 72 = 2479.17 -> 2480, 842 * 300 / 72 = 3508.33 -> 3509).
    static func sandbox() async throws -> (StoreSandbox, String) {
        let sandbox = try StoreSandbox.withDrawing()
        #expect(try sandbox.run(["drawing", "add", try sandbox.png("b.png"), "--name", "B", "--no-tiles"]).status == 0)
        let path = sandbox.folder.appendingPathComponent("set.pdf").path
        try Data(pdf).write(to: URL(fileURLWithPath: path))
        let store = try SQLiteStore(path: sandbox.store, create: false)
        _ = try await store.addDrawing(NewDrawing(name: "P", imagePath: path, pdf: PDFPageImage(page: 2, dpi: 300, width: 2480, height: 3509)),
                                       regions: [])
        _ = try await store.reviseDrawing("A", NewRevision(imagePath: path, pdf: PDFPageImage(page: 1, dpi: 72, width: 595, height: 842)),
                                          dryRun: false, author: nil)
        return (sandbox, path)
    }

    @Test func showNamesThePageOfTheDrawingAndOfEachRevision() async throws {
        let (sandbox, path) = try await Self.sandbox()
        let p = try sandbox.run(["drawing", "show", "P"])
        #expect(p.status == 0, "\(p.stderr)")
        #expect(p.stdout.hasPrefix("name: P\nimage: \(path)\nsource: pdf page 2 at 300 dpi\nsha256: "))
        #expect(p.stdout.contains("\nsize: 2480x3509 px\n") && p.stdout.contains("\nrevision 1: 2480x3509 px, pdf page 2 at 300 dpi, 20"))
        let a = try sandbox.run(["drawing", "show", "A"]).stdout
        #expect(a.contains("\nsource: pdf page 1 at 72 dpi\n") && a.contains("\nsize: 595x842 px\n"))
        #expect(a.contains("\nrevision 1: 400x300 px, 20") && a.contains("\nrevision 2: 595x842 px, pdf page 1 at 72 dpi, 20"))
        let b = try sandbox.run(["drawing", "show", "B"]).stdout
        #expect(b.hasPrefix("name: B\nimage: ") && !b.contains("source:") && !b.contains("pdf"))

        let pJSON = try sandbox.run(["drawing", "show", "P", "--format", "json"]).stdout
        #expect(pJSON.contains(",\"pdf\":{\"page\":2,\"dpi\":300}"))
        let shown = try Self.json(pJSON)
        #expect(shown["pdf"] as? [String: Int] == ["page": 2, "dpi": 300] && shown["width"] as? Int == 2480)
        #expect((shown["revisions"] as! [[String: Any]]).map { $0["pdf"] as? [String: Int] } == [["page": 2, "dpi": 300]])
        let aJSON = try Self.json(try sandbox.run(["drawing", "show", "A", "--format", "json"]).stdout)
        #expect(aJSON["pdf"] as? [String: Int] == ["page": 1, "dpi": 72])
        let revisions = aJSON["revisions"] as! [[String: Any]]
        #expect(revisions[0]["pdf"] == nil && revisions[1]["pdf"] as? [String: Int] == ["page": 1, "dpi": 72])
        #expect(!(try sandbox.run(["drawing", "show", "B", "--format", "json"]).stdout.contains("pdf")))
    }

    @Test func listNamesThePageOfPDFDrawings() async throws {
        let (sandbox, _) = try await Self.sandbox()
        let text = try sandbox.run(["drawing", "list"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout == """
            A\t595x842\tzoom 8.0\tleaflet\t0 markers\t3 regions\tpdf page 1 at 72 dpi
            B\t400x300\tzoom 8.0\tleaflet\t0 markers\t0 regions
            P\t2480x3509\tzoom 8.0\tleaflet\t0 markers\t0 regions\tpdf page 2 at 300 dpi

            """)
        let drawings = try Self.json(try sandbox.run(["drawing", "list", "--format", "json"]).stdout)["drawings"] as! [[String: Any]]
        #expect(drawings.map { $0["name"] as? String } == ["A", "B", "P"])
        #expect(drawings.map { $0["pdf"] as? [String: Int] } == [["page": 1, "dpi": 72], nil, ["page": 2, "dpi": 300]])
        #expect(drawings[1].keys.contains("pdf") == false)
    }
}
