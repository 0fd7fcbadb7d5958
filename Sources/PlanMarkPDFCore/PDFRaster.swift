/// The stream `planmark-pdf render` writes: a Netpbm PAM header, then the pixels as `RGBAImage` holds them (rows top to
/// bottom, 4 bytes a pixel, R G B A, straight alpha), nothing after:
///
///     P7\nWIDTH 256\nHEIGHT 256\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n<width * height * 4 bytes>
///
/// PAM rather than a header of our own: it is as small to write and to read (the length is known from the header,
/// so the parent can allocate the image once and refuse a byte too many), and the output of `planmark-pdf render`
/// opens in the tools people check images with (Netpbm's `pamtopng`, ImageMagick, GIMP). Rather than PNG: no
/// deflate on either side for an image that never leaves the machine. An empty rectangle is `WIDTH 0` or
/// `HEIGHT 0` and no pixels (PAM itself wants at least 1).
public enum PDFRaster {
    /// The longest header `readHeader` accepts; ours is under 80 bytes.
    public static let maxHeaderBytes = 256

    /// The header of a `width` x `height` image.
    /// - Complexity: O(1).
    public static func header(width: Int, height: Int) -> [UInt8] {
        Array("P7\nWIDTH \(width)\nHEIGHT \(height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n".utf8)
    }

    /// The image's size and the header's length in bytes, from the start of a stream; nil when `bytes` ends before
    /// the header does (and is shorter than `maxHeaderBytes`).
    ///
    /// The header must be a PAM header with `WIDTH` and `HEIGHT` (whole numbers, 0 or more), `DEPTH 4`, `MAXVAL 255`
    /// and `TUPLTYPE RGB_ALPHA`, each once, in any order, and nothing else but `#` comments.
    /// - Throws: `PDFOutputError` naming what is wrong.
    /// - Complexity: O(h) for a header of h bytes (at most `maxHeaderBytes` are looked at).
    public static func readHeader(_ bytes: ArraySlice<UInt8>) throws(PDFOutputError) -> (width: Int, height: Int, length: Int)? {
        let end = Array("ENDHDR\n".utf8)
        let window = bytes.prefix(maxHeaderBytes)
        var found: Int? = nil
        var start = window.startIndex
        while start + end.count <= window.endIndex {
            if (start == window.startIndex || window[start - 1] == UInt8(ascii: "\n")) && window[start..<start + end.count].elementsEqual(end) {
                found = start
                break
            }
            start += 1
        }
        guard let found else {
            if window.count >= maxHeaderBytes { throw PDFOutputError("no image header in the first \(maxHeaderBytes) bytes") }
            return nil
        }
        let text = String(decoding: window[window.startIndex..<found], as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == "P7" else { throw PDFOutputError("the image does not start with a PAM header (P7)") }
        if lines.last == "" { lines.removeLast() }
        var fields: [String: String] = [:]
        for line in lines.dropFirst() where !line.hasPrefix("#") {
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, fields.updateValue(String(parts[1]), forKey: String(parts[0])) == nil else {
                throw PDFOutputError("the image header's line \"\(line)\" is not one field")
            }
        }
        guard fields["DEPTH"] == "4", fields["MAXVAL"] == "255", fields["TUPLTYPE"] == "RGB_ALPHA", fields.count == 5,
              let widthText = fields["WIDTH"], let heightText = fields["HEIGHT"],
              let width = Int(widthText), let height = Int(heightText), width >= 0, height >= 0 else {
            throw PDFOutputError("the image header is not 8-bit RGBA with a width and a height")
        }
        return (width, height, found + end.count - bytes.startIndex)
    }
}
