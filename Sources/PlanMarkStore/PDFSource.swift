/// Where a drawing's (or a revision's) image comes from when it is a page of a PDF: which page, drawn at which
/// resolution. The store keeps the PDF's bytes as the image (once per SHA-256, as a PNG's) and this with it; the
/// drawing's width and height are the page's size in pixels at `dpi`. nil wherever the image is a PNG.
public struct PDFSource: Hashable, Sendable, CustomStringConvertible, Encodable {
    /// The page, counted from 1 as people count them.
    public var page: Int
    /// The resolution the page is drawn at, in dots per inch.
    public var dpi: Int

    /// The resolutions the store accepts, in dots per inch: 18 (a quarter of a PDF point's 72) to 2400.
    public static let dpiRange: ClosedRange<Int> = 18...2400

    /// A page of a PDF drawn at `dpi`.
    public init(page: Int, dpi: Int) {
        self.page = page
        self.dpi = dpi
    }

    /// As people read it: `pdf page 2 at 300 dpi`.
    public var description: String { "pdf page \(page) at \(dpi) dpi" }
}

/// A page of a PDF given as a new drawing's or a new revision's image (`NewDrawing.pdf`, `NewRevision.pdf`): the page
/// and resolution, and the page's size in pixels at that resolution. The caller measures the size (the CLI with the PDF
/// renderer: `ceil(points * dpi / 72)` a side); the store reads no PDF, it checks only that the bytes start with `%PDF-`.
public struct PDFPageImage: Hashable, Sendable {
    /// Which page, at which resolution.
    public var source: PDFSource
    /// The page's width in pixels at `source.dpi`.
    public var width: Int
    /// The page's height in pixels at `source.dpi`.
    public var height: Int

    /// Page `page` (from 1) drawn at `dpi`, `width` x `height` pixels.
    public init(page: Int, dpi: Int, width: Int, height: Int) {
        source = PDFSource(page: page, dpi: dpi)
        self.width = width
        self.height = height
    }

    /// Checks what can be checked before any byte is read: the page is 1 or more, the resolution within
    /// `PDFSource.dpiRange`, and each side within 1...`PNGHeader.maxSide` (the sides a PNG drawing may have).
    /// `invalidArgument` otherwise (the caller's values are at fault, not the file).
    /// - Complexity: O(1).
    public func validate() throws(StoreError) {
        guard source.page >= 1 else {
            throw .invalidArgument("page: \(source.page) is not a page number (pages are counted from 1)")
        }
        guard PDFSource.dpiRange.contains(source.dpi) else {
            throw .invalidArgument("dpi: \(source.dpi) is outside the supported range \(PDFSource.dpiRange.lowerBound)...\(PDFSource.dpiRange.upperBound)")
        }
        guard (1...PNGHeader.maxSide).contains(width), (1...PNGHeader.maxSide).contains(height) else {
            throw .invalidArgument("pdf page \(source.page) at \(source.dpi) dpi: a size of \(width)x\(height) pixels is outside 1...\(PNGHeader.maxSide) a side")
        }
    }

    /// The bytes `%PDF-` a PDF file starts with.
    static let header: [UInt8] = Array("%PDF-".utf8)

    /// Refuses `bytes` (from `path`) that do not start with `%PDF-`, as `PNGHeader` refuses a PNG without its signature.
    /// - Complexity: O(1).
    static func checkHeader(_ bytes: [UInt8], path: String) throws(StoreError) {
        guard bytes.count >= header.count, bytes[0..<header.count].elementsEqual(header) else {
            throw .notPDF(path: path, detail: bytes.isEmpty ? "the file is empty" : "the file does not start with %PDF-")
        }
    }
}
