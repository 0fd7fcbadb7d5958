import Hummingbird
import Logging

/// Turns every error below it into `{"error":{"code","message"}}` with a fitting status, so clients
/// never see Hummingbird's plain-text errors. The detail of an error (paths, SQLite messages) goes to
/// the log only: the answer carries the generic message. A server error (5xx) repeated alike (the same code and detail)
/// is logged once per interval with a count (`RepeatedLogLimiter`): an outage of the database is a few lines a
/// minute, not one a request.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Where unexpected errors are reported.
    let logger: Logger
    /// The server errors' repeats.
    let repeats: RepeatedLogLimiter

    init(logger: Logger, repeats: RepeatedLogLimiter = RepeatedLogLimiter()) {
        self.logger = logger
        self.repeats = repeats
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            let response = try await next(request, context)
            repeats.flush(level: .error, to: logger)
            return response
        } catch let error as APIError {
            if let detail = error.detail {
                if error.status.code >= 500 {
                    // Compared without the path, so that one outage is a line an interval for every endpoint together.
                    repeats.log("\(request.method) \(request.uri.path): \(error.code): \(detail)", key: "\(error.code): \(detail)",
                                level: .error, to: logger)
                } else {
                    logger.debug("\(request.method) \(request.uri.path): \(error.code): \(detail)")
                }
            }
            return error.response()
        } catch is CancellationError {
            // The client went away (no one reads this answer) or the server is stopping.
            logger.debug("\(request.method) \(request.uri.path): cancelled")
            return APIError.requestCancelled.response()
        } catch let error as any HTTPResponseError {
            return Self.apiError(for: error.status).response()
        } catch {
            logger.error("\(request.method) \(request.uri.path): \(String(describing: error))")
            return APIError(.internalServerError, code: "internal", message: "internal error").response()
        }
    }

    /// The error for a status raised by Hummingbird itself (no route, wrong method, too large ...).
    static func apiError(for status: HTTPResponse.Status) -> APIError {
        switch status {
        case .notFound: return APIError(status, code: "not-found", message: "no such endpoint")
        case .methodNotAllowed: return APIError(status, code: "method-not-allowed", message: "this endpoint does not take that method")
        case .contentTooLarge: return APIError(status, code: "body-too-large", message: "the request body is too large")
        case .unauthorized: return .unauthorized
        default: return APIError(status, code: "http-\(status.code)", message: status.reasonPhrase)
        }
    }
}
