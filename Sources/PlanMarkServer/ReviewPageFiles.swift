import Foundation
import Hummingbird
import PlanMarkFormats
import PlanMarkStore

/// The review page's files (the project's own HTML, CSS and ES modules), Leaflet's and Leaflet.markercluster's,
/// read once when the server starts and served from memory by URL path: `/` is the page's `index.html`,
/// `/app/FILE` its other files, `/leaflet/FILE` Leaflet's (Debian's `libjs-leaflet`),
/// `/leaflet.markercluster/FILE` the plugin's few files (Debian's `libjs-leaflet.markercluster`). Only the files found at start-up with a
/// known type are served, looked up by their exact path, so no request path ever reaches the file system
/// (no directory traversal).
public struct ReviewPageFiles: Sendable {
    /// One served file.
    struct File: Sendable {
        /// Its bytes.
        let bytes: [UInt8]
        /// Its `Content-Type`.
        let contentType: String
        /// A strong ETag: the quoted SHA-256 of its bytes.
        let etag: String
    }

    /// URL path -> file.
    let files: [String: File]
    /// Why Leaflet's files are not served (the folder or its `leaflet.js` is missing), nil when they are.
    public let leafletProblem: String?
    /// Why Leaflet.markercluster's files are not served (its script or style sheet is missing), nil when they are.
    public let markerClusterProblem: String?

    /// Where Debian's `libjs-leaflet` puts Leaflet.
    public static let defaultLeafletDirectory = "/usr/share/javascript/leaflet"
    /// Where Debian's `libjs-leaflet.markercluster` puts the plugin: beside Leaflet.
    public static let defaultMarkerClusterDirectory = "/usr/share/javascript/leaflet"
    /// The plugin's files the page loads (its folder may hold Leaflet and other plugins too: only these are served).
    static let markerClusterFiles: Set<String> = ["leaflet.markercluster.js", "MarkerCluster.css"]

    /// The page's folder: in the resource bundle SwiftPM copies `ReviewPage/` into beside the executable
    /// (`PlanMark_PlanMarkServer.resources`), else in the source tree the server was built from; nil when
    /// neither holds an `index.html` (then `--web-root` is needed). Looked up by hand rather than through
    /// `Bundle.module`, which stops the process when its bundle is missing.
    public static var bundledWebRoot: String? {
        let beside = Bundle.main.bundleURL.appendingPathComponent("PlanMark_PlanMarkServer.resources/ReviewPage").path
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ReviewPage").path
        return [beside, source].first { FileManager.default.fileExists(atPath: $0 + "/index.html") }
    }

    /// The page's service worker (offline use): served at `/app/sw.js` with `Service-Worker-Allowed: /`, so that it may
    /// take the whole site (`/`, where the page is) as its scope while its imports stay beside it in `/app/`.
    static let serviceWorkerPath = "/app/sw.js"

    /// The Content-Security-Policy of every page file: nothing from outside the server; images also from
    /// blob: (tiles fetched with the token) and data: (Leaflet's CSS).
    static let contentSecurityPolicy = "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; "
        + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// Reads the page from `webRoot` (it must hold `index.html`), Leaflet from `leafletDirectory` and
    /// Leaflet.markercluster from `markerClusterDirectory`; a missing Leaflet is not an error (the page then says
    /// what to install), nor a missing plugin (the page then shows every pin apart), a missing page is.
    /// - Complexity: O(total size of the files).
    public init(webRoot: String, leafletDirectory: String,
                markerClusterDirectory: String = defaultMarkerClusterDirectory) throws(ReviewPageError) {
        var files: [String: File] = [:]
        let page = Self.read(folder: webRoot)
        guard let index = page["index.html"] else { throw .missingPage(webRoot) }
        files["/"] = index
        for (relative, file) in page { files["/app/" + relative] = file }
        let style = Array(Self.vocabularyStyle(MarkerVocabulary.current).utf8)
        files[Self.vocabularyStylePath] = File(bytes: style, contentType: "text/css; charset=utf-8", etag: "\"\(SHA256.hexDigest(of: style))\"")
        let leaflet = Self.read(folder: leafletDirectory)
        if leaflet["leaflet.js"] == nil || leaflet["leaflet.css"] == nil {
            leafletProblem = "\(leafletDirectory): Leaflet not found (install Debian's libjs-leaflet or give --leaflet-dir); "
                + "the review page will say so"
        } else {
            leafletProblem = nil
            for (relative, file) in leaflet { files["/leaflet/" + relative] = file }
        }
        let plugin = Self.read(folder: markerClusterDirectory).filter { Self.markerClusterFiles.contains($0.key) }
        if plugin.count < Self.markerClusterFiles.count {
            markerClusterProblem = "\(markerClusterDirectory): Leaflet.markercluster not found (install Debian's "
                + "libjs-leaflet.markercluster or give --markercluster-dir); the review page will show pins that overlap apart"
        } else {
            markerClusterProblem = nil
            for (relative, file) in plugin { files["/leaflet.markercluster/" + relative] = file }
        }
        self.files = files
    }

    /// The statuses' colours as the page's style sheet, made from the vocabulary when the server starts (the page's own
    /// style sheet names no status).
    static let vocabularyStylePath = "/app/vocabulary.css"

    /// `vocabulary`'s colours as CSS: each status's pins, list badges and legend swatches (`.pin-STATUS`,
    /// `.swatch-STATUS`) in its colour with its ink, and `--overdue`.
    /// - Complexity: O(statuses).
    static func vocabularyStyle(_ vocabulary: MarkerVocabulary) -> String {
        var lines = ["/* Made by the server from its vocabulary (GET /vocabulary, MarkerStatus.swift): the statuses' colours. */",
                     ":root { --overdue: \(vocabulary.overdue.colour); }"]
        for status in vocabulary.statuses {
            lines.append(".pin-\(status.name), .swatch-\(status.name) { background: \(status.colour); color: \(status.ink); }")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The file served at `path`, nil when none is.
    func file(at path: String) -> File? { files[path] }

    /// The content type of a file name, nil for a type the page does not serve (source maps, `.gz`, ...).
    /// - Complexity: O(length of the name).
    static func contentType(of name: String) -> String? {
        guard let dot = name.lastIndex(of: ".") else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "html": return "text/html; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "png": return "image/png"
        case "svg": return "image/svg+xml"
        case "ico": return "image/x-icon"
        case "json": return "application/json"
        case "webmanifest": return "application/manifest+json"
        case "txt": return "text/plain; charset=utf-8"
        default: return nil
        }
    }

    /// Every regular file of a known type under `folder` (not following hidden names), by its path
    /// relative to `folder`.
    /// - Complexity: O(total size of the files).
    static func read(folder: String) -> [String: File] {
        let root = URL(fileURLWithPath: folder, isDirectory: true).standardizedFileURL
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey],
                                                              options: [.skipsHiddenFiles]) else { return [:] }
        var files: [String: File] = [:]
        let prefix = root.path.hasSuffix("/") ? root.path : root.path + "/"
        for case let url as URL in enumerator {
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(prefix), let type = contentType(of: url.lastPathComponent),
                  (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                  let data = FileManager.default.contents(atPath: path) else { continue }
            let bytes = [UInt8](data)
            files[String(path.dropFirst(prefix.count))] = File(bytes: bytes, contentType: type, etag: "\"\(SHA256.hexDigest(of: bytes))\"")
        }
        return files
    }
}

/// Why the review page cannot be served.
public enum ReviewPageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The page's folder (or its `index.html`) is missing.
    case missingPage(String)

    public var description: String {
        switch self {
        case .missingPage(let folder): return "\(folder): no index.html (give --web-root the review page's folder)"
        }
    }
}

/// Serves the review page's files for GET and HEAD, before the token check (the page asks for the token
/// itself): `ETag` with `If-None-Match` -> 304, `Cache-Control: no-cache` (always revalidated, so a new
/// page is picked up at once), the Content-Security-Policy, `nosniff`; the service worker also
/// `Service-Worker-Allowed: /`. Other requests pass.
struct ReviewPageMiddleware<Context: RequestContext>: RouterMiddleware {
    let page: ReviewPageFiles
    /// The header that lets the service worker's scope be wider than its folder.
    static var serviceWorkerAllowed: HTTPFields.Element.Name { HTTPFields.Element.Name("Service-Worker-Allowed")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head, let file = page.file(at: request.uri.path) else {
            return try await next(request, context)
        }
        var headers: HTTPFields = [
            .eTag: file.etag, .cacheControl: "no-cache", .contentType: file.contentType,
            .contentSecurityPolicy: ReviewPageFiles.contentSecurityPolicy, .xContentTypeOptions: "nosniff",
            HTTPFields.Element.Name("Referrer-Policy")!: "no-referrer",
        ]
        if request.uri.path == ReviewPageFiles.serviceWorkerPath { headers[Self.serviceWorkerAllowed] = "/" }
        if let match = request.headers[.ifNoneMatch],
           match.split(separator: ",").contains(where: { $0.trimmingSpaces() == file.etag || $0.trimmingSpaces() == "*" }) {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }
}
