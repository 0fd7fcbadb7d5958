import PlanMarkPDFProcess
import PlanMarkRender

/// Why a drawing's sheet could not be had as pixels. The front doors map the cases: a PNG's `RenderError` as they
/// always have; a PDF's `PDFProcessError` as docs/pdf.md says (CLI 65/66/69/74, HTTP 422 `pdf-unreadable` or 504).
public enum SheetError: Error, Sendable, CustomStringConvertible {
    /// The PNG could not be decoded (or is over the decoder's limits).
    case png(RenderError)
    /// The PDF page could not be drawn by `planmark-pdf`.
    case pdf(PDFProcessError)
    /// The PDF could not be handed to `planmark-pdf`: its temporary file could not be written.
    case scratch(path: String, reason: String)

    /// A stable name for the case.
    public var code: String {
        switch self {
        case .png: "png"
        case .pdf(let error): "pdf-" + error.code
        case .scratch: "scratch"
        }
    }

    /// The one-line message.
    public var description: String {
        switch self {
        case .png(let error): error.description
        case .pdf(let error): error.description
        case .scratch(let path, let reason): "\(path): cannot write the PDF for planmark-pdf: \(reason)"
        }
    }
}
