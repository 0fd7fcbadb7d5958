import PlanMarkGeometry

/// A drawing's (or a revision's) image as stored: the bytes it was added with, a PNG file's or, with `pdf`, a PDF
/// file's. A reader that decodes the image must branch on `pdf`: those bytes are the whole PDF, and the image is
/// its page `pdf.page` drawn at `pdf.dpi`.
public struct DrawingImage: Hashable, Sendable {
    /// SHA-256 of `bytes`, hexadecimal (a strong ETag).
    public var sha256: String
    /// The file's bytes: a PNG, or the PDF that `pdf` names a page of.
    public var bytes: [UInt8]
    /// When the image is a page of a PDF: which page, at which resolution; nil for a PNG.
    public var pdf: PDFSource?

    /// Creates an image.
    public init(sha256: String, bytes: [UInt8], pdf: PDFSource? = nil) {
        self.sha256 = sha256
        self.bytes = bytes
        self.pdf = pdf
    }
}
