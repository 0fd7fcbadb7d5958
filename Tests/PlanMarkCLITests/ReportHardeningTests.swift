import Foundation
import PlanMarkRender
import PlanMarkTestSupport
import Testing

/// Photos made byte by byte: headers that declare a size (nothing else in them is read at `attach`).
enum DeclaredPhotos {
    /// A PNG signature, an IHDR chunk declaring `width` x `height` (8-bit RGB), and IEND. No image data: only the
    /// header is read when it is attached.
    static func png(width: Int, height: Int) -> [UInt8] {
        func word(_ value: Int) -> [UInt8] { [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + word(13) + Array("IHDR".utf8) + word(width) + word(height)
            + [8, 2, 0, 0, 0] + word(0) + word(0) + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
    }

    /// SOI, an APP0 JFIF segment, a baseline SOF0 declaring `width` x `height` with 3 components, `filler` bytes
    /// and EOI.
    static func jpeg(width: Int, height: Int, filler: Int = 64) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]
            + [0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 0x03,
               0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]
            + [UInt8](repeating: 0x33, count: filler) + [0xFF, 0xD9]
    }

    /// `bytes` as an SQL blob literal (`X'89504E...'`).
    static func sqlBlob(_ bytes: [UInt8]) -> String {
        "X'" + bytes.map { String(format: "%02X", $0) }.joined() + "'"
    }
}

/// Runs `/usr/bin/sqlite3 STORE SQL` (the SQLite shell, as `Drawings/install-deps.sh` installs it): writes what
/// the store's own doors refuse, as a store made before those checks may hold it.
func sqliteShell(_ store: String, _ sql: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [store, sql]
    let err = ChildProcess.pipe()
    process.standardError = err
    try ChildProcess.run(process)
    let message = String(decoding: err.fileHandleForReading.readBytesToEnd(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "sqlite3: \(message)")
}

/// The report's hardening (issue 23): text of any length and content comes out whole, photos cost what their
/// picture costs, and photos that are not shown are listed with the reason. Read back with poppler-utils.
@Suite struct ReportHardeningTests {
    static let enabled = Poppler.missing == nil || Poppler.inCI
    static let sqliteShellPresent = FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")

    /// A note of one 1 MB word (no spaces): the report is made (on main the wrapping was roughly cubic in the
    /// word's length, hours for this), the word is cut across thousands of lines none longer than the text column,
    /// and the lines put together give the word back whole, in order; the next marker's note follows it.
    /// The word is drawn from the letters `jqxz` between `<<` and `>>`; no other text of the report (labels, the
    /// footer `A ... Page N`) has those letters, so dropping every other character between the brackets leaves
    /// exactly the word. (Page 1's table of contents shows the note's start, cut short; the card's `<<` is the last.)
    @Test(.enabled(if: enabled, "poppler-utils is not installed"), .hangGuard)
    func oneMegabyteWordIsWrappedWhole() async throws {
        guard popplerPresent() else { return }
        let sandbox = try StoreSandbox.withDrawing()
        var random = SeededGenerator(seed: 23)
        let letters: [Character] = ["j", "q", "x", "z"]
        let body = String((0..<(1 << 20)).map { _ in letters[Int(random.next() % 4)] })
        let csv = "x,y,note\n100,150,<<\(body)>>\n300,100,The note after the long word\n"
        let imported = try sandbox.run(["import", "A", try sandbox.file("long.csv", csv)])
        try #require(imported.status == 0, "\(imported.stderr)")
        let pdf = sandbox.folder.appendingPathComponent("long.pdf").path
        let result = try sandbox.run(["report", "A", "-o", pdf])
        try #require(result.status == 0, "\(result.stderr)")
        let text = try Poppler.text(pdf)
        let start = try #require(text.range(of: "<<", options: .backwards))
        let end = try #require(text.range(of: ">>", range: start.upperBound..<text.endIndex))
        let between = text[start.upperBound..<end.lowerBound]
        let word = String(between.filter { letters.contains($0) })
        #expect(word.count == body.count)
        #expect(word == body, "the word as pdftotext reads it differs from the note")
        // Cut across lines: a text column of 511 pt holds about a hundred of these letters.
        let lines = between.split(whereSeparator: \.isNewline).filter { $0.contains { letters.contains($0) } }
        #expect(lines.count > 5000, "\(lines.count) lines")
        #expect(lines.allSatisfy { $0.count < 300 }, "longest line \(lines.map(\.count).max() ?? 0)")
        #expect(text[end.upperBound...].contains("The note after the long word"))
    }

    /// Notes holding a Unicode noncharacter (U+FFFE, U+FDD0, U+10FFFF, U+1FFFE), as a store written before they
    /// were refused may hold them (written here with the SQLite shell): every text after each is in the PDF
    /// (pdftotext), down to the last marker's note and the last page's footer; the characters themselves are drawn
    /// as U+FFFD. The HTML report keeps them as they are.
    @Test(.enabled(if: enabled && sqliteShellPresent, "poppler-utils or the sqlite3 shell is not installed"))
    func noncharactersDoNotEndTheReport() async throws {
        guard popplerPresent() else { return }
        let sandbox = try StoreSandbox.withDrawing()
        let codes = [0xFFFE, 0xFDD0, 0x10FFFF, 0x1FFFE]
        for (index, _) in codes.enumerated() {
            let x = 60 + index * 60
            #expect(try sandbox.run(["mark", "A", String(x), "100", "--note", "placeholder"]).status == 0)
        }
        #expect(try sandbox.run(["mark", "A", "300", "250", "--note", "Last marker note"]).status == 0)
        for (index, code) in codes.enumerated() {
            try sqliteShell(sandbox.store, """
                UPDATE marker SET note = 'before-\(index + 1) ' || char(\(code)) || ' after-\(index + 1) ' || char(\(code)) || 'tail-\(index + 1)'
                WHERE number = \(index + 1) AND drawingId = (SELECT id FROM drawing WHERE name = 'A')
                """)
        }
        let pdf = sandbox.folder.appendingPathComponent("nonchar.pdf").path
        let result = try sandbox.run(["report", "A", "-o", pdf])
        try #require(result.status == 0, "\(result.stderr)")
        let text = try Poppler.text(pdf).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for number in 1...codes.count {
            #expect(text.contains("before-\(number) \u{FFFD} after-\(number) \u{FFFD}tail-\(number)"), "marker \(number): \(text)")
            #expect(text.contains("#\(number) "))
        }
        #expect(text.contains("#5 ") && text.contains("Last marker note"))
        let pages = try #require(try Poppler.pages(pdf))
        #expect(try Poppler.text(pdf, first: pages, last: pages).contains("Page \(pages)"))

        let site = sandbox.folder.appendingPathComponent("site")
        #expect(try sandbox.run(["report", "A", "--format", "html", "-o", site.path]).status == 0)
        let html = try String(decoding: Data(contentsOf: site.appendingPathComponent("index.html")), as: UTF8.self)
        for (index, code) in codes.enumerated() {
            let character = String(Character(Unicode.Scalar(UInt32(code))!))
            #expect(html.contains("before-\(index + 1) \(character) after-\(index + 1)"))
        }
    }

    /// `attach` reads the pixel size from the header and refuses, with exit 65 and one line naming the file, a
    /// photo over 100,000,000 pixels or 20,000 pixels a side (the limits docs/limits.md states): the PNG
    /// declaring 14000 x 14000 and JPEGs declaring 65535 x 65535 and 30000 x 30000; one side of 20,001. Photos at
    /// the limits (20000 x 5000 is exactly 100,000,000 pixels) are taken. Nothing refused is stored.
    @Test func attachRefusesPhotosOverThePixelLimits() async throws {
        let sandbox = try StoreSandbox.withDrawing()
        #expect(try sandbox.run(["mark", "A", "100", "150"]).status == 0)
        let refused: [(String, [UInt8], String)] = [
            ("big.png", DeclaredPhotos.png(width: 14000, height: 14000), "14000 x 14000"),
            ("huge.jpg", DeclaredPhotos.jpeg(width: 65535, height: 65535), "65535 x 65535"),
            ("wide.jpg", DeclaredPhotos.jpeg(width: 30000, height: 30000), "30000 x 30000"),
            ("side.png", DeclaredPhotos.png(width: 20001, height: 10), "20001 x 10"),
        ]
        for (name, bytes, size) in refused {
            let path = sandbox.folder.appendingPathComponent(name).path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let result = try sandbox.run(["attach", "A", "1", path])
            #expect(result.status == 65, "\(name): \(result.stderr)")
            #expect(result.stderr == "planmark: \(path): declares \(size) pixels; photos may have at most 100000000 pixels and 20000 a side\n")
        }
        #expect(try sandbox.run(["attachments", "A", "1"]).stdout.split(separator: "\n").count == 1)  // the header line only
        for (name, bytes) in [("edge.png", DeclaredPhotos.png(width: 20000, height: 5000)), ("edge.jpg", DeclaredPhotos.jpeg(width: 5000, height: 20000))] {
            let path = sandbox.folder.appendingPathComponent(name).path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let result = try sandbox.run(["attach", "A", "1", path])
            #expect(result.status == 0, "\(name): \(result.stderr)")
        }
    }

    /// A real PNG photo of 4000 x 3000 is decoded by rows into a picture that fits 2048 x 600 pixels: pdfimages
    /// lists it as 800 x 600 (3000 rows scaled to 600, 4000 columns by the same 0.2), flate-encoded; its colour
    /// survives (a uniform (200, 40, 30) photo comes out as that colour). Photos that a store made before the
    /// limits may hold (written here with the SQLite shell: a PNG declaring 14000 x 14000, JPEGs declaring
    /// 65535 x 65535 and 30000 x 30000) and a JPEG without a frame header are listed under "Not shown" with
    /// the reason, and everything after them is still in the report.
    @Test(.enabled(if: enabled && sqliteShellPresent, "poppler-utils or the sqlite3 shell is not installed"))
    func photosAreShrunkOrListedWithTheReason() async throws {
        guard popplerPresent() else { return }
        let sandbox = try StoreSandbox.withDrawing()
        #expect(try sandbox.run(["mark", "A", "100", "150", "--note", "Photos here"]).status == 0)
        #expect(try sandbox.run(["mark", "A", "300", "100", "--note", "The next marker"]).status == 0)
        let width = 4000, height = 3000
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        pixels.withUnsafeMutableBufferPointer { buffer in
            var i = 0
            while i < buffer.count {
                buffer[i] = 200; buffer[i + 1] = 40; buffer[i + 2] = 30
                i += 4
            }
        }
        let photo = sandbox.folder.appendingPathComponent("photo.png").path
        try Data(try PNGEncoder().encode(RGBAImage(width: width, height: height, pixels: pixels))).write(to: URL(fileURLWithPath: photo))
        pixels = []
        let attached = try sandbox.run(["attach", "A", "1", photo, "--caption", "wide photo"])
        try #require(attached.status == 0, "\(attached.stderr)")
        // Placeholders attached within the limits, then given the bytes of photos over them.
        let stale: [(String, [UInt8])] = [
            ("big png", DeclaredPhotos.png(width: 14000, height: 14000)),
            ("huge jpeg", DeclaredPhotos.jpeg(width: 65535, height: 65535)),
            ("wide jpeg", DeclaredPhotos.jpeg(width: 30000, height: 30000)),
        ]
        for (index, (caption, bytes)) in stale.enumerated() {
            // A placeholder of the same type (the stored type is the attached file's).
            let placeholder = bytes[1] == 0x50 ? DeclaredPhotos.png(width: 10 + index, height: 10) : DeclaredPhotos.jpeg(width: 10 + index, height: 10)
            let path = sandbox.folder.appendingPathComponent("placeholder-\(index)").path
            try Data(placeholder).write(to: URL(fileURLWithPath: path))
            let result = try sandbox.run(["attach", "A", "1", path, "--caption", caption])
            try #require(result.status == 0, "\(result.stderr)")
            let id = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            try sqliteShell(sandbox.store, "UPDATE attachmentBlob SET bytes = \(DeclaredPhotos.sqlBlob(bytes)) WHERE sha256 = (SELECT sha256 FROM attachment WHERE id = \(id))")
        }
        let noFrame = sandbox.folder.appendingPathComponent("noframe.jpg").path
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00, 0xFF, 0xD9]).write(to: URL(fileURLWithPath: noFrame))
        #expect(try sandbox.run(["attach", "A", "1", noFrame, "--caption", "no frame"]).status == 0)

        let pdf = sandbox.folder.appendingPathComponent("photos.pdf").path
        let result = try sandbox.run(["report", "A", "-o", pdf])
        try #require(result.status == 0, "\(result.stderr)")
        let rows = try Poppler.run("pdfimages", ["-list", pdf]).stdout.split(separator: "\n").dropFirst(2)
            .map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        #expect(rows.contains { $0.count > 8 && $0[3] == "800" && $0[4] == "600" && $0[8] == "image" }, "\(rows)")
        // No image of the declared sizes was embedded.
        #expect(!rows.contains { $0.count > 4 && ["14000", "65535", "30000"].contains($0[3]) }, "\(rows)")
        let prefix = sandbox.folder.appendingPathComponent("img").path
        _ = try Poppler.run("pdfimages", ["-png", pdf, prefix])
        let pictures = try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).filter { $0.hasPrefix("img") && $0.hasSuffix(".png") }
        let shrunk = try pictures.map { try PNGDecoder().decode(path: sandbox.folder.appendingPathComponent($0).path) }
            .first { $0.width == 800 && $0.height == 600 }
        let picture = try #require(shrunk)
        for (x, y) in [(0, 0), (400, 300), (799, 599)] {
            let i = (y * 800 + x) * 4
            #expect(Array(picture.pixels[i..<(i + 3)]) == [200, 40, 30], "pixel \(x),\(y)")
        }
        let text = try Poppler.text(pdf).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("\"big png\" (PNG of 14000 x 14000 pixels; photos may have at most 100000000 pixels and 20000 a side)"), "\(text)")
        #expect(text.contains("\"huge jpeg\" (JPEG of 65535 x 65535 pixels; photos may have"))
        #expect(text.contains("\"wide jpeg\" (JPEG of 30000 x 30000 pixels; photos may have"))
        #expect(text.contains("\"no frame\" (unreadable JPEG: no image size in its header)"))
        #expect(text.contains("Not shown:"))
        #expect(text.contains("The next marker"))
    }
}
