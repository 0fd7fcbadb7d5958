import PlanMarkPDFCore
import Testing

/// What the child writes and the parent reads, read back and refused when it is not what the child writes.
struct PDFWireFormatTests {
    @Test func rasterHeaderIsReadBack() throws {
        let header = PDFRaster.header(width: 256, height: 3)
        let stream = header + [1, 2, 3]
        let read = try PDFRaster.readHeader(stream[...])
        #expect(read?.width == 256 && read?.height == 3 && read?.length == header.count)
        // A header cut short is not complete yet; in a slice not starting at 0 the length is still from its start.
        #expect(try PDFRaster.readHeader(header.dropLast()[...]) == nil)
        let shifted = ([9, 9] + stream)[2...]
        #expect(try PDFRaster.readHeader(shifted)?.length == header.count)
    }

    @Test(arguments: [
        "P6\nWIDTH 1\nHEIGHT 1\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n",
        "P7\nWIDTH 1\nHEIGHT 1\nDEPTH 3\nMAXVAL 255\nTUPLTYPE RGB\nENDHDR\n",
        "P7\nWIDTH -1\nHEIGHT 1\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n",
        "P7\nWIDTH 1\nWIDTH 2\nHEIGHT 1\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n",
        "P7\nHEIGHT 1\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n",
    ])
    func rasterHeadersThatAreNotOurs(text: String) {
        #expect(throws: PDFOutputError.self) { try PDFRaster.readHeader(Array(text.utf8)[...]) }
    }

    @Test func noHeaderInTheFirstBytes() throws {
        #expect(throws: PDFOutputError.self) { try PDFRaster.readHeader([UInt8](repeating: 65, count: PDFRaster.maxHeaderBytes)[...]) }
        #expect(try PDFRaster.readHeader([UInt8](repeating: 65, count: PDFRaster.maxHeaderBytes - 1)[...]) == nil)
    }

    /// Info survives its JSON: a name with quotes, a line break and a control character, and a null name.
    @Test func infoIsReadBack() throws {
        let info = PDFDocumentInfo(dpi: 96, pages: [
            PDFPageInfo(number: 1, widthPoints: 595.28, heightPoints: 841.89, width: 794, height: 1123, name: "A \"1\"\n\u{1}"),
            PDFPageInfo(number: 2, widthPoints: 612, heightPoints: 792, width: 816, height: 1056, name: nil),
        ])
        #expect(info.json.contains("\"name\":null"))
        #expect(try PDFDocumentInfo(json: Array(info.json.utf8)) == info)
    }

    @Test(arguments: [
        #"{"dpi":72,"pageCount":2,"pages":[{"number":1,"widthPoints":1,"heightPoints":1,"width":1,"height":1,"name":null}]}"#,
        #"{"dpi":72,"pageCount":1,"pages":[{"number":2,"widthPoints":1,"heightPoints":1,"width":1,"height":1,"name":null}]}"#,
        #"{"dpi":72,"pageCount":1,"pages":[{"number":1,"widthPoints":1,"heightPoints":1,"width":1.5,"height":1,"name":null}]}"#,
        #"{"dpi":72,"pageCount":1,"pages":[{"number":1,"widthPoints":-1,"heightPoints":1,"width":1,"height":1,"name":null}]}"#,
        #"{"dpi":72,"pageCount":1,"pages":[{"number":1,"widthPoints":1,"heightPoints":1,"width":1,"height":1,"name":3}]}"#,
        #"{"dpi":0,"pageCount":0,"pages":[]}"#,
        #"{"dpi":72,"pageCount":0,"pages":[]"#,
    ])
    func infoThatIsNotOurs(text: String) {
        #expect(throws: PDFOutputError.self) { try PDFDocumentInfo(json: Array(text.utf8)) }
    }

    /// Names are cut at 1000 Unicode scalars (an é written as e + U+0301 is two).
    @Test func longNamesAreShortened() {
        #expect(PDFPageInfo.shortened(String(repeating: "e\u{301}", count: 600)).unicodeScalars.count == 1000)
        #expect(PDFPageInfo.shortened("A-101") == "A-101")
    }

    /// The refusal line round trip, and the child's last own line among poppler's.
    @Test func errorLines() {
        let line = PDFChild.refusalLine(.encrypted(source: "a.pdf"))
        #expect(line == "planmark-pdf: encrypted: a.pdf: the PDF is encrypted (it needs a password); save an unencrypted copy")
        let stderr = Array("Syntax Error: x\n\(line)\nInternal Error: y\n".utf8)
        let last = PDFChild.lastLine(stderr)
        #expect(last == "encrypted: a.pdf: the PDF is encrypted (it needs a password); save an unencrypted copy")
        #expect(last.flatMap(PDFChild.refusal)?.code == .encrypted)
        #expect(PDFChild.refusal("nonsense: a.pdf: x") == nil)
    }

    /// The pixel rule, by hand: 595 pt at 300 dpi is 2479.17: 2480; 612 at 150 is 1275 exactly; 200 at 34.2 is
    /// 95.00000000000001 in doubles: 95; absurd sizes are nil.
    @Test func pixelRule() {
        #expect(PDFPixels.side(points: 595, dpi: 300) == 2480)
        #expect(PDFPixels.side(points: 612, dpi: 150) == 1275)
        #expect(PDFPixels.side(points: 200, dpi: 34.2) == 95)
        #expect(PDFPixels.side(points: 0, dpi: 300) == 0)
        #expect(PDFPixels.side(points: 612, dpi: 1e300) == nil)
        #expect(PDFPixels.side(points: 612, dpi: .nan) == nil)
    }
}
