import Hummingbird
import PlanMarkFormats

/// Reads request bodies within the configured limit and parses them as JSON.
struct RequestBodyReader: Sendable {
    /// The largest body accepted, in bytes.
    let limit: Int

    /// The body's bytes; 413 when `Content-Length` announces more than the limit (checked before
    /// anything is read) or when more arrives; 400 when the body cannot be read to its end (a malformed
    /// chunked encoding, a connection closed early) or is shorter than its `Content-Length`, so a
    /// truncated body is never acted on.
    /// - Complexity: O(body size).
    func bytes(of request: Request) async throws -> [UInt8] {
        let declared = try Self.contentLength(of: request)
        if let declared, declared > limit {
            throw APIError.bodyTooLarge(limit: limit)
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw APIError.bodyTooLarge(limit: limit)
        } catch {
            throw APIError(.badRequest, code: "unreadable-body",
                           message: "the request body could not be read to its end (malformed chunked encoding or an early close)",
                           detail: String(describing: error))
        }
        if let declared, buffer.readableBytes != declared {
            throw APIError(.badRequest, code: "unreadable-body",
                           message: "the request body has \(buffer.readableBytes) bytes, not the \(declared) of its Content-Length")
        }
        return Array(buffer.readableBytesView)
    }

    /// `Content-Length` as a number; nil when absent, 400 when not a whole number.
    static func contentLength(of request: Request) throws(APIError) -> Int? {
        guard let text = request.headers[.contentLength] else { return nil }
        guard let length = Int(text), length >= 0 else { throw .invalidField("Content-Length", "expected a whole number of bytes") }
        return length
    }

    /// True when the request carries a body (a positive `Content-Length` or a transfer coding).
    static func hasBody(_ request: Request) -> Bool {
        if request.headers[.transferEncoding] != nil { return true }
        return (request.headers[.contentLength].flatMap { Int($0) } ?? 0) > 0
    }

    /// 415 unless the request declares `Content-Type: application/json` (parameters such as
    /// `charset=utf-8` allowed). Browsers send `text/plain` and form bodies cross-site without a
    /// preflight; requiring JSON keeps such requests from changing anything.
    static func requireJSON(_ request: Request) throws(APIError) {
        let given = request.headers[.contentType]
        guard let given, isJSON(given) else { throw .unsupportedMediaType(given) }
    }

    /// True for `application/json` with or without parameters, in any case.
    static func isJSON(_ contentType: String) -> Bool {
        let mediaType = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return mediaType.trimmingSpaces().lowercased() == "application/json"
    }

    /// The body as a JSON object: 415 unless declared JSON; 400 `malformed-json` with the line for text
    /// that is not JSON, 400 `invalid-field` naming `$` for JSON that is not an object.
    func jsonObject(of request: Request) async throws -> JSONObject {
        try Self.jsonObject(try await jsonBytes(of: request))
    }

    /// The body's bytes, when declared JSON (415 otherwise), for `jsonObject(_:)`.
    func jsonBytes(of request: Request) async throws -> [UInt8] {
        try Self.requireJSON(request)
        return try await bytes(of: request)
    }

    /// `bytes` as a JSON object, with `jsonObject(of:)`'s errors.
    static func jsonObject(_ bytes: [UInt8]) throws -> JSONObject {
        if bytes.isEmpty { throw APIError.malformedJSON("the request body is empty; expected a JSON object") }
        let document: JSONParser.Document
        do {
            document = try JSONParser.parseDocument(bytes)
        } catch {
            let at = error.path.map { "\($0): " } ?? "line \(error.line): "
            throw APIError.malformedJSON("the body is not valid JSON: \(at)\(error.message)")
        }
        return try JSONObject(document.root, path: "$", idNumberTexts: document.idNumberTexts)
    }
}
