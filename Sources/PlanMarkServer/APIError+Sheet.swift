import HTTPTypes
import PlanMarkPDFProcess
import PlanMarkSheets

extension APIError {
    /// A PDF drawing's page that `planmark-pdf` could not draw, as docs/pdf.md maps it: refused or crashed 422
    /// `pdf-unreadable`, out of time 504 `pdf-timeout`, anything else (the program or its file missing, I/O) 500
    /// `render-failed`. The server keeps serving: the child process is all that failed.
    init(pdf error: PDFProcessError) {
        switch error {
        case .refused, .crashed:
            self.init(.unprocessableContent, code: "pdf-unreadable", message: "the drawing's PDF page cannot be drawn", detail: error.description)
        case .timedOut:
            self.init(.gatewayTimeout, code: "pdf-timeout", message: "the drawing's PDF page took too long to draw", detail: error.description)
        case .programMissing, .fileMissing, .io, .childFailed, .cancelled:
            self.init(.internalServerError, code: "render-failed", message: "the drawing's PDF page could not be drawn", detail: error.description)
        }
    }

    /// A drawing's sheet that could not be had as pixels: a PNG that cannot be read 500 `image-unavailable` (as
    /// before), a PDF as `init(pdf:)`.
    init(sheet error: SheetError) {
        switch error {
        case .pdf(let error):
            self.init(pdf: error)
        case .png, .scratch:
            self.init(.internalServerError, code: "image-unavailable", message: "the drawing's image cannot be read", detail: error.description)
        }
    }
}
