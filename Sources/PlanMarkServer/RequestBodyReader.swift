import Hummingbird
import PlanMarkFormats

/// Reads request bodies within the configured limit and parses them as JSON.
struct RequestBodyReader: Sendable {
    /// The largest body accepted, in bytes.
    let limit: Int

    /// The body's bytes; 413 when `Content-Length` announces more than the limit (checked before
    /// anything is read) or when more arrives.
    /// - Complexity: O(body size).
    func bytes(of request: Request) async throws -> [UInt8] {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            throw APIError.bodyTooLarge(limit: limit)
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw APIError.bodyTooLarge(limit: limit)
        }
        return Array(buffer.readableBytesView)
    }

    /// The body as a JSON object; 400 `malformed-json` with the line for text that is not JSON, 400
    /// `invalid-field` naming `$` for JSON that is not an object.
    func jsonObject(of request: Request) async throws -> JSONObject {
        let bytes = try await bytes(of: request)
        if bytes.isEmpty { throw APIError.malformedJSON("the request body is empty; expected a JSON object") }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw APIError.malformedJSON("the body is not valid JSON: line \(error.line): \(error.message)")
        }
        return try JSONObject(value, path: "$")
    }
}
