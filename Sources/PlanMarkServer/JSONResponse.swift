import Hummingbird
import PlanMarkFormats

/// Builds JSON responses from text the service has already written.
enum JSONResponse {
    /// `bytes` as `application/json` with `status`.
    static func make(_ bytes: [UInt8], status: HTTPResponse.Status = .ok, contentType: String = "application/json; charset=utf-8",
                     extraHeaders: HTTPFields = [:]) -> Response {
        make(ByteBuffer(bytes: bytes), status: status, contentType: contentType, extraHeaders: extraHeaders)
    }

    /// `body` as `application/json` with `status`.
    static func make(_ body: ByteBuffer, status: HTTPResponse.Status = .ok, contentType: String = "application/json; charset=utf-8",
                     extraHeaders: HTTPFields = [:]) -> Response {
        var headers: HTTPFields = [.contentType: contentType]
        headers.append(contentsOf: extraHeaders)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: body))
    }

    /// `text` as `application/json` with `status`.
    static func make(_ text: String, status: HTTPResponse.Status = .ok, extraHeaders: HTTPFields = [:]) -> Response {
        make(Array(text.utf8), status: status, extraHeaders: extraHeaders)
    }

    /// A GeoJSON FeatureCollection.
    static func geoJSON(_ bytes: [UInt8]) -> Response {
        make(bytes, contentType: "application/geo+json; charset=utf-8")
    }
}
