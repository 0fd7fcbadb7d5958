import PlanMarkPDFVectors
import PlanMarkRender

/// How the PDF report drew the drawing's whole sheet on its sheet page.
public enum ReportSheetDrawing: Hashable, Sendable {
    /// A PNG drawing: its pixels, markers and regions drawn in.
    case picture
    /// A PDF drawing's page as vectors: its lines, fills, images and text as the PDF has them (the text selectable),
    /// markers and regions drawn over it as vectors.
    case vectors
    /// A PDF drawing's page drawn as pixels, as a PNG drawing is, because it could not be kept as vectors (`reason`,
    /// one line: a Type 1, CFF or Type 3 font, a CairoScript over its limits ...).
    case pixels(reason: String)
}

/// What `ReportPDFWriter.write` made.
public struct ReportWritten: Hashable, Sendable {
    /// The number of pages.
    public var pages: Int
    /// How the sheet page's sheet was drawn.
    public var sheet: ReportSheetDrawing

    /// A result.
    public init(pages: Int, sheet: ReportSheetDrawing) {
        self.pages = pages
        self.sheet = sheet
    }
}

/// The whole sheet as the PDF writer draws it: a picture (the review renderer's, markers in it), or a PDF page's
/// vectors with the markers' overlay.
enum ReportSheet {
    case picture(RGBAImage)
    case vectors(ReportVectorSheet)

    /// The sheet's size in picture pixels: the picture's, or the overlay's (the picture's size the same drawing would
    /// have had), which the page lays the sheet out by.
    var size: (width: Int, height: Int) {
        switch self {
        case .picture(let image): (image.width, image.height)
        case .vectors(let sheet): (sheet.overlay.width, sheet.overlay.height)
        }
    }
}

/// A PDF drawing's page replayed (`PDFVectorPage`, which owns the recording and the fonts in it: keep it until the
/// report's PDF surface is finished) and what is drawn over it, in overlay pixels covering the drawing.
struct ReportVectorSheet {
    let page: PDFVectorPage
    let overlay: ReviewOverlay
    /// The share of the drawing's width and height the page covers: the page at the drawing's dpi is
    /// `points * dpi / 72` pixels, the drawing that rounded up (`PDFPixels.side`), so a hair under 1. The page is
    /// drawn at the drawing's own scale, where the markers are, as the pixels of a PDF drawing are.
    let coverage: (x: Double, y: Double)
}
