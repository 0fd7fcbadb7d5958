import Foundation
import PlanMarkRender
import PlanMarkTestSupport
import Testing

/// `Drawings/sample/plan.pdf` is the sample plan `plan.png` as vectors: `make_sample.py` draws both with one function.
/// What the PDF is comes from poppler's tools and pypdf, never from PlanMark's own PDF renderer: pdftoppm draws it,
/// pdfinfo and pypdf read its page and outline. Then the demo's use of it: at 150 dpi it is a drawing of the PNG's
/// size on which the sample's regions and markers apply unchanged (the outcomes worked out by hand in
/// `expected-validate.jsonl`).
@Suite(.enabled(if: SamplePDF.missing == nil, "\(SamplePDF.missing ?? "")")) struct SamplePDFTests {
    /// pdftoppm at 150 dpi draws the PDF at 2400 x 1600 px, within a few grey levels of plan.png: measured (poppler
    /// 22.12, cairo 1.16) 1.17 on average over the whole sheet and at most 24.4 in a 50 x 50 px block (anti-aliased
    /// edges and the glyphs' unhinted spacing). For scale: plan.png against itself moved by one pixel is 2.90 on
    /// average; without the column (40 x 40 px) a block is 40.8, without a room's label 55.5; a white sheet is 18.3.
    @Test func pdftoppmDrawsThePNGsPlanAt150Dpi() throws {
        let folder = try CLIRunner.temporaryFolder()
        let prefix = folder.appendingPathComponent("plan").path
        let drawn = try CLIRunner.run(["-r", "150", "-gray", "-singlefile", SamplePDF.pdf, prefix], executable: URL(fileURLWithPath: SamplePDF.pdftoppm))
        try #require(drawn.status == 0, "pdftoppm: \(drawn.stderr)")
        let pdf = try SamplePDF.pgm(Data(contentsOf: URL(fileURLWithPath: prefix + ".pgm")))
        let png = try PNGDecoder().decode(path: SamplePDF.png)
        #expect(pdf.width == 2400 && pdf.height == 1600)
        try #require(pdf.width == png.width && pdf.height == png.height, "pdftoppm \(pdf.width) x \(pdf.height), plan.png \(png.width) x \(png.height)")

        // plan.png is grey: its red byte is its grey level.
        let difference = (0..<pdf.grey.count).map { abs(Int(pdf.grey[$0]) - Int(png.pixels[$0 * 4])) }
        let mean = Double(difference.reduce(0, +)) / Double(difference.count)
        #expect(mean < 2.0, "mean absolute difference \(mean) grey levels")
        let side = 50
        var worst = (mean: 0.0, x: 0, y: 0)
        for y in stride(from: 0, to: pdf.height, by: side) {
            for x in stride(from: 0, to: pdf.width, by: side) {
                var total = 0
                for row in y..<min(y + side, pdf.height) {
                    for column in x..<min(x + side, pdf.width) { total += difference[row * pdf.width + column] }
                }
                let blockMean = Double(total) / Double(side * side)
                if blockMean > worst.mean { worst = (blockMean, x, y) }
            }
        }
        #expect(worst.mean < 35, "the block at \(worst.x),\(worst.y) differs by \(worst.mean) grey levels on average")
    }

    /// One page of 1152 x 768 pt (2400 x 1600 px at 150 dpi: 2400 * 72 / 150 = 1152), whose outline entry names the
    /// sheet as its title block does: pdfinfo's and pypdf's reading.
    @Test func pdfinfoAndPypdfSeeOneSheetNamedInTheOutline() throws {
        let info = try CLIRunner.run([SamplePDF.pdf], executable: URL(fileURLWithPath: SamplePDF.pdfinfo))
        try #require(info.status == 0, "pdfinfo: \(info.stderr)")
        let fields = Dictionary(info.stdout.split(separator: "\n").compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }, uniquingKeysWith: { first, _ in first })
        #expect(fields["Pages"] == "1")
        #expect(fields["Page size"] == "1152 x 768 pts")
        #expect(fields["Title"] == SamplePDF.sheet)

        let script = """
            import json, sys, pypdf
            reader = pypdf.PdfReader(sys.argv[1])
            print(json.dumps({"pages": len(reader.pages), "box": [float(v) for v in reader.pages[0].mediabox],
                              "outline": [[o.title, reader.get_destination_page_number(o)] for o in reader.outline]}))
            """
        let read = try CLIRunner.run(["-c", script, SamplePDF.pdf], executable: URL(fileURLWithPath: SamplePDF.python))
        try #require(read.status == 0, "pypdf: \(read.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any])
        #expect(json["pages"] as? Int == 1)
        #expect(json["box"] as? [Double] == [0, 0, 1152, 768])
        let outline = try #require(json["outline"] as? [[Any]])
        #expect(outline.count == 1 && outline.first?.first as? String == SamplePDF.sheet && outline.first?.last as? Int == 0)
    }

    /// `drawing add plan.pdf --dpi 150` with the sample's regions: a 2400 x 1600 drawing; importing markers.csv stores
    /// the 17 markers `expected-validate.jsonl` says are valid and refuses the other 5 for its reasons; and
    /// `sheets add` names the page from the outline.
    @Test func theSampleMarkersApplyToThePDFDrawingUnchanged() throws {
        let sandbox = try StoreSandbox()
        let regions = CLIRunner.repositoryRoot.appendingPathComponent("Drawings/sample/regions.geojson").path
        let markers = CLIRunner.repositoryRoot.appendingPathComponent("Drawings/sample/markers.csv").path
        let added = try sandbox.run(["drawing", "add", SamplePDF.pdf, "--name", "L2", "--dpi", "150", "--regions", regions, "--no-tiles"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout == "added drawing \"L2\" (2400x1600 px, pdf page 1 at 150 dpi, zoom 8.0, leaflet, 9 regions)\n")

        let imported = try sandbox.run(["import", "L2", markers, "--skip-invalid"])
        #expect(imported.status == 1, "\(imported.stderr)")
        #expect(imported.stdout == "17\n")
        let expected = try SamplePDF.expectedOutcomes()
        #expect(expected.filter(\.valid).count == 17)
        for outcome in expected where !outcome.valid {
            #expect(imported.stderr.contains("marker \(outcome.id)") && imported.stderr.contains(outcome.reason),
                    "\(outcome.id) (\(outcome.reason)) not refused:\n\(imported.stderr)")
        }
        // Each stored marker (in file order, the invalid rows skipped) keeps its id and has the rooms
        // expected-validate.jsonl lists for it, in the regions file's order.
        let listed = try sandbox.run(["markers", "L2", "--format", "json"])
        try #require(listed.status == 0, "\(listed.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any], "\(listed.stdout)")
        let stored = try #require(document["markers"] as? [[String: Any]], "\(listed.stdout)")
        #expect(stored.map { $0["id"] as? String ?? "" } == expected.filter(\.valid).map(\.id))
        #expect(stored.map { $0["rooms"] as? [String] ?? ["?"] } == expected.filter(\.valid).map(\.rooms))

        let sheets = try sandbox.run(["sheets", "add", SamplePDF.pdf, "--dpi", "150"])
        #expect(sheets.status == 0, "\(sheets.stderr)")
        #expect(sheets.stdout == "1\t\(SamplePDF.sheet)\t2400 x 1600\tstored\n")
    }
}

/// The sample's files and the tools that read them.
enum SamplePDF {
    static let python = "/usr/bin/python3"
    static let pdftoppm = "/usr/bin/pdftoppm"
    static let pdfinfo = "/usr/bin/pdfinfo"
    static let pdf = CLIRunner.repositoryRoot.appendingPathComponent("Drawings/sample/plan.pdf").path
    static let png = CLIRunner.repositoryRoot.appendingPathComponent("Drawings/sample/plan.png").path
    /// The outline entry, as the title block names the sheet (drawing no. A-201, level 2, general arrangement).
    static let sheet = "A-201 - Level 2 general arrangement"

    /// Why the PDF cannot be checked here, or nil.
    static let missing: String? = {
        for tool in [pdftoppm, pdfinfo] where !FileManager.default.isExecutableFile(atPath: tool) {
            return "\(tool) is missing (Debian: poppler-utils)"
        }
        let probe = try? CLIRunner.run(["-c", "import pypdf"], executable: URL(fileURLWithPath: python))
        return probe?.status == 0 ? nil : "pypdf is missing (Debian: python3-pypdf)"
    }()

    /// A binary PGM (P5, maxval 255): its size and grey bytes, rows top to bottom.
    /// - Complexity: O(n) for n bytes.
    static func pgm(_ data: Data) throws -> (width: Int, height: Int, grey: [UInt8]) {
        let bytes = [UInt8](data)
        var fields: [String] = []
        var index = 0
        // Four fields (magic, width, height, maxval) separated by white space, then one white space byte.
        while fields.count < 4, index < bytes.count {
            while index < bytes.count, bytes[index] == 0x20 || (0x09...0x0D).contains(bytes[index]) { index += 1 }
            var field = ""
            while index < bytes.count, !(bytes[index] == 0x20 || (0x09...0x0D).contains(bytes[index])) {
                field.append(Character(UnicodeScalar(bytes[index])))
                index += 1
            }
            fields.append(field)
        }
        index += 1
        guard fields.count == 4, fields[0] == "P5", fields[3] == "255", let width = Int(fields[1]), let height = Int(fields[2]),
              bytes.count - index == width * height
        else { throw PGMError(fields: fields, bytes: bytes.count) }
        return (width, height, Array(bytes[index...]))
    }

    struct PGMError: Error { var fields: [String]; var bytes: Int }

    /// One line of expected-validate.jsonl: the marker, valid or not and why, and the rooms that cover it.
    struct Outcome { var id: String; var valid: Bool; var reason: String; var rooms: [String] }

    /// expected-validate.jsonl, worked out by hand (Drawings/README.md).
    static func expectedOutcomes() throws -> [Outcome] {
        let path = CLIRunner.repositoryRoot.appendingPathComponent("Drawings/sample/expected-validate.jsonl").path
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { line in
            let row = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let regions = row["regions"] as? [[String: Any]] ?? []
            return Outcome(id: row["id"] as? String ?? "", valid: row["valid"] as? Bool ?? false, reason: row["reason"] as? String ?? "",
                           rooms: regions.filter { $0["kind"] as? String == "room" }.compactMap { $0["id"] as? String })
        }
    }
}
