import Foundation
import PlanMarkTestSupport
import Testing

/// Text is text: every character a user stored comes out of every output, or the input is refused at the door
/// with a one-line reason. Each output is read back by a reader other than PlanMark's own: Foundation's JSON
/// parser (json, jsonl, GeoJSON), Python's `csv` module (CSV), the text format's documented escapes undone here,
/// poppler's `pdftotext` (the PDF report), Python's `html.unescape` (the HTML report). Strings are compared
/// scalar by scalar, since Swift's `==` would call a decomposed `é` equal to a composed one.
@Suite(.serialized) struct AwkwardTextTests {
    /// Notes that have broken text handling somewhere: escapes of each format, line and paragraph separators,
    /// byte order marks, zero-width and combining characters, right-to-left scripts, characters beyond the BMP,
    /// private use, markup and format strings.
    static let corpus: [String] = [
        "Façade naïve café — «quotes» ‘single’ “double”",
        "e\u{301}cole de\u{301}compose\u{301}e (combining acute)",
        "שלום עולם, Hebrew right to left",
        "مرحبا بالعالم Arabic",
        "Ελληνικά και Кириллица",
        "emoji 👷🏽‍♀️ 🧱 🔥 flags 🇩🇪",
        "\"quoted\", 'single', back\\slash \\n not a newline",
        "<script>alert(1)</script> & &amp; <b>bold</b>",
        "=SUM(A1:A2) +1 -1 @cmd",
        "line one\nline two\r\nline three\rline four",
        "tab\tseparated\tvalues",
        "separators \u{2028} line \u{2029} paragraph \u{85} next line",
        "\u{FEFF}byte order mark at the start",
        "zero\u{200B}width\u{200C}non\u{200D}joiner\u{2060}word joiner",
        "100% %s %n %@ {0} ${x} $(rm) `cmd`",
        "private use \u{E000}\u{F8FF} and plane 15 \u{F0000}",
        "math Ω≈ç√∫˜µ≤≥÷ ∑ ∞ ½ ² ℃",
        "   leading and trailing spaces   ",
        String(repeating: "Wall", count: 150),
    ]

    static func scalars(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }

    /// Drawing A with one marker per corpus string: the string as note, assignee and category (categories are at
    /// most 100 characters, so the long one is cut for that field only, before it is stored).
    static func sandbox() throws -> StoreSandbox {
        let sandbox = try StoreSandbox.withDrawing()
        for (index, text) in corpus.enumerated() {
            let x = 20 + (index % 10) * 35, y = 40 + (index / 10) * 100
            let result = try sandbox.run(["mark", "A", String(x), String(y), "--note", text, "--assignee", text,
                                          "--category", String(text.prefix(100))])
            #expect(result.status == 0, "\(text): \(result.stderr)")
        }
        return sandbox
    }

    /// Python reads `file` with `code` (which sets `fields`, a list of lists of strings, one list a marker or
    /// region) and prints them as code points, so no Swift or Foundation text decoding stands between the output
    /// and the comparison (Foundation's JSON reader drops a leading U+FEFF from a string).
    static func pythonFields(_ code: String, file: String) throws -> [[[UInt32]]] {
        let script = "import csv, json, sys\n" + code + "\nprint(json.dumps([[[ord(c) for c in f] for f in row] for row in fields]))"
        let output = try Poppler.run("python3", ["-c", script, file])
        return try JSONSerialization.jsonObject(with: output.stdoutData) as! [[[UInt32]]]
    }

    /// Expects `got` (one entry a marker) to be `want`, naming the first entry that differs.
    static func expectSame(_ got: [[UInt32]], _ want: [[UInt32]], _ what: String) {
        #expect(got.count == want.count, "\(what): \(got.count) entries, \(want.count) expected")
        for (index, (a, b)) in zip(got, want).enumerated() where a != b {
            Issue.record("\(what): entry \(index) \(corpus[index].debugDescription.prefix(60)) came out as \(String(String.UnicodeScalarView(a.compactMap(Unicode.Scalar.init))).debugDescription.prefix(80))")
        }
    }

    @Test func jsonGeoJSONCSVAndTextCarryEveryCharacter() async throws {
        let sandbox = try Self.sandbox()
        let want = Self.corpus.map(Self.scalars)
        func saved(_ format: String) throws -> String {
            let path = try sandbox.file("markers." + format, "")
            try sandbox.run(["markers", "A", "--format", format]).stdoutData.write(to: URL(fileURLWithPath: path))
            return path
        }
        // jsonl and json, read by Python's json module.
        let jsonl = try Self.pythonFields("""
            rows = [json.loads(line) for line in open(sys.argv[1], encoding='utf-8')]
            fields = [[r['note'], r['assignee']] for r in rows]
            """, file: try saved("jsonl"))
        Self.expectSame(jsonl.map { $0[0] }, want, "jsonl note")
        Self.expectSame(jsonl.map { $0[1] }, want, "jsonl assignee")
        let json = try Self.pythonFields("fields = [[m['note']] for m in json.load(open(sys.argv[1], encoding='utf-8'))['markers']]",
                                         file: try saved("json"))
        Self.expectSame(json.map { $0[0] }, want, "json note")
        // GeoJSON.
        let geojson = try Self.pythonFields(
            "fields = [[f['properties']['note']] for f in json.load(open(sys.argv[1], encoding='utf-8'))['features']]",
            file: try saved("geojson"))
        Self.expectSame(geojson.map { $0[0] }, want, "geojson note")
        // CSV, read by Python's csv module (RFC 4180 quoting, line breaks inside quoted fields kept).
        let csv = try Self.pythonFields("""
            fields = [[r['note'], r['assignee'], r['category']] for r in csv.DictReader(open(sys.argv[1], newline='', encoding='utf-8'))]
            """, file: try saved("csv"))
        Self.expectSame(csv.map { $0[0] }, want, "csv note")
        Self.expectSame(csv.map { $0[1] }, want, "csv assignee")
        Self.expectSame(csv.map { $0[2] }, Self.corpus.map { Self.scalars(String($0.prefix(100))) }, "csv category")
        // Text: one line a marker whatever the note holds; the note is the last column, escapes undone by hand.
        let text = try sandbox.run(["markers", "A"]).stdoutData
        let lines = text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropFirst().dropLast()
        let notes = lines.map { line in
            Self.unescapeText(Array(line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false).last!))
        }
        Self.expectSame(notes, want, "text note")
    }

    /// The text format's escapes undone (`\\`, `\t`, `\n`, `\r`), then the UTF-8 decoded by hand-checked Swift
    /// (`String(validating:)`, which keeps every scalar).
    static func unescapeText(_ field: [UInt8]) -> [UInt32] {
        var out: [UInt8] = [], escaping = false
        for byte in field {
            if escaping {
                switch byte {
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "r"): out.append(13)
                default: out.append(byte)
                }
                escaping = false
            } else if byte == UInt8(ascii: "\\") {
                escaping = true
            } else {
                out.append(byte)
            }
        }
        return (String(validating: out, as: UTF8.self) ?? "\u{FFFD}invalid UTF-8").unicodeScalars.map(\.value)
    }

    /// The PDF report through pdftotext and the HTML report through Python's html.unescape: every note's
    /// characters, in order (white space aside: both lay text out in lines). Nothing the user typed is markup in
    /// the HTML.
    @Test(.enabled(if: ReportCommandTests.enabled, "poppler-utils is not installed")) func reportsCarryEveryCharacter() async throws {
        guard popplerPresent() else { return }
        let sandbox = try Self.sandbox()
        func squeezed(_ text: String) -> [UInt32] {
            Self.scalars(text).filter { !(Unicode.Scalar($0)?.properties.isWhitespace ?? false) }
        }
        let pdf = sandbox.folder.appendingPathComponent("report.pdf").path
        let report = try sandbox.run(["report", "A", "-o", pdf])
        try #require(report.status == 0, "\(report.stderr)")
        // pdftotext marks right-to-left runs it finds with embedding controls (U+202B ... U+202C); the corpus holds
        // none, so they are the reader's and are dropped. The PDF draws such runs right to left (`ReportBidi`): on
        // main 668aa73 they were drawn in logical order, mirrored, and pdftotext read them back reversed.
        let pdfText = squeezed(try Poppler.run("pdftotext", [pdf, "-"]).stdout).filter { !(0x202A...0x202E).contains($0) }
        for note in Self.corpus {
            if !Self.contains(pdfText, squeezed(note)) { Issue.record("PDF: \(note.debugDescription.prefix(80)) not found") }
        }

        let folder = sandbox.folder.appendingPathComponent("html")
        let html = try sandbox.run(["report", "A", "--format", "html", "-o", folder.path])
        try #require(html.status == 0, "\(html.stderr)")
        let index = folder.appendingPathComponent("index.html").path
        let raw = try String(contentsOfFile: index, encoding: .utf8)
        #expect(!raw.contains("<script>alert") && !raw.contains("<b>bold"))
        let unescaped = try Poppler.run("python3", ["-c", """
            import html, re, sys
            text = open(sys.argv[1], encoding='utf-8').read()
            sys.stdout.write(html.unescape(re.sub(r'<[^>]*>', ' ', text)))
            """, index]).stdout
        let htmlText = squeezed(unescaped)
        for note in Self.corpus {
            if !Self.contains(htmlText, squeezed(note)) { Issue.record("HTML: \(note.debugDescription.prefix(80)) not found") }
        }
    }

    /// The review image with every corpus string as a room name in its legend: drawn (exit 0, a PNG of the
    /// requested size), nothing refused or cut short on stderr.
    @Test func reviewImageLegendTakesEveryString() async throws {
        let sandbox = try StoreSandbox()
        var features: [[String: Any]] = []
        for (index, name) in Self.corpus.enumerated() {
            let x0 = 10 + index * 20
            features.append(["type": "Feature", "id": "R\(index)", "properties": ["name": name],
                             "geometry": ["type": "Polygon", "coordinates": [[[x0, 10], [x0 + 20, 10], [x0 + 20, 290], [x0, 290], [x0, 10]]]]])
        }
        let regions = try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": features])
        let path = try sandbox.file("regions.geojson", String(decoding: regions, as: UTF8.self))
        let added = try sandbox.run(["drawing", "add", try sandbox.png(), "--name", "A", "--regions", path])
        try #require(added.status == 0, "\(added.stderr)")
        let exportPath = try sandbox.file("export.geojson", "")
        try sandbox.run(["regions", "export", "A"]).stdoutData.write(to: URL(fileURLWithPath: exportPath))
        let names = try Self.pythonFields(
            "fields = [[f['properties']['name']] for f in json.load(open(sys.argv[1], encoding='utf-8'))['features']]", file: exportPath)
        Self.expectSame(names.map { $0[0] }, Self.corpus.map(Self.scalars), "regions export name")
        let rendered = try sandbox.run(["render", "A", "--legend", "-o", "review.png"])
        #expect(rendered.status == 0 && rendered.stderr.isEmpty, "\(rendered.stderr)")
        let png = try Data(contentsOf: sandbox.folder.appendingPathComponent("review.png"))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    /// Noncharacters (cairo, and so the PDF report, refuses them) are refused at the door, in every text field,
    /// with one line naming the field and the code point, exit 65, and nothing stored.
    @Test(arguments: [0xFFFE, 0xFFFF, 0xFDD0, 0xFDEF, 0x1FFFE, 0x10FFFF] as [UInt32])
    func noncharactersAreRefusedAtTheDoor(codePoint: UInt32) async throws {
        let noncharacter = String(Unicode.Scalar(codePoint)!)
        let sandbox = try StoreSandbox.withDrawing()
        #expect(try sandbox.run(["mark", "A", "50", "50", "--note", "fine"]).status == 0)
        let before = try sandbox.snapshot()
        let code = String(noncharacter.unicodeScalars.first!.value, radix: 16, uppercase: true)
        for arguments in [["mark", "A", "60", "60", "--note", "a\(noncharacter)b"],
                          ["mark", "A", "60", "60", "--assignee", "x\(noncharacter)"],
                          ["note", "A", "1", "after \(noncharacter) the end"],
                          ["drawing", "rename", "A", "B\(noncharacter)"]] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 65, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("planmark: ") && result.stderr.contains("noncharacter U+\(code.count < 4 ? String(repeating: "0", count: 4 - code.count) + code : code)"),
                    "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
        #expect(try sandbox.snapshot() == before)
    }

    /// True when `needle` stands in `haystack` as a contiguous run.
    static func contains(_ haystack: [UInt32], _ needle: [UInt32]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in haystack[start..<start + needle.count].elementsEqual(needle) }
    }
}
