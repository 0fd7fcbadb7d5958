import PlanMarkRender

/// What a PDF may ask for before anything is read, opened or drawn. Each limit is checked before the work or memory
/// it bounds: the byte size before the header, the page count right after opening, a page's size and a render's pixel
/// count before any pixel is allocated.
public struct PDFLimits: Hashable, Sendable {
    /// The default byte limit: 512 MiB.
    public static let defaultMaxBytes = 512 << 20
    /// The default page limit: 2000 pages.
    public static let defaultMaxPages = 2000
    /// The default side limit: 14400 points (200 inches), the largest page PDF itself allows.
    public static let defaultMaxPageSidePoints = 14_400.0
    /// The default pixel limit of one render: the PNG decoder's (`PNGDecoder.defaultMaxPixels`), so a PDF page can
    /// never be drawn larger than a PNG drawing may be.
    public static let defaultMaxPixels = PNGDecoder.defaultMaxPixels

    /// The largest file accepted, in bytes.
    public var maxBytes: Int
    /// The most pages a document may have.
    public var maxPages: Int
    /// The longest side a page may have, in points (1/72 inch).
    public var maxPageSidePoints: Double
    /// The most pixels (width x height) one render may have.
    public var maxPixels: Int

    /// Limits, each defaulting to its `default...` value.
    public init(
        maxBytes: Int = PDFLimits.defaultMaxBytes, maxPages: Int = PDFLimits.defaultMaxPages,
        maxPageSidePoints: Double = PDFLimits.defaultMaxPageSidePoints, maxPixels: Int = PDFLimits.defaultMaxPixels
    ) {
        self.maxBytes = maxBytes
        self.maxPages = maxPages
        self.maxPageSidePoints = maxPageSidePoints
        self.maxPixels = maxPixels
    }
}
