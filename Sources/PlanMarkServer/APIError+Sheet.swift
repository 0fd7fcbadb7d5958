import HTTPTypes
import PlanMarkFormats
import PlanMarkPDFProcess
import PlanMarkSheets

extension APIError {
    /// The service's answer for a PDF drawing's page that `planmark-pdf` could not draw (tiles, review.png, report.pdf):
    /// refused or crashed 422 `pdf-unreadable`, out of time 504 `pdf-timed-out`, the renderer missing or failing 500
    /// `pdf-renderer-failed` (its detail for the log only). The server keeps serving: the child process is all that
    /// failed. A cancelled child is the request's `CancellationError`.
    static func pdf(_ error: PDFProcessError, page number: Int? = nil) throws -> APIError {
        let page = number.map { "page \($0) of " } ?? ""
        switch error {
        case .refused(_, let code, _):
            return APIError(.unprocessableContent, code: "pdf-unreadable", message: "\(page)the drawing's PDF cannot be drawn (\(code.rawValue))")
        case .crashed:
            return APIError(.unprocessableContent, code: "pdf-unreadable", message: "\(page)the drawing's PDF cannot be drawn (the PDF renderer failed on it)")
        case .timedOut(_, let seconds):
            return APIError(.gatewayTimeout, code: "pdf-timed-out",
                            message: "\(page)the drawing's PDF took longer than \(JSONNumber.text(seconds)) s to draw; it was stopped")
        case .cancelled:
            throw CancellationError()
        case .programMissing, .fileMissing, .io, .childFailed:
            return APIError(.internalServerError, code: "pdf-renderer-failed", message: "the drawing's PDF could not be drawn", detail: error.description)
        }
    }

    /// A drawing's sheet that could not be had as pixels: a PNG that cannot be read 500 `image-unavailable` (as
    /// before), a PDF as `pdf(_:page:)`.
    static func sheet(_ error: SheetError, page: Int? = nil) throws -> APIError {
        switch error {
        case .pdf(let error):
            return try pdf(error, page: page)
        case .png, .scratch:
            return APIError(.internalServerError, code: "image-unavailable", message: "the drawing's image cannot be read", detail: error.description)
        }
    }
}
