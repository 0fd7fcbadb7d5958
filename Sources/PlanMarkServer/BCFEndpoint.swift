import Foundation
import Hummingbird
import PlanMarkBCF
import PlanMarkStore

/// `GET /drawings/{name}/issues.bcf`: the drawing's markers as a BCF file (`planmark export NAME --format bcf`), one
/// topic per marker the filters take and the signed-in user may see; the same bytes as the CLI's but for the times of
/// day of the zip's entries.
///
/// Made as a heavy job (`HeavyWork`, with renders, reports and tile pyramids: it decodes the sheet and draws a
/// snapshot per marker; 503 `server-busy` when they are all taken). The file is answered whole, with its length.
enum BCFEndpoint {
    /// Query: `version=2.1|3.0` (default 2.1), `baseUrl=URL` (the review page's address: each topic links to its
    /// marker there), and the marker filters of `GET .../markers`.
    static func respond(to request: Request, name: String, store: StoreAccess, heavy: HeavyWork, visibleTo visible: [String]?) async throws -> Response {
        let query = try QueryParameters(request)
        try query.onlyKeys(QueryParameters.filterKeys.union(["version", "baseUrl"]))
        var filter = try query.markerFilter(allowAll: true)
        filter.assignedToAnyOf = visible
        var version = BCFVersion.v2_1
        if let text = query.nonEmpty("version") {
            guard let value = BCFVersion(rawValue: text) else { throw APIError.invalidField("version", "expected 2.1 or 3.0, found \"\(text)\"") }
            version = value
        }
        let baseURL = query.nonEmpty("baseUrl")
        if let baseURL, !(baseURL.hasPrefix("https://") || baseURL.hasPrefix("http://")) {
            throw APIError.invalidField("baseUrl", "expected an http:// or https:// address")
        }
        let file = name.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 && $0 != "\"" && $0 != "\\" } ? name : "issues"
        let headers: HTTPFields = [.contentType: "application/zip", .cacheControl: "no-store",
                                   .contentDisposition: "attachment; filename=\"\(file).bcf\""]
        // HEAD: the drawing exists and the query holds; the file (a snapshot a marker) is made only for GET.
        if request.method == .head {
            _ = try await store.run("bcfDrawing") { store throws(StoreError) in try await store.drawingRecord(named: name) }
            return Response(status: .ok, headers: headers)
        }
        let bytes = try await heavy.run("BCF export of drawing \"\(name)\"") { () async throws -> [UInt8] in
            do {
                let file = try await BCFExport(version: version, baseURL: baseURL).file(from: store.store, drawing: name, filter: filter)
                try Task.checkCancellation()
                do throws(BCFError) { return try file.zip(date: Date()) } catch { throw BCFExportError.file(error) }
            } catch let error as BCFExportError {
                switch error {
                case .store(let error): throw APIError(error)
                case .sheet(let error): throw try APIError.sheet(error)
                case .render, .file:
                    throw APIError(.internalServerError, code: "export-failed", message: "the BCF file could not be made", detail: error.description)
                }
            }
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
