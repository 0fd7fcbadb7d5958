import CCairo
import Foundation
import PlanMarkPDFCore
import PlanMarkPDFProcess
import PlanMarkPDFTestSupport
import PlanMarkPDFVectors
import PlanMarkRender
import PlanMarkTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What `planmark-pdf script` writes, replayed (`PDFVectorPage`) and painted into a PDF by cairo: poppler-utils read
/// that PDF (pdfinfo for its size, pdftotext for its text and where the words are, pdffonts and pdfimages for what is
/// in it), against what they read in the fixture itself.
@Suite(.enabled(if: VectorFixtures.missing == nil, "\(VectorFixtures.missing ?? "")"), .hangGuard)
struct PDFVectorPageTests {
    /// A script written by hand replays into a page of its surface's size: pdfinfo reads 100 x 50 pt.
    @Test func handWrittenScriptReplays() throws {
        let script = "%!CairoScript\n<< /content //COLOR_ALPHA /width 100 /height 50 >> surface context\nn 10 10 30 30 rectangle\nfill+\npop\n"
        let page = try PDFVectorPage(script: Array(script.utf8))
        #expect(page.width == 100 && page.height == 50)
        let file = try VectorFixtures.write(page, name: "hand")
        #expect(try VectorFixtures.pageSize(file) == (100, 50))
    }

    /// A script the check lets through but the interpreter cannot run (popping an empty stack) is the interpreter's
    /// error, not a crash.
    @Test func interpreterErrorsAreErrors() {
        let script = "%!CairoScript\n<< /content //COLOR_ALPHA /width 10 /height 10 >> surface context\npop pop pop\n"
        do {
            _ = try PDFVectorPage(script: Array(script.utf8))
            Issue.record("replayed")
        } catch {
            #expect(error.code == "replay", "\(error)")
        }
    }

    /// text.pdf through the child and back: the page's size is pdfinfo's of the fixture, its words are text in the
    /// PDF it is painted into, each within half a point of where pdftotext finds it in the fixture, in a TrueType
    /// font with a Unicode map (pdffonts), and there is no image in it (pdfimages): the page stayed vectors.
    @Test func textStaysText() async throws {
        let fixture = try PDFFixtures.path("text.pdf")
        let script = try await PDFRenderer().script(file: fixture, page: 1, name: "text.pdf")
        let page = try PDFVectorPage(script: script)
        let file = try VectorFixtures.write(page, name: "text")
        #expect(try VectorFixtures.pageSize(file) == (try VectorFixtures.pageSize(fixture)))
        let words = try VectorFixtures.words(file), original = try VectorFixtures.words(fixture)
        #expect(words.map(\.text) == ["ROOM", "2.01", "KITCHEN", "2.02"])
        #expect(words.map(\.text) == original.map(\.text))
        for (word, expected) in zip(words, original) {
            #expect(abs(word.x - expected.x) < 0.5 && abs(word.y - expected.y) < 0.5, "\(word) vs \(expected)")
        }
        // name, type, encoding, embedded, subset, Unicode map, object, generation.
        let fonts = try VectorFixtures.tool("pdffonts", [file]).split(separator: "\n").dropFirst(2).map { $0.split(separator: " ") }
        #expect(fonts.count == 1 && fonts.allSatisfy { $0.count == 8 && $0[1] == "TrueType" && $0[3...5] == ["yes", "yes", "yes"] }, "\(fonts)")
        #expect(try VectorFixtures.tool("pdfimages", ["-list", file]).split(separator: "\n").count == 2)
    }

    /// A page in a Type 3 font is refused (not_vectors): CairoScript would carry its glyphs as procedures that cairo
    /// 1.16 writes empty.
    @Test func typeThreeFontIsRefused() async throws {
        let fixture = try PDFFixtures.path("type3.pdf")
        let error = await VectorFixtures.error { () async throws(PDFProcessError) in
            try await PDFRenderer().script(file: fixture, page: 1, name: "type3.pdf")
        }
        guard case .refused(_, let code, let message)? = error else {
            Issue.record("not refused: \(String(describing: error))")
            return
        }
        #expect(code == .notVectors)
        #expect(message.hasPrefix("type3.pdf: page 1: cannot be kept as vectors: it uses a Type 1, CFF or Type 3 font"), "\(message)")
    }

    /// A page with a soft mask (softmask.pdf) is never `render_failed`: cairo 1.16's script surface cannot record a
    /// gradient soft mask ("out of memory"), which is `not_vectors` (the report draws the page as pixels); a cairo that
    /// can must give a replay that pdftoppm draws as it draws the page (mean difference under 2 levels at 72 dpi).
    @Test func softMaskIsVectorsOrNotVectors() async throws {
        let fixture = try PDFFixtures.path("softmask.pdf")
        let script: [UInt8]
        do throws(PDFProcessError) {
            script = try await PDFRenderer().script(file: fixture, page: 1, name: "softmask.pdf")
        } catch {
            guard case .refused(_, .notVectors, let message) = error else {
                Issue.record("neither vectors nor not_vectors: \(error)")
                return
            }
            #expect(message.hasPrefix("softmask.pdf: page 1: cannot be kept as vectors: cairo's script surface cannot record it"), "\(message)")
            return
        }
        let file = try VectorFixtures.write(try PDFVectorPage(script: script), name: "softmask")
        let expected = try PDFFixtures.reference("softmask.pdf", page: 1, dpi: 72, x: 0, y: 0, width: 400, height: 300)
        let (status, output) = PDFFixtures.run("/usr/bin/pdftoppm", ["-r", "72", "-png", "-singlefile", file, file + "-page"])
        try #require(status == 0, "\(output)")
        let replayed = try PNGDecoder().decode(path: file + "-page.png")
        #expect(meanDifference(replayed, expected) < 2)
    }

    /// A script over the child's byte limit is refused, not cut short.
    @Test func scriptOverTheLimitIsRefused() async throws {
        let fixture = try PDFFixtures.path("text.pdf")
        let error = await VectorFixtures.error { () async throws(PDFProcessError) in
            try await PDFRenderer().script(file: fixture, page: 1, limits: PDFScriptLimits(maxBytes: 1000), name: "text.pdf")
        }
        #expect(error == .refused(source: "text.pdf", code: .notVectors,
                                  message: "text.pdf: page 1: cannot be kept as vectors: its CairoScript is over the limit of 1000 bytes"))
    }

    /// Hostile files end as they do for a render: a damaged PDF is refused, one that spins runs out of time (1.5 s).
    @Test func hostileFilesEndAsForARender() async throws {
        let corrupt = try PDFFixtures.path("corrupt.pdf")
        let refused = await VectorFixtures.error { () async throws(PDFProcessError) in
            try await PDFRenderer().script(file: corrupt, page: 1, name: "in.pdf")
        }
        guard case .refused(_, .unreadable, _)? = refused else {
            Issue.record("not unreadable: \(String(describing: refused))")
            return
        }
        let spin = try PDFFixtures.path("spin.pdf")
        let timedOut = await VectorFixtures.error { () async throws(PDFProcessError) in
            try await PDFRenderer(timeLimit: .milliseconds(1500)).script(file: spin, page: 1, name: "in.pdf")
        }
        #expect(timedOut == .timedOut(source: "in.pdf", seconds: 1.5))
    }
}

/// The files and tools of `PDFVectorPageTests`.
enum VectorFixtures {
    /// Why these tests cannot run here, or nil.
    static let missing: String? = {
        if let tools = PDFFixtures.missingTools { return tools }
        guard access(PDFRenderer.defaultExecutable(), X_OK) == 0 else { return "planmark-pdf is not built (swift build --build-tests)" }
        for tool in ["pdfinfo", "pdftotext", "pdffonts", "pdfimages"] where !FileManager.default.isExecutableFile(atPath: "/usr/bin/" + tool) {
            return "\(tool) is not installed (poppler-utils)"
        }
        return nil
    }()

    /// Paints `page` into a PDF of its size (cairo's PDF surface) in a test folder; its path.
    static func write(_ page: PDFVectorPage, name: String) throws -> String {
        let path = try TestFolder.make("vectors-" + name).appendingPathComponent(name + ".pdf").path
        let surface = try #require(cairo_pdf_surface_create(path, page.width, page.height))
        defer { cairo_surface_destroy(surface) }
        let context = try #require(cairo_create(surface))
        page.paint(on: context, x: 0, y: 0, width: page.width, height: page.height)
        cairo_destroy(context)
        cairo_surface_finish(surface)
        try #require(cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS)
        return path
    }

    /// What `tool` (in /usr/bin) prints for `arguments`.
    static func tool(_ tool: String, _ arguments: [String]) throws -> String {
        let (status, output) = PDFFixtures.run("/usr/bin/" + tool, arguments)
        guard status == 0 else { throw FixtureError(message: "\(tool) failed (\(status)): \(output)") }
        return output
    }

    /// Page 1's size as pdfinfo prints it.
    static func pageSize(_ path: String) throws -> (Double, Double) {
        let line = try #require(try tool("pdfinfo", [path]).split(separator: "\n").first { $0.hasPrefix("Page size:") })
        let words = line.split(separator: " ")
        return (try #require(Double(words[2])), try #require(Double(words[4])))
    }

    /// A word pdftotext finds, with its box's top-left corner in points.
    struct Word: Equatable, CustomStringConvertible {
        var text: String, x: Double, y: Double
        var description: String { "\(text) at (\(x), \(y))" }
    }

    /// Page 1's words in reading order (`pdftotext -bbox`).
    static func words(_ path: String) throws -> [Word] {
        let html = try tool("pdftotext", ["-bbox", "-f", "1", "-l", "1", path, "-"])
        return html.split(separator: "\n").compactMap { line -> Word? in
            guard line.contains("<word "), let open = line.firstIndex(of: ">"), let close = line.range(of: "</word>") else { return nil }
            func attribute(_ name: String) -> Double? {
                guard let range = line.range(of: name + "=\"") else { return nil }
                return Double(line[range.upperBound...].prefix { $0 != "\"" })
            }
            guard let x = attribute("xMin"), let y = attribute("yMin") else { return nil }
            return Word(text: String(line[line.index(after: open)..<close.lowerBound]), x: x, y: y)
        }
    }

    /// The error `body` throws, or nil.
    static func error<T>(_ body: () async throws(PDFProcessError) -> T) async -> PDFProcessError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error
        }
    }
}
