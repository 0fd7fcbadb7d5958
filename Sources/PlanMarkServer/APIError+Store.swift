import Hummingbird
import PlanMarkExport
import PlanMarkStore

extension APIError {
    /// The HTTP form of a store error: unknown names 404, refused markers 422 with the validator's
    /// reason as the code, refusals 409 with their rule's code (`StoreRefusal.code`, `name-taken`), a stale `If-Match`
    /// 412 `version-conflict` with the marker as stored (and its `ETag`), a store
    /// locked past the busy timeout 503 with `Retry-After: 1`, a store removed or replaced while open 503
    /// `store-replaced`, other store failures 500. Errors that carry server paths answer with a generic message and keep
    /// the description as `detail` for the log.
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
            self.init(.conflict, code: error.code, message: error.description)
        case .transitionRefused:
            self.init(.conflict, code: "transition-refused", message: error.description)
        case .uuidConflict:
            self.init(.conflict, code: "uuid-conflict", message: error.description)
        case .versionConflict(_, let current):
            self.init(.preconditionFailed, code: "version-conflict", message: error.description,
                      headers: [.eTag: EntityTag.version(current.version)])
            bodyMembers = ",\"marker\":" + MarkerWriter.object(current, conversion: nil)
        case .idempotencyKeyReused:
            self.init(.unprocessableContent, code: error.code, message: error.description)
        case .replayed:
            // Answered by `answering` as the kept answer; never reaches here from a request.
            self.init(.internalServerError, code: "store-error", message: "the store failed; see the server log", detail: error.description)
        case .unsupportedMediaType:
            self.init(.unsupportedMediaType, code: "unsupported-media-type", message: error.description)
        case .photoTooLarge:
            self.init(.unprocessableContent, code: "photo-too-large", message: error.description)
        case .unknownAttachment:
            self.init(.notFound, code: "unknown-attachment", message: error.description)
        case .unknownRevision:
            self.init(.notFound, code: "unknown-revision", message: error.description)
        case .unknownUser, .unknownProject, .unknownToken, .notAMember:
            self.init(.notFound, code: error.code, message: error.description)
        case .duplicateUser, .duplicateProject:
            self.init(.conflict, code: error.code, message: error.description)
        case .invalidArgument(let message):
            self.init(.badRequest, code: "invalid-field", message: message)
        case .imageChanged(let drawing, _):
            self.init(.conflict, code: "image-changed",
                      message: "the image of drawing \"\(drawing)\" changed since it was added; add the drawing again",
                      detail: error.description)
        case .invalidText(let field, let problem):
            self = .invalidField("$." + field, problem)
        case .input(let formatError):
            self.init(.badRequest, code: "invalid-field", message: formatError.description)
        case .busy:
            self = .unavailable(code: "store-busy", message: "the store is locked by another writer; retry shortly", detail: error.description)
        case .unavailable:
            self = .unavailable(code: "store-unavailable", message: "the database is unreachable; nothing was changed; retry shortly", detail: error.description)
        case .storeReplaced:
            self = .unavailable(code: "store-replaced", message: "the store was removed or replaced while the server ran; nothing was changed; the server must be restarted",
                                retryAfter: 60, detail: error.description)
        case .missingImage, .notPNG, .notPDF:
            self.init(.internalServerError, code: "image-unavailable", message: "the drawing's image cannot be read", detail: error.description)
        case .missingStore, .newerSchema, .io:
            self.init(.internalServerError, code: "store-error", message: "the store failed; see the server log", detail: error.description)
        }
    }
}
