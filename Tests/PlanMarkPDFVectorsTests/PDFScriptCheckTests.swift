import PlanMarkPDFCore
import PlanMarkPDFVectors
import Testing

/// The check on CairoScript written by hand: what cairo's script surface writes passes, and each thing it never
/// writes is refused with its own case. Sizes are counted by hand.
@Suite struct PDFScriptCheckTests {
    /// The page surface as cairo writes it first: 600 x 400 pt.
    static let page = "%!CairoScript\n<< /content //COLOR_ALPHA /width 600 /height 400 >> surface context\n"

    func check(_ text: String, limits: PDFScriptLimits = PDFScriptLimits()) -> Result<PDFScriptSummary, PDFScriptError> {
        check(Array(text.utf8), limits: limits)
    }

    func check(_ bytes: [UInt8], limits: PDFScriptLimits = PDFScriptLimits()) -> Result<PDFScriptSummary, PDFScriptError> {
        do throws(PDFScriptError) { return .success(try PDFScriptCheck.check(bytes, limits: limits)) } catch { return .failure(error) }
    }

    /// A frame, a line and text in a type 42 font, as cairo writes them (taken from a real script, the font's bytes
    /// shortened): the page's size is the surface's, nothing is decoded but the font's declared 5 bytes.
    @Test func whatCairoWritesPasses() throws {
        let script = Self.page + """
            n 50 50 500 300 rectangle
            stroke+
            n 300 50 m 300 350 l
            stroke+
            [18 0 0 18 0 0] set-font-matrix
            << /type 42 /index 0 /flags 10 /source <|!!!!&~> >> font dup /f0 exch def set-font-face /scaled-font get /sf0 exch def
            (ROOM 2.01) [100 200 <~!<~> -0.508 <~!W~>] <~!<E3%!<E3%~> //FORWARD show-text-glyphs
            f0 sf0 pop pop
            0.5 g 1 0 0 rgb 1 0 0 0.5 rgba
            << /width 2 /height 3 /format //RGB24 /source <~!!!!!!!!~> >> image pattern set-source paint
            (image/jpeg) <~!!~> set-mime-data
            s1 100 100 //COLOR_ALPHA similar dup /s2 exch def context
            1 index pop 2 -1 roll
            pop

            """
        let summary = try check(script).get()
        // 5 bytes declared by the font's <| data ("!!!!&" is 0 * 85^4 + ... + 5), 2 x 3 x 4 for the image.
        #expect(summary == PDFScriptSummary(width: 600, height: 400, decodedBytes: 5 + 24))
    }

    /// Operators the interpreter has but cairo's script surface never writes: files, loops, procedures, execution,
    /// dictionaries (type 3 fonts), pixels by hand.
    @Test(arguments: ["(/etc/passwd) run", "(x.png) write-to-png", "1 10 1 { pop } for", "0 loop", "5 { } repeat", "exec",
                      "100 100 //A8 similar-image", "translate", "1 1 add", "/x 1 def x load", "currentdict"])
    func operatorsItNeverWritesAreRefused(_ text: String) {
        guard case .failure(let error) = check(Self.page + text + "\n") else {
            Issue.record("\(text) passed")
            return
        }
        #expect(error.code == "unexpected", "\(text): \(error)")
        #expect(error.description.contains("at line 3"), "\(error)")
    }

    /// A type 3 font (glyph pictures or procedures), however it is written.
    @Test(arguments: ["dict\n  /type 3 set\n", "<< /type 3 /source <~!!~> >> font", "<< /type 42 /source <~!!~> >> dup font pop font"])
    func typeThreeFontsAreGlyphFonts(_ text: String) {
        guard case .failure(let error) = check(Self.page + text) else {
            Issue.record("\(text) passed")
            return
        }
        #expect(error.code == "glyph_fonts", "\(error)")
    }

    /// Names, constants, MIME types and bytes it never writes.
    @Test(arguments: ["<< /pattern (DejaVu) >> font", "<< /width 1 /height 1 /mime-type (image/png) /source <~!!~> >> image",
                      "//loop", "(image/png) <~!!~> set-mime-data", "<< /width 1 pop >>", "<0A0B>", "<{QUJD}>", "ab#20cd",
                      "(unclosed", ") stray", "<~!!", "<~!!~x", "40000 1 //COLOR similar",
                      "<< /width 40000 /height 1 >> image", "<< /width 1.5 /height 1 >> image", "2 3 image", "1e5 g", "[ 1 2",
                      "[[[[[[[[[ 1 ]]]]]]]]] pop", "-1 index", "1.5 index", "257 index", "dup index", "2 1 roll", "-2 -1 roll"])
    func formsItNeverWritesAreRefused(_ text: String) {
        guard case .failure(let error) = check(Self.page + text + "\n") else {
            Issue.record("\(text) passed")
            return
        }
        #expect(error.code == "unexpected", "\(text): \(error)")
    }

    /// Bytes outside ASCII are refused outside strings (the scanner's binary tokens start at 128) and kept inside them,
    /// where nested parentheses balance and escaped ones do not count.
    @Test func bytesOutsideASCIIOnlyInStrings() {
        let header = Array(Self.page.utf8)
        for byte: UInt8 in [0x80, 0x8E, 0x98, 0xFF, 0x00, 0x7F] {
            guard case .failure(let error) = check(header + [byte] + Array(" pop\n".utf8)) else {
                Issue.record("byte \(byte) passed")
                continue
            }
            #expect(error.code == "unexpected")
        }
        let string = header + Array("(caf".utf8) + [0xC3, 0xA9] + Array(" (a) \\) \\( b) pop\n".utf8)
        #expect((try? check(string).get()) != nil)
    }

    /// The page: exactly one surface, of a size that is one.
    @Test func exactlyOnePageSurface() {
        #expect(check("%!CairoScript\nn 0 0 1 1 rectangle fill+\n") == .failure(.pageSurfaces(count: 0)))
        #expect(check(Self.page + "<< /content //COLOR /width 10 /height 10 >> surface\n") == .failure(.pageSurfaces(count: 2)))
        #expect(check("<< /content //COLOR /width 0 /height 10 >> surface\n") == .failure(.pageSize(width: 0, height: 10)))
        #expect(check("<< /content //COLOR /width 100 >> surface\n").map(\.width) == .failure(.unexpected(line: 1, what: "a surface without its dictionary")))
    }

    /// What the replay decodes is counted: an image 1000 x 1000 is 4,000,000 bytes; `<|` data declaring 1 MiB
    /// (base85 `!"],1`: 1 * 85^3 + 60 * 85^2 + 11 * 85 + 16 = 1,048,576) is 1,048,576. One byte under the total is
    /// refused.
    @Test func decodedBytesAreCountedAgainstTheLimit() {
        let script = Self.page + "<< /width 1000 /height 1000 /format //ARGB32 /source <|!\"],1~> >> image pop\n"
        let total = 4_000_000 + 1_048_576
        #expect(check(script, limits: PDFScriptLimits(maxDecodedBytes: total)).map(\.decodedBytes) == .success(total))
        #expect(check(script, limits: PDFScriptLimits(maxDecodedBytes: total - 1)) == .failure(.tooMuchDecoded(bytes: total, max: total - 1)))
    }

    /// Eight levels of arrays are what the check lets through (cairo writes two); nine are refused above.
    @Test func eightLevelsOfNestingPass() {
        #expect((try? check(Self.page + "[[[[[[[[ 1 ]]]]]]]] pop\n").get()) != nil)
    }

    /// A script over the byte limit is refused before it is read.
    @Test func scriptOverTheByteLimit() {
        let bytes = Array((Self.page + "pop\n").utf8)
        #expect(check(bytes, limits: PDFScriptLimits(maxBytes: bytes.count - 1)) == .failure(.tooLarge(bytes: bytes.count, max: bytes.count - 1)))
        #expect((try? check(bytes, limits: PDFScriptLimits(maxBytes: bytes.count)).get()) != nil)
    }
}
