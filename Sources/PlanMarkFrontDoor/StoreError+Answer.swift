import PlanMarkFormats
import PlanMarkStore

/// How both front doors answer an error of the store: the CLI's exit status, and the service's HTTP status, error code
/// and message. The one map of them (`StoreError.answer`), so that the two doors cannot drift.
public struct ErrorAnswer: Hashable, Sendable {
    /// The exit status (`ExitStatus`): 1 refused or invalid, 64 usage, 65 bad input data, 66 missing, 74 the store's I/O.
    public var exitStatus: Int32
    /// The HTTP status the service answers.
    public var httpStatus: Int
    /// The service's stable `error.code` (listed in its OpenAPI document).
    public var code: String
    /// What a client of the service is told: the error's own line, or, where that line names server files or
    /// internals, a line without them (the server logs the error's own line).
    public var message: String
    /// Seconds after which trying again may work (`Retry-After`), for errors that pass.
    public var retryAfter: Int?
}

extension StoreError {
    /// The answer both front doors give this error (the CLI prints `description` and exits with `exitStatus`; the
    /// service answers `httpStatus` with `code` and `message`): unknown names 66 and 404, refused markers 1 and 422 with
    /// the validator's reason as the code, refusals 1 and 409 with their rule's code, a stale `If-Match` 1 and 412, a
    /// store locked past the busy timeout, unreachable or replaced 74 and 503, other store failures 74 or 1 and 500.
    /// - Complexity: O(1).
    public var answer: ErrorAnswer {
        func answer(_ exit: Int32, _ http: Int, _ code: String? = nil, _ message: String? = nil, retryAfter: Int? = nil) -> ErrorAnswer {
            ErrorAnswer(exitStatus: exit, httpStatus: http, code: code ?? self.code, message: message ?? description, retryAfter: retryAfter)
        }
        let storeFailed = "the store failed; see the server log"
        switch self {
        case .input(let error):
            return answer(error.exitStatus, 400, "invalid-field")
        case .unknownDrawing(let name):
            return answer(ExitStatus.noInput, 404, nil, "unknown drawing \"\(name)\"")
        case .unknownMarker(let drawing, let number):
            return answer(ExitStatus.noInput, 404, nil, "drawing \"\(drawing)\" has no marker \(number)")
        case .unknownAttachment, .unknownRevision, .unknownUser, .unknownProject, .unknownToken, .notAMember:
            return answer(ExitStatus.noInput, 404)
        case .missingImage:
            return answer(ExitStatus.noInput, 500, "image-unavailable", "the drawing's image cannot be read")
        case .notPNG, .notPDF:
            return answer(ExitStatus.dataError, 500, "image-unavailable", "the drawing's image cannot be read")
        case .missingStore:
            return answer(ExitStatus.noInput, 500, "store-error", storeFailed)
        case .newerSchema, .replayed:
            // `replayed` is answered as the kept answer by the service and never reaches a client as an error.
            return answer(ExitStatus.invalid, 500, "store-error", storeFailed)
        case .io:
            return answer(ExitStatus.ioError, 500, "store-error", storeFailed)
        case .invalidMarker(let reason, let position):
            let at = position.isFinite ? " at pixel (\(position.x), \(position.y))" : ""
            return answer(ExitStatus.invalid, 422, reason.rawValue, "marker\(at) refused: \(reason.rawValue)")
        case .duplicateDrawing, .refused, .transitionRefused, .uuidConflict, .duplicateUser, .duplicateProject:
            return answer(ExitStatus.invalid, 409)
        case .versionConflict:
            return answer(ExitStatus.invalid, 412)
        case .idempotencyKeyReused:
            return answer(ExitStatus.invalid, 422)
        case .unsupportedMediaType:
            return answer(ExitStatus.dataError, 415)
        case .photoTooLarge:
            return answer(ExitStatus.dataError, 422)
        case .invalidText(let field, let problem):
            return answer(ExitStatus.dataError, 400, "invalid-field", "$.\(field): \(problem)")
        case .imageChanged(let drawing, _):
            return answer(ExitStatus.dataError, 409, nil, "the image of drawing \"\(drawing)\" changed since it was added; add the drawing again")
        case .invalidArgument:
            return answer(ExitStatus.usage, 400, "invalid-field")
        case .busy:
            return answer(ExitStatus.ioError, 503, nil, "the store is locked by another writer; retry shortly", retryAfter: 1)
        case .unavailable:
            return answer(ExitStatus.ioError, 503, nil, "the database is unreachable; nothing was changed; retry shortly", retryAfter: 1)
        case .storeReplaced:
            return answer(ExitStatus.ioError, 503, nil,
                          "the store was removed or replaced while the server ran; nothing was changed; the server must be restarted",
                          retryAfter: 60)
        }
    }

    /// The exit status both front doors give this error (`answer`'s; `planmark-server` exits with it when its store
    /// cannot be opened).
    /// - Complexity: O(1).
    public var exitStatus: Int32 { answer.exitStatus }
}

extension FormatError {
    /// 66 missing, 74 unreadable, 65 malformed, 64 an option is needed.
    public var exitStatus: Int32 {
        switch kind {
        case .missingInput: return ExitStatus.noInput
        case .unreadable: return ExitStatus.ioError
        case .malformed: return ExitStatus.dataError
        case .usage: return ExitStatus.usage
        }
    }
}
