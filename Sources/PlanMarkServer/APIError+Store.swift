import Hummingbird
import PlanMarkExport
import PlanMarkFrontDoor
import PlanMarkStore

extension APIError {
    /// The HTTP form of a store error: the status, code and message of `StoreError.answer` (the one map, shared with the
    /// CLI's exit statuses), `Retry-After` for errors that pass, and, for a stale `If-Match` (412 `version-conflict`), the
    /// marker as stored and its `ETag`. An error whose client message leaves out what its own line says (server paths,
    /// SQLite's words) keeps that line as `detail` for the log.
    init(_ error: StoreError) {
        let answer = error.answer
        self.init(HTTPResponse.Status(code: answer.httpStatus), code: answer.code, message: answer.message,
                  detail: answer.message == error.description ? nil : error.description)
        if let seconds = answer.retryAfter { headers[.retryAfter] = String(seconds) }
        if case .versionConflict(_, let current) = error {
            headers[.eTag] = EntityTag.version(current.version)
            marker = MarkerWriter.object(current, conversion: nil)
        }
    }
}
