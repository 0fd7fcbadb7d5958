import Foundation
import PlanMarkRender
import PlanMarkTestSupport
import Testing

/// Poppler's command-line tools (Debian's `poppler-utils`), which read the reports back.
enum Poppler {
    static let tools = ["pdfinfo", "pdftotext", "pdfimages", "pdftoppm"]

    /// What is missing, nil when every tool is there.
    static let missing: String? = {
        let absent = tools.filter { !FileManager.default.isExecutableFile(atPath: "/usr/bin/" + $0) }
        return absent.isEmpty ? nil : "missing " + absent.joined(separator: ", ") + " (poppler-utils; bash Drawings/install-deps.sh installs it)"
    }()

    static let inCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// Runs `/usr/bin/TOOL arguments` and returns its stdout (the test fails on a non-zero exit).
    static func run(_ tool: String, _ arguments: [String]) throws -> CLIRunner.Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/" + tool)
        process.arguments = arguments
        let out = ChildProcess.pipe(), err = ChildProcess.pipe()
        process.standardOutput = out
        process.standardError = err
        try ChildProcess.run(process)
        let outData = out.fileHandleForReading.readBytesToEnd()
        let errData = err.fileHandleForReading.readBytesToEnd()
        process.waitUntilExit()
        let result = CLIRunner.Output(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                                      stderr: String(decoding: errData, as: UTF8.self), stdoutData: outData)
        #expect(result.status == 0, "\(tool) \(arguments): \(result.stderr)")
        return result
    }

    /// `pdfinfo`'s page count.
    static func pages(_ pdf: String) throws -> Int? {
        let info = try run("pdfinfo", [pdf]).stdout
        guard let line = info.split(separator: "\n").first(where: { $0.hasPrefix("Pages:") }) else { return nil }
        return Int(line.dropFirst("Pages:".count).trimmingCharacters(in: .whitespaces))
    }

    /// `pdftotext -layout` of pages `first...last` (all by default).
    static func text(_ pdf: String, first: Int? = nil, last: Int? = nil) throws -> String {
        var arguments = ["-layout"]
        if let first { arguments += ["-f", String(first)] }
        if let last { arguments += ["-l", String(last)] }
        return try run("pdftotext", arguments + [pdf, "-"]).stdout
    }
}

/// Records the failure under CI=true when poppler-utils is missing (and says so); true when the test can go on.
func popplerPresent() -> Bool {
    if let missing = Poppler.missing {
        Issue.record("CI=true but the report tests cannot read PDFs: \(missing)")
        return false
    }
    return true
}

/// `planmark report` through the built binary, read back with poppler-utils. Every expected value comes from
/// the inputs the test writes (the notes, the JPEG fixture's own size and bytes, the sheet's known colours).
@Suite struct ReportCommandTests {
    static let enabled = Poppler.missing == nil || Poppler.inCI
    static let jpegFixture = CLIRunner.repositoryRoot.appendingPathComponent("Tests/PlanMarkCLITests/Fixtures/report/photo-64x48.jpg")

    /// Drawing A (400 x 300, rooms R1 left and R2 right) with three markers:
    /// 1 open in R1, assigned to ann, with the JPEG photo and a PNG photo (30 x 20);
    /// 2 in progress in R2, assigned to bob; 3 open in R2, unassigned, due 2020-01-01 (overdue).
    static func sandboxWithMarkers() throws -> StoreSandbox {
        let sandbox = try StoreSandbox.withDrawing()
        #expect(try sandbox.run(["mark", "A", "100", "150", "--note", "Cracked tile near the door", "--assignee", "ann",
                                 "--category", "Tiling", "--priority", "high"]).status == 0)
        #expect(try sandbox.run(["mark", "A", "300", "100", "--note", "Socket cover missing", "--assignee", "bob"]).status == 0)
        #expect(try sandbox.run(["status", "A", "2", "in-progress"]).status == 0)
        #expect(try sandbox.run(["mark", "A", "320", "220", "--note", "Paint run on the wall", "--due", "2020-01-01"]).status == 0)
        let attached = try sandbox.run(["attach", "A", "1", jpegFixture.path, "--caption", "tile photo"])
        #expect(attached.status == 0, "\(attached.stderr)")
        // A 30 x 20 PNG, red.
        let image = RGBAImage(width: 30, height: 20, pixels: [UInt8]((0..<600).flatMap { _ in [220, 20, 20, 255] as [UInt8] }))
        let pngPath = sandbox.folder.appendingPathComponent("photo.png").path
        try Data(try PNGEncoder().encode(image)).write(to: URL(fileURLWithPath: pngPath))
        #expect(try sandbox.run(["attach", "A", "1", pngPath]).status == 0)
        return sandbox
    }

    /// Each listed marker's number and note are in the PDF's text; page 1 carries the title, drawing, revision,
    /// date, filters and counts and no marker block; the last page's footer says `Page M of M`, M pdfinfo's page count.
    @Test(.enabled(if: enabled, "poppler-utils is not installed")) func pdfListsEveryMarkerAsText() async throws {
        guard popplerPresent() else { return }
        let sandbox = try Self.sandboxWithMarkers()
        let pdf = sandbox.folder.appendingPathComponent("report.pdf").path
        let result = try sandbox.run(["report", "A", "-o", pdf])
        try #require(result.status == 0, "\(result.stderr)")
        let pages = try #require(try Poppler.pages(pdf))
        #expect(pages >= 2)
        // Nothing on stdout; on stderr the one line that says what was written: pdfinfo's page count, 3 markers.
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "planmark: report: wrote \(pages) pages (3 markers) to \(pdf)\n")
        let text = try Poppler.text(pdf)
        for (number, note) in [(1, "Cracked tile near the door"), (2, "Socket cover missing"), (3, "Paint run on the wall")] {
            #expect(text.contains("#\(number) "), "marker \(number)")
            #expect(text.contains(note), "\(note)")
        }
        #expect(text.contains("OVERDUE"))  // marker 3, due 2020-01-01
        #expect(text.contains("2020-01-01 (OVERDUE)"))
        #expect(text.contains("ann") && text.contains("bob") && text.contains("Tiling"))
        let first = try Poppler.text(pdf, first: 1, last: 1)
        #expect(first.contains("Punch list"))
        #expect(first.contains("A, revision 1 (400 x 300 px)"))
        #expect(first.contains("3 markers: Open 2 · In progress 1"))
        #expect(first.contains("none (every marker)"))
        #expect(!first.contains("#1 "))
        #expect(try Poppler.text(pdf, first: pages, last: pages).contains("Page \(pages) of \(pages)"))
        // History: marker 2's status change is listed.
        #expect(text.contains("status → in progress"))
    }

    /// Page 1 names the drawing's current revision and, once the drawing is calibrated, each room's area: A is
    /// calibrated at 19 m over the 190 px from (10,10) to (200,10), 0.1 m a pixel; rooms R1 ("Room 1") and R2 are
    /// 190 x 280 px each, 53,200 px², so 532.00 m² each (to 0.01 m²), each by id and name (R2 has no name). Revised once (the same sheet again), it is on revision 2.
    @Test(.enabled(if: enabled, "poppler-utils is not installed")) func pageOneShowsRevisionAndRoomAreas() async throws {
        guard popplerPresent() else { return }
        let sandbox = try Self.sandboxWithMarkers()
        let before = sandbox.folder.appendingPathComponent("before.pdf").path
        try #require(try sandbox.run(["report", "A", "-o", before]).status == 0)
        let uncalibrated = try Poppler.text(before, first: 1, last: 1)
        #expect(uncalibrated.contains("A, revision 1 (400 x 300 px)"))
        #expect(!uncalibrated.contains("m²"))

        let calibrated = try sandbox.run(["drawing", "calibrate", "A", "--from", "10,10", "--to", "200,10", "--distance", "19"])
        try #require(calibrated.status == 0, "\(calibrated.stderr)")
        let revised = try sandbox.run(["drawing", "revise", "A", try sandbox.png("rev2.png")])
        try #require(revised.status == 0, "\(revised.stderr)")
        let pdf = sandbox.folder.appendingPathComponent("after.pdf").path
        try #require(try sandbox.run(["report", "A", "-o", pdf]).status == 0)
        let first = try Poppler.text(pdf, first: 1, last: 1)
        #expect(first.contains("A, revision 2 (400 x 300 px)"), "\(first)")
        #expect(first.contains("R1 Room 1 532.00 m²") && first.contains("R2 532.00 m²"), "\(first)")
    }

    /// The JPEG photo is in the PDF as a JPEG of its own size (64 x 48), byte for byte the attached file (pdfimages -j
    /// writes DCT streams out as they are, once for each page that shows it: the card and the photos' appendix); the
    /// PNG photo (30 x 20) is there losslessly (Flate, `image`).
    @Test(.enabled(if: enabled, "poppler-utils is not installed")) func jpegEmbeddedAsItIs() async throws {
        guard popplerPresent() else { return }
        let sandbox = try Self.sandboxWithMarkers()
        let pdf = sandbox.folder.appendingPathComponent("report.pdf").path
        try #require(try sandbox.run(["report", "A", "-o", pdf]).status == 0)
        // page num type width height color comp bpc enc ...
        let rows = try Poppler.run("pdfimages", ["-list", pdf]).stdout.split(separator: "\n").dropFirst(2)
            .map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        #expect(rows.contains { $0.count > 8 && $0[3] == "64" && $0[4] == "48" && $0[8] == "jpeg" }, "\(rows)")
        #expect(rows.contains { $0.count > 8 && $0[3] == "30" && $0[4] == "20" && $0[8] == "image" }, "\(rows)")
        let prefix = sandbox.folder.appendingPathComponent("extracted").path
        _ = try Poppler.run("pdfimages", ["-j", pdf, prefix])
        let original = try Data(contentsOf: Self.jpegFixture)
        let extracted = try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).filter { $0.hasPrefix("extracted") && $0.hasSuffix(".jpg") }
        #expect(extracted.count == 2)
        #expect(try extracted.map { try Data(contentsOf: sandbox.folder.appendingPathComponent($0)) } == [original, original])
    }

    /// Page 1 rendered by pdftoppm shows the sheet: a drawing whose left half is blue (0, 0, 255) and right half
    /// white, with no regions, is fitted to the text width (595.28 - 2 x 42 = 511.28 pt). At 72 dpi its blue half
    /// is about 255.6 x 383.5 px (the sheet is 400 x 300, so 511.28 x 383.46 pt): the blue pixels' box has that
    /// size, and they fill most of it (one small pin lies on it).
    @Test(.enabled(if: enabled, "poppler-utils is not installed")) func pageOneShowsTheSheet() async throws {
        guard popplerPresent() else { return }
        let sandbox = try StoreSandbox()
        var pixels = [UInt8]()
        for _ in 0..<300 { for x in 0..<400 { pixels += x < 200 ? [0, 0, 255, 255] : [255, 255, 255, 255] } }
        let plan = sandbox.folder.appendingPathComponent("blue.png")
        try Data(try PNGEncoder().encode(RGBAImage(width: 400, height: 300, pixels: pixels))).write(to: plan)
        try #require(try sandbox.run(["drawing", "add", plan.path, "--name", "B"]).status == 0)
        #expect(try sandbox.run(["mark", "B", "300", "150", "--note", "on the white half"]).status == 0)
        let pdf = sandbox.folder.appendingPathComponent("b.pdf").path
        try #require(try sandbox.run(["report", "B", "-o", pdf]).status == 0)
        let prefix = sandbox.folder.appendingPathComponent("page").path
        _ = try Poppler.run("pdftoppm", ["-r", "72", "-f", "1", "-l", "1", "-singlefile", pdf, prefix])
        let ppm = try PPM(Data(contentsOf: URL(fileURLWithPath: prefix + ".ppm")))
        #expect(ppm.width == 595 || ppm.width == 596)
        var count = 0, minX = Int.max, maxX = -1, minY = Int.max, maxY = -1
        for y in 0..<ppm.height {
            for x in 0..<ppm.width {
                let (r, g, b) = ppm.pixel(x, y)
                guard b > 200 && r < 60 && g < 60 else { continue }
                count += 1
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        let boxWidth = maxX - minX + 1, boxHeight = maxY - minY + 1
        #expect(abs(boxWidth - 256) <= 2, "blue box \(boxWidth) x \(boxHeight)")
        #expect(abs(boxHeight - 383) <= 2, "blue box \(boxWidth) x \(boxHeight)")
        #expect(Double(count) > 0.95 * 255.6 * 383.5, "\(count) blue pixels")
        #expect(minX >= 41 && minX <= 43)  // the left margin, 42 pt
        // A page with nothing on it would have no blue at all; the other half is white.
        let (r, g, b) = ppm.pixel(minX + 380, minY + 40)
        #expect(r > 240 && g > 240 && b > 240)
    }

    /// The filters pick the blocks (`--status open`: 1 and 3, not 2; `--assignee bob`: only 2), and the page says
    /// which; `--group-by assignee` heads the groups `Assignee: ann (1)`, `Assignee: bob (1)`, `Unassigned (1)`,
    /// in that order; `--group-by status` puts the in-progress marker after the open ones.
    @Test(.enabled(if: enabled, "poppler-utils is not installed")) func filtersAndGroupingChangeTheList() async throws {
        guard popplerPresent() else { return }
        let sandbox = try Self.sandboxWithMarkers()
        func report(_ arguments: [String]) throws -> String {
            let pdf = sandbox.folder.appendingPathComponent("r-\(UUID().uuidString).pdf").path
            let result = try sandbox.run(["report", "A", "-o", pdf] + arguments)
            #expect(result.status == 0, "\(result.stderr)")
            return try Poppler.text(pdf)
        }
        let open = try report(["--status", "open"])
        #expect(open.contains("#1 ") && open.contains("#3 ") && !open.contains("#2 "))
        #expect(open.contains("status=open") && open.contains("2 markers: Open 2"))
        let bob = try report(["--assignee", "bob"])
        #expect(bob.contains("#2 ") && !bob.contains("#1 ") && !bob.contains("#3 "))
        let grouped = try report(["--group-by", "assignee", "--paper", "letter"])
        let ann = try #require(grouped.range(of: "Assignee: ann (1)"))
        let bobHeading = try #require(grouped.range(of: "Assignee: bob (1)"))
        let none = try #require(grouped.range(of: "Unassigned (1)"))
        #expect(ann.lowerBound < bobHeading.lowerBound && bobHeading.lowerBound < none.lowerBound)
        let byStatus = try report(["--group-by", "status"])
        let openHeading = try #require(byStatus.range(of: "Status: Open (2)"))
        let progress = try #require(byStatus.range(of: "Status: In progress (1)"))
        let three = try #require(byStatus.range(of: "#3 "))
        let two = try #require(byStatus.range(of: "#2 "))
        #expect(openHeading.lowerBound < three.lowerBound && three.lowerBound < progress.lowerBound && progress.lowerBound < two.lowerBound)
        let byRoom = try report(["--group-by", "room"])
        #expect(byRoom.contains("Room R1 – Room 1 (1)") && byRoom.contains("Room R2 (2)"))
    }

    /// Letter paper is 612 x 792 pt, A4 595.28 x 841.89 pt (pdfinfo's page size).
    @Test(.enabled(if: enabled, "poppler-utils is not installed")) func paperSizes() async throws {
        guard popplerPresent() else { return }
        let sandbox = try Self.sandboxWithMarkers()
        for (paper, size) in [("letter", "612 x 792 pts"), ("a4", "595.276 x 841.89 pts")] {
            let pdf = sandbox.folder.appendingPathComponent("\(paper).pdf").path
            try #require(try sandbox.run(["report", "A", "--paper", paper, "-o", pdf]).status == 0)
            let line = try Poppler.run("pdfinfo", [pdf]).stdout.split(separator: "\n").first { $0.hasPrefix("Page size:") }
            #expect(line?.dropFirst("Page size:".count).trimmingCharacters(in: .whitespaces).hasPrefix(size) == true, "\(paper): \(line ?? "")")
        }
    }

    /// `--format html -o DIR`: index.html links the sheet, each marker's crop and the photos, every linked file
    /// exists (the JPEG byte for byte), each note is on the page; a non-empty DIR is refused with 73 and kept.
    @Test func htmlFolderReferencesItsFiles() async throws {
        let sandbox = try Self.sandboxWithMarkers()
        let folder = sandbox.folder.appendingPathComponent("site")
        let result = try sandbox.run(["report", "A", "--format", "html", "-o", folder.path])
        try #require(result.status == 0, "\(result.stderr)")
        // The line on stderr counts the files in DIR (index.html, the sheet, 3 crops, 2 photos) and the 3 markers.
        var files = 0
        let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = walk?.nextObject() as? URL {
            if try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true { files += 1 }
        }
        #expect(files == 7)
        #expect(result.stderr == "planmark: report: wrote \(files) files (3 markers) to \(folder.path)\n")
        let html = try String(contentsOf: folder.appendingPathComponent("index.html"), encoding: .utf8)
        var links: [String] = []
        var rest = Substring(html)
        while let start = rest.range(of: "src=\"") ?? rest.range(of: "href=\"") {
            let tail = rest[start.upperBound...]
            let end = tail.firstIndex(of: "\"")!
            links.append(String(tail[..<end]))
            rest = tail[end...]
        }
        #expect(Set(links).isSuperset(of: ["sheet.png", "crops/marker-1.png", "crops/marker-2.png", "crops/marker-3.png"]))
        let photos = links.filter { $0.hasPrefix("photos/") }
        #expect(Set(photos).count == 2 && photos.contains { $0.hasSuffix(".jpg") } && photos.contains { $0.hasSuffix(".png") })
        for link in links { #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(link).path), "\(link)") }
        let jpeg = try #require(photos.first { $0.hasSuffix(".jpg") })
        #expect(try Data(contentsOf: folder.appendingPathComponent(jpeg)) == Data(contentsOf: Self.jpegFixture))
        // The sheet PNG is the drawing's size scaled to at most 2000 px (400 x 300: unscaled).
        let sheetBytes = try Data(contentsOf: folder.appendingPathComponent("sheet.png"))
        let sheet = try PNGDecoder().decode(data: [UInt8](sheetBytes), source: "sheet.png")
        #expect(sheet.width == 400 && sheet.height == 300)
        // The sheet keeps its shape in a narrow window: its width and height attributes are the PNG's, and the rule
        // that narrows it (max-width: 100%) lets its height follow (height: auto), not the fixed attribute.
        let tagStart = try #require(html.range(of: "<img class=\"sheet\""))
        let tag = html[tagStart.lowerBound...].prefix { $0 != ">" }
        #expect(tag.contains("width=\"400\"") && tag.contains("height=\"300\""), "\(tag)")
        let rule = try #require(html.range(of: ".sheet {"))
        let css = html[rule.upperBound...].prefix { $0 != "}" }
        #expect(css.contains("max-width: 100%") && css.contains("height: auto"), "\(css)")
        for note in ["Cracked tile near the door", "Socket cover missing", "Paint run on the wall"] { #expect(html.contains(note)) }
        // No temporary folder is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).filter { $0.hasPrefix(".site") }.isEmpty)

        let again = try sandbox.run(["report", "A", "--format", "html", "-o", folder.path])
        #expect(again.status == 73)
        #expect(again.stderr.hasPrefix("planmark: \(folder.path): already exists and is not an empty folder"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("index.html").path))
    }

    /// Failures leave nothing behind: an unknown drawing is 66, a missing store 66, an output folder that does not
    /// exist 73, an unknown status 64; no PDF (nor temporary file) appears.
    @Test func failuresWriteNothing() async throws {
        let sandbox = try Self.sandboxWithMarkers()
        let pdf = sandbox.folder.appendingPathComponent("out.pdf").path
        let unknown = try sandbox.run(["report", "Z", "-o", pdf])
        #expect(unknown.status == 66 && unknown.stderr == "planmark: drawing \"Z\": no such drawing\n")
        let noFolder = try sandbox.run(["report", "A", "-o", sandbox.folder.appendingPathComponent("missing/out.pdf").path])
        #expect(noFolder.status == 73, "\(noFolder.stderr)")
        let badStatus = try sandbox.run(["report", "A", "--status", "done", "-o", pdf])
        #expect(badStatus.status == 64)
        let noStore = try CLIRunner.run(["report", "A", "-o", pdf, "--store", sandbox.folder.appendingPathComponent("none.sqlite").path])
        #expect(noStore.status == 66)
        let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path)
        #expect(!names.contains { $0.hasPrefix("out.pdf") || $0.hasPrefix(".out.pdf") }, "\(names)")
    }
}

/// A binary PPM (P6, maxval 255) as pdftoppm writes it.
struct PPM {
    let width: Int, height: Int
    let bytes: [UInt8]
    let offset: Int

    init(_ data: Data) throws {
        bytes = [UInt8](data)
        var fields: [String] = []
        var i = 0
        while fields.count < 4 {
            while bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
            var field = ""
            while !(bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09) {
                field.append(Character(UnicodeScalar(bytes[i])))
                i += 1
            }
            fields.append(field)
        }
        guard fields[0] == "P6", fields[3] == "255", let w = Int(fields[1]), let h = Int(fields[2]) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        width = w
        height = h
        offset = i + 1
    }

    func pixel(_ x: Int, _ y: Int) -> (Int, Int, Int) {
        let i = offset + (y * width + x) * 3
        return (Int(bytes[i]), Int(bytes[i + 1]), Int(bytes[i + 2]))
    }
}
