import Hummingbird
import PlanMarkStore

extension APIError {
    /// The HTTP form of a store error: unknown names 404, refused markers 422 with the validator's
    /// reason as the code, refusals 409, store failures 500.
    init(_ error: StoreError) {
        switch error {
        case .unknownDrawing(let name):
            self = .unknownDrawing(name)
        case .unknownMarker(let drawing, let number):
            self = .unknownMarker(number, drawing: drawing)
        case .invalidMarker(let reason, let position):
            let at = position.isFinite ? " at pixel (\(position.x), \(position.y))" : ""
            self.init(.unprocessableContent, code: reason.rawValue, message: "marker\(at) refused: \(reason.rawValue)")
        case .duplicateDrawing, .refused:
            self.init(.conflict, code: "refused", message: error.description)
        case .invalidArgument(let message):
            self.init(.badRequest, code: "invalid-field", message: message)
        case .imageChanged(let drawing, _):
            self.init(.conflict, code: "image-changed",
                      message: "the image of drawing \"\(drawing)\" changed since it was added; add the drawing again")
        case .invalidText(let field, let problem):
            self = .invalidField("$." + field, problem)
        case .input(let formatError):
            self.init(.badRequest, code: "invalid-field", message: formatError.description)
        case .missingStore, .newerSchema, .notPNG, .missingImage, .io, .busy:
            self.init(.internalServerError, code: "store-error", message: error.description)
        }
    }
}
