import CPoppler
import PlanMarkPDFCore
import Synchronization

/// One PDF opened with poppler: its pages, their sizes in points and in pixels, its sheet names
/// (`PDFDocument+SheetNames.swift`) and any rectangle of a page drawn at any resolution (`PDFDocument+Render.swift`).
///
/// Pages are numbered from 1, as users count them. Opening checks `limits` in the order that costs least: the byte
/// size, then the `%PDF-` header, then poppler's parse, then the page count; a page's side and a render's pixel count
/// are checked before anything is drawn.
///
/// Thread safety: a poppler document must not be used from several threads at once, so every call into poppler goes
/// through one lock held by this object. Calls from many threads are safe and run one at a time; for renders in
/// parallel, open the same bytes once per thread.
public final class PDFDocument: Sendable {
    /// The name used in messages (a path, or a drawing's name).
    public let source: String
    /// The limits this document was opened with and renders under.
    public let limits: PDFLimits
    /// The number of pages, at least 1 and at most `limits.maxPages`.
    public let pageCount: Int
    /// Each page's size in points, width then height, as displayed (after the page's rotation); index 0 is page 1.
    private let sizes: [PageSize]
    /// The poppler document, behind the lock that every use of it takes.
    let handle: Mutex<DocumentHandle>

    /// Opens a PDF from its bytes (copied: the caller may drop them).
    ///
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - source: the name used in messages.
    ///   - limits: what the document may ask for.
    /// - Throws: `tooLarge`, `notPDF`, `encrypted`, `unreadable`, `noPages` or `tooManyPages`, checked in that order.
    /// - Complexity: O(n + p) for n bytes and p pages (poppler reads the cross-reference table and each page's
    ///   dictionary; page contents are not parsed until a page is drawn).
    public init(bytes: [UInt8], source: String, limits: PDFLimits = PDFLimits()) throws(PDFError) {
        guard bytes.count <= limits.maxBytes else {
            throw .tooLarge(source: source, bytes: bytes.count, max: limits.maxBytes)
        }
        guard PDFDocument.hasHeader(bytes) else { throw .notPDF(source: source) }

        let data = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(data) }
        var error: UnsafeMutablePointer<GError>? = nil
        guard let document = poppler_document_new_from_bytes(data, nil, &error) else {
            var reason = "poppler could not open it"
            var isEncrypted = false
            if let error {
                if error.pointee.domain == poppler_error_quark() && error.pointee.code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue) {
                    isEncrypted = true
                }
                if let message = error.pointee.message { reason = String(cString: message) }
                g_error_free(error)
            }
            throw isEncrypted ? .encrypted(source: source) : .unreadable(source: source, reason: reason)
        }

        let count = Int(poppler_document_get_n_pages(document))
        guard count > 0, count <= limits.maxPages else {
            g_object_unref(UnsafeMutableRawPointer(document))
            throw count <= 0 ? .noPages(source: source) : .tooManyPages(source: source, count: count, max: limits.maxPages)
        }
        var sizes: [PageSize] = []
        sizes.reserveCapacity(count)
        for index in 0..<count {
            guard let page = poppler_document_get_page(document, Int32(index)) else {
                g_object_unref(UnsafeMutableRawPointer(document))
                throw .unreadable(source: source, reason: "page \(index + 1) cannot be read")
            }
            var width = 0.0, height = 0.0
            poppler_page_get_size(page, &width, &height)
            g_object_unref(UnsafeMutableRawPointer(page))
            sizes.append(PageSize(width: width, height: height))
        }

        self.source = source
        self.limits = limits
        self.pageCount = count
        self.sizes = sizes
        self.handle = Mutex(DocumentHandle(document: document))
    }

    deinit {
        handle.withLock { g_object_unref(UnsafeMutableRawPointer($0.document)) }
    }

    /// True when `%PDF-` starts within the first 1024 bytes, where PDF readers (poppler, Acrobat) look for it.
    /// - Complexity: O(1): at most 1024 bytes are looked at.
    static func hasHeader(_ bytes: [UInt8]) -> Bool {
        let header: [UInt8] = Array("%PDF-".utf8)
        let last = min(bytes.count - header.count, 1024 - header.count)
        guard last >= 0 else { return false }
        return (0...last).contains { start in bytes[start..<start + header.count].elementsEqual(header) }
    }

    /// The size of a page in points (1/72 inch), as displayed: a page rotated by 90 or 270 degrees has its sides
    /// swapped.
    /// - Throws: `pageOutOfRange`.
    /// - Complexity: O(1).
    public func pageSize(page: Int) throws(PDFError) -> (width: Double, height: Double) {
        let size = try checkedSize(page: page)
        return (size.width, size.height)
    }

    /// The size in pixels of a whole page drawn at `dpi` pixels per inch: each side `PDFPixels.side(points:dpi:)`,
    /// `ceil(points * dpi / 72)` (595 pt at 300 dpi is 2479.17 px: 2480).
    /// - Throws: `pageOutOfRange`, `invalidArea` (`dpi` not positive and finite), `pageTooLarge`, or `tooManyPixels`
    ///   when a side does not fit in an `Int`.
    /// - Complexity: O(1).
    public func pixelSize(page: Int, dpi: Double) throws(PDFError) -> (width: Int, height: Int) {
        let size = try checkedSize(page: page)
        try checkDPI(dpi, page: page)
        try checkSides(size, page: page)
        guard let width = PDFPixels.side(points: size.width, dpi: dpi), let height = PDFPixels.side(points: size.height, dpi: dpi) else {
            throw .tooManyPixels(source: source, page: page, width: Int.max, height: Int.max, max: limits.maxPixels)
        }
        return (width, height)
    }

    /// The page's size, or `pageOutOfRange`.
    /// - Complexity: O(1).
    func checkedSize(page: Int) throws(PDFError) -> PageSize {
        guard page >= 1, page <= pageCount else { throw .pageOutOfRange(source: source, page: page, count: pageCount) }
        return sizes[page - 1]
    }

    /// `invalidArea` unless `dpi` is a positive finite number.
    /// - Complexity: O(1).
    func checkDPI(_ dpi: Double, page: Int) throws(PDFError) {
        guard dpi.isFinite, dpi > 0 else {
            throw .invalidArea(source: source, page: page, reason: "the resolution must be a positive number of dpi, not \(dpi)")
        }
    }

    /// `pageTooLarge` when a side of the page is over `limits.maxPageSidePoints`.
    /// - Complexity: O(1).
    func checkSides(_ size: PageSize, page: Int) throws(PDFError) {
        guard size.width <= limits.maxPageSidePoints, size.height <= limits.maxPageSidePoints else {
            throw .pageTooLarge(source: source, page: page, widthPt: size.width, heightPt: size.height, max: limits.maxPageSidePoints)
        }
    }
}

/// A page's size in points.
struct PageSize: Hashable, Sendable {
    /// Width in points.
    var width: Double
    /// Height in points.
    var height: Double
}

/// The poppler document pointer, owned by one `PDFDocument` and used only under its lock.
struct DocumentHandle: @unchecked Sendable {
    /// The `PopplerDocument *`.
    let document: OpaquePointer
}
