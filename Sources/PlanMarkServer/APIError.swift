import Hummingbird
import PlanMarkFormats

/// An error the service answers with: an HTTP status and `{"error":{"code":"...","message":"..."}}` (a 412 version
/// conflict adds `"marker"`, the marker as stored).
///
/// `code` is a stable machine-readable word (`unknown-drawing`, `outside-allowed-area` ...); `message`
/// is one line a client can show, naming the field or path where that helps.
public struct APIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The response status.
    public var status: HTTPResponse.Status
    /// The stable error code.
    public var code: String
    /// What went wrong, in the user's words. Never a server path or other internal detail.
    public var message: String
    /// Extra response headers (`Allow`, `Retry-After` ...).
    public var headers: HTTPFields
    /// What the server log gets (paths, SQLite messages ...); never sent to the client.
    public var detail: String?
    /// The marker as stored, for a version conflict: `MarkerWriter`'s object (the body's `marker`), or nil.
    public var marker: String?

    /// Creates an error.
    public init(_ status: HTTPResponse.Status, code: String, message: String, headers: HTTPFields = [:], detail: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
        self.detail = detail
    }

    /// `STATUS code: message`.
    public var description: String { "\(status.code) \(code): \(message)" }

    /// The JSON body: `{"error":{"code","message"}}`, and `marker` for a version conflict.
    public var jsonBody: String {
        JSONDocument.line(Body(error: Body.Error(code: code, message: message), marker: marker.map(JSONFragment.init)))
    }

    /// The body's shape.
    struct Body: Encodable {
        struct Error: Encodable { var code: String; var message: String }
        var error: Error
        var marker: JSONFragment?
    }

    /// The response carrying this error.
    public func response(headers extra: HTTPFields = [:]) -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]
        headers.append(contentsOf: self.headers)
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: jsonBody)))
    }
}

extension APIError {
    /// 400 for a body or parameter that is not what the endpoint takes; `field` is its JSON path or name.
    static func invalidField(_ field: String, _ message: String) -> APIError {
        APIError(.badRequest, code: "invalid-field", message: "\(field): \(message)")
    }

    /// 400 for a body that is not JSON at all.
    static func malformedJSON(_ message: String) -> APIError {
        APIError(.badRequest, code: "malformed-json", message: message)
    }

    /// 404 for a drawing name that the store does not know.
    static func unknownDrawing(_ name: String) -> APIError {
        APIError(.notFound, code: "unknown-drawing", message: "unknown drawing \"\(name)\"")
    }

    /// 404 for a marker number the drawing does not have.
    static func unknownMarker(_ number: Int, drawing: String) -> APIError {
        APIError(.notFound, code: "unknown-marker", message: "drawing \"\(drawing)\" has no marker \(number)")
    }

    /// 413 for a body over the limit.
    static func bodyTooLarge(limit: Int) -> APIError {
        APIError(.contentTooLarge, code: "body-too-large", message: "the request body is larger than \(limit) bytes")
    }

    /// 415 for a body that is not declared `application/json`.
    static func unsupportedMediaType(_ given: String?) -> APIError {
        APIError(.unsupportedMediaType, code: "unsupported-media-type",
                 message: "the body must be sent with 'Content-Type: application/json'" + (given.map { ", not '\($0)'" } ?? " (none given)"))
    }

    /// 413 for a validation larger than a configured count limit.
    static func tooMany(_ what: String, field: String, limit: Int, option: String) -> APIError {
        APIError(.contentTooLarge, code: "too-many-\(what)",
                 message: "\(field): more than \(limit) \(what); this server validates at most \(limit) (\(option))")
    }

    /// 503 when the server is at capacity; the client may retry after `seconds`.
    static func unavailable(code: String, message: String, retryAfter seconds: Int = 1, detail: String? = nil) -> APIError {
        APIError(.serviceUnavailable, code: code, message: message, headers: [.retryAfter: String(seconds)], detail: detail)
    }

    /// 405 for a known path with a method it does not take; `Allow` lists the ones it does.
    static func methodNotAllowed(_ method: HTTPRequest.Method, allowed: [HTTPRequest.Method]) -> APIError {
        let list = allowed.map(\.rawValue).joined(separator: ", ")
        return APIError(.methodNotAllowed, code: "method-not-allowed", message: "this endpoint takes \(list), not \(method.rawValue)",
                        headers: [.allow: list])
    }

    /// 503 for a request cancelled because the server is stopping (or its client went away, when no one reads it).
    static let requestCancelled = APIError.unavailable(code: "request-cancelled", message: "the request was cancelled: the server is stopping; retry shortly")

    /// 401 for a missing or wrong bearer token.
    static let unauthorized = APIError(.unauthorized, code: "unauthorized", message: "a valid 'Authorization: Bearer TOKEN' header is required")
}
