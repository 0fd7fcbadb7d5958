/// Why a PDF could not be opened, measured or drawn: one user-facing line naming the file (and the page, when one
/// page is at fault). Pages are numbered from 1, as users count them.
///
/// The front doors map cases to exit codes or HTTP statuses; `code` is a stable name for each case.
public enum PDFError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The data does not start with the `%PDF-` header.
    case notPDF(source: String)
    /// poppler could not read the document: truncated, damaged, not really a PDF after its header.
    case unreadable(source: String, reason: String)
    /// The document is encrypted and needs a password to open.
    case encrypted(source: String)
    /// The document has no pages.
    case noPages(source: String)
    /// The file is larger than `PDFLimits.maxBytes` (checked before anything is parsed).
    case tooLarge(source: String, bytes: Int, max: Int)
    /// The document has more pages than `PDFLimits.maxPages`.
    case tooManyPages(source: String, count: Int, max: Int)
    /// The page asked for is not in the document (numbered 1 through `count`).
    case pageOutOfRange(source: String, page: Int, count: Int)
    /// A side of the page is longer than `PDFLimits.maxPageSidePoints`.
    case pageTooLarge(source: String, page: Int, widthPt: Double, heightPt: Double, max: Double)
    /// The render asked for has more pixels than `PDFLimits.maxPixels` (checked before allocation).
    case tooManyPixels(source: String, page: Int, width: Int, height: Int, max: Int)
    /// The render asked for is not one: a resolution that is not a positive finite number, or a rectangle with a
    /// negative side.
    case invalidArea(source: String, page: Int, reason: String)
    /// cairo or poppler failed while drawing the page.
    case renderFailed(source: String, page: Int, reason: String)
    /// The page cannot be handed on as vectors (`planmark-pdf script`): its CairoScript is over the size limit, uses a
    /// font that CairoScript carries only as pictures of glyphs, or does not replay. The page can still be drawn as
    /// pixels.
    case notVectors(source: String, page: Int, reason: String)

    /// A stable name for the case, for logs, metrics and JSON error bodies: `Code(self).rawValue`.
    public var code: String { Code(self).rawValue }

    /// The stable names of the cases, without their details: what `planmark-pdf` reports on its error line and what
    /// `PDFProcessError.refused` carries back to the parent.
    public enum Code: String, CaseIterable, Hashable, Sendable {
        /// `PDFError.notPDF`.
        case notPDF = "not_pdf"
        /// `PDFError.unreadable`.
        case unreadable = "unreadable"
        /// `PDFError.encrypted`.
        case encrypted = "encrypted"
        /// `PDFError.noPages`.
        case noPages = "no_pages"
        /// `PDFError.tooLarge`.
        case tooLarge = "too_large"
        /// `PDFError.tooManyPages`.
        case tooManyPages = "too_many_pages"
        /// `PDFError.pageOutOfRange`.
        case pageOutOfRange = "page_out_of_range"
        /// `PDFError.pageTooLarge`.
        case pageTooLarge = "page_too_large"
        /// `PDFError.tooManyPixels`.
        case tooManyPixels = "too_many_pixels"
        /// `PDFError.invalidArea`.
        case invalidArea = "invalid_area"
        /// `PDFError.renderFailed`.
        case renderFailed = "render_failed"
        /// `PDFError.notVectors`.
        case notVectors = "not_vectors"

        /// The code of `error`'s case.
        /// - Complexity: O(1).
        public init(_ error: PDFError) {
            switch error {
            case .notPDF: self = .notPDF
            case .unreadable: self = .unreadable
            case .encrypted: self = .encrypted
            case .noPages: self = .noPages
            case .tooLarge: self = .tooLarge
            case .tooManyPages: self = .tooManyPages
            case .pageOutOfRange: self = .pageOutOfRange
            case .pageTooLarge: self = .pageTooLarge
            case .tooManyPixels: self = .tooManyPixels
            case .invalidArea: self = .invalidArea
            case .renderFailed: self = .renderFailed
            case .notVectors: self = .notVectors
            }
        }
    }

    /// The one-line message, starting with the file concerned.
    public var description: String {
        switch self {
        case .notPDF(let source):
            "\(source): not a PDF file"
        case .unreadable(let source, let reason):
            "\(source): corrupt or unreadable PDF: \(reason)"
        case .encrypted(let source):
            "\(source): the PDF is encrypted (it needs a password); save an unencrypted copy"
        case .noPages(let source):
            "\(source): the PDF has no pages"
        case .tooLarge(let source, let bytes, let max):
            "\(source): \(bytes) bytes exceeds the limit of \(max) bytes"
        case .tooManyPages(let source, let count, let max):
            "\(source): \(count) pages exceeds the limit of \(max) pages"
        case .pageOutOfRange(let source, let page, let count):
            "\(source): no page \(page): the PDF has \(count) page\(count == 1 ? "" : "s")"
        case .pageTooLarge(let source, let page, let widthPt, let heightPt, let max):
            "\(source): page \(page) is \(points(widthPt)) x \(points(heightPt)) pt, over the side limit of \(points(max)) pt"
        case .tooManyPixels(let source, let page, let width, let height, let max):
            "\(source): page \(page): \(width)x\(height) pixels exceeds the limit of \(max) pixels"
        case .invalidArea(let source, let page, let reason):
            "\(source): page \(page): \(reason)"
        case .renderFailed(let source, let page, let reason):
            "\(source): page \(page): cannot render: \(reason)"
        case .notVectors(let source, let page, let reason):
            "\(source): page \(page): cannot be kept as vectors: \(reason)"
        }
    }
}

/// A length in points as a person writes it: `612`, `595.28` (at most two decimals, no trailing zeros).
private func points(_ value: Double) -> String {
    let hundredths = (value * 100).rounded()
    guard hundredths.isFinite, abs(hundredths) < 1e15 else { return "\(value)" }
    let sign = hundredths < 0 ? "-" : ""
    let magnitude = abs(Int(hundredths))
    let whole = magnitude / 100, fraction = magnitude % 100
    if fraction == 0 { return "\(sign)\(whole)" }
    return sign + (fraction % 10 == 0 ? "\(whole).\(fraction / 10)" : "\(whole).\(fraction < 10 ? "0" : "")\(fraction)")
}
