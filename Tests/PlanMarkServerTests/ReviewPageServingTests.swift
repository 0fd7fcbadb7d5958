import Foundation
import HTTPTypes
import Hummingbird
import Testing
@testable import PlanMarkServer
import PlanMarkTestSupport

/// The review page's files: served from memory by exact path, before the token check, with content types,
/// ETags, the Content-Security-Policy, and no way out of their folders.
@Suite struct ReviewPageServingTests {
    /// A page folder, a Leaflet folder and a Leaflet.markercluster folder with small files of known bytes, and a
    /// file beside them that must never be served.
    struct PageFolders {
        let root: URL
        var web: String { root.appendingPathComponent("web").path }
        var leaflet: String { root.appendingPathComponent("leaflet").path }
        var markerCluster: String { root.appendingPathComponent("markercluster").path }

        init(withLeaflet: Bool = true, withMarkerCluster: Bool = true) throws {
            root = TestFolder.path("planmark-page")
            let files: [(String, String)] = [
                ("web/index.html", "<!doctype html><title>t</title>"), ("web/app.js", "export const a = 1;\n"),
                ("web/app.css", "body{}"), ("web/modules/more.js", "export {};\n"),
                ("web/sw.js", "self.addEventListener('fetch', () => {});\n"), ("web/manifest.webmanifest", "{\"name\":\"t\"}"), ("web/notes.md", "not served"),
                ("web/.hidden.js", "hidden"), ("secret.txt", "SECRET"),
            ] + (withLeaflet ? [("leaflet/leaflet.js", "var L = {};"), ("leaflet/leaflet.css", ".leaflet{}"),
                                ("leaflet/images/layers.png", "\u{89}PNG"), ("leaflet/leaflet.js.map", "{}")] : [])
                + (withMarkerCluster ? [("markercluster/leaflet.markercluster.js", "L.MarkerClusterGroup = {};"),
                                        ("markercluster/MarkerCluster.css", ".marker-cluster{}"),
                                        ("markercluster/leaflet.markercluster.min.js", "min"), ("markercluster/other.js", "other")] : [])
            for (path, text) in files {
                let url = root.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
            }
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    func application(_ fixture: ServerFixture, page: ReviewPageFiles, token: String? = nil) throws -> some ApplicationProtocol {
        try PlanMarkApplication.application(
            configuration: ServerConfiguration(host: "127.0.0.1", port: 0, token: token, allowedHosts: [ServerFixture.testClientHost]),
            store: StoreAccess(fixture.store), logger: quietLogger, page: page, liveEvents: false)
    }

    @Test func filesAreServedWithTheirTypesAndWithoutTheToken() async throws {
        let fixture = try await ServerFixture()
        let folders = try PageFolders()
        defer { fixture.remove(); folders.remove() }
        let page = try ReviewPageFiles(webRoot: folders.web, leafletDirectory: folders.leaflet, markerClusterDirectory: folders.markerCluster)
        #expect(page.leafletProblem == nil && page.markerClusterProblem == nil)
        try await application(fixture, page: page, token: "secret-token").test(.router) { client in
            let expected: [(String, String, String)] = [
                ("/", "text/html; charset=utf-8", "<!doctype html><title>t</title>"),
                ("/app/index.html", "text/html; charset=utf-8", "<!doctype html><title>t</title>"),
                ("/app/app.js", "text/javascript; charset=utf-8", "export const a = 1;\n"),
                ("/app/app.css", "text/css; charset=utf-8", "body{}"),
                ("/app/modules/more.js", "text/javascript; charset=utf-8", "export {};\n"),
                ("/leaflet/leaflet.js", "text/javascript; charset=utf-8", "var L = {};"),
                ("/leaflet/leaflet.css", "text/css; charset=utf-8", ".leaflet{}"),
                ("/leaflet/images/layers.png", "image/png", "\u{89}PNG"),
                ("/app/sw.js", "text/javascript; charset=utf-8", "self.addEventListener('fetch', () => {});\n"),
                ("/app/manifest.webmanifest", "application/manifest+json", "{\"name\":\"t\"}"),
                ("/leaflet.markercluster/leaflet.markercluster.js", "text/javascript; charset=utf-8", "L.MarkerClusterGroup = {};"),
                ("/leaflet.markercluster/MarkerCluster.css", "text/css; charset=utf-8", ".marker-cluster{}"),
            ]
            for (path, type, body) in expected {
                let response = try await client.get(path)
                #expect(response.status == .ok, "\(path)")
                #expect(response.headers[.contentType] == type, "\(path)")
                #expect(response.text == body, "\(path)")
                #expect(response.headers[.contentSecurityPolicy]?.hasPrefix("default-src 'self'; img-src 'self' blob: data:") == true, "\(path)")
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                #expect(response.headers[.cacheControl] == "no-cache")
                // Only the service worker may take a scope wider than its folder (the whole site, where the page is).
                #expect(response.headers[HTTPField.Name("Service-Worker-Allowed")!] == (path == "/app/sw.js" ? "/" : nil), "\(path)")
            }
            // The API still needs the token.
            let withoutToken = try await client.get("/drawings")
            #expect(withoutToken.status == .unauthorized)
            let withToken = try await client.get("/drawings", headers: [.authorization: "Bearer secret-token"])
            #expect(withToken.status == .ok)
        }
    }

    @Test func anETagAnswers304() async throws {
        let fixture = try await ServerFixture()
        let folders = try PageFolders()
        defer { fixture.remove(); folders.remove() }
        let page = try ReviewPageFiles(webRoot: folders.web, leafletDirectory: folders.leaflet, markerClusterDirectory: folders.markerCluster)
        try await application(fixture, page: page).test(.router) { client in
            let first = try await client.get("/app/app.js")
            // The SHA-256 of "export const a = 1;\n", from sha256sum.
            let etag = "\"\(sha256sum(Array("export const a = 1;\n".utf8)))\""
            #expect(first.headers[.eTag] == etag)
            let again = try await client.get("/app/app.js", headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
            let other = try await client.get("/app/app.js", headers: [.ifNoneMatch: "\"0000\""])
            #expect(other.status == .ok)
        }
    }

    @Test func nothingOutsideTheFoldersNorOfAnotherTypeIsServed() async throws {
        let fixture = try await ServerFixture()
        let folders = try PageFolders()
        defer { fixture.remove(); folders.remove() }
        let page = try ReviewPageFiles(webRoot: folders.web, leafletDirectory: folders.leaflet, markerClusterDirectory: folders.markerCluster)
        try await application(fixture, page: page).test(.router) { client in
            for path in ["/app/../secret.txt", "/app/%2e%2e/secret.txt", "/app/..%2fsecret.txt", "/leaflet/../secret.txt",
                         "/leaflet/../../secret.txt", "/app//secret.txt", "/secret.txt", "/app/notes.md", "/app/.hidden.js",
                         "/leaflet/leaflet.js.map", "/app/", "/app", "/leaflet/", "/app/%2Fetc%2Fpasswd", "/app/../../../../etc/passwd",
                         "/index.html", "/leaflet.markercluster/leaflet.markercluster.min.js", "/leaflet.markercluster/other.js",
                         "/leaflet.markercluster/../secret.txt", "/leaflet.markercluster/"] {
                let response = try await client.get(path)
                #expect(response.status == .notFound, "\(path)")
                #expect(!response.text.contains("SECRET"), "\(path)")
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true, "\(path)")
            }
            // Only GET and HEAD: a POST to the page is the API's 404.
            let post = try await client.send(.post, "/", json: "{}")
            #expect(post.status == .notFound)
            let head = try await client.execute(uri: "/app/app.css", method: .head)
            #expect(head.status == .ok)
            #expect(head.body.readableBytes == 0)
        }
    }

    @Test func aMissingLeafletIsReportedAndTheRestServed() async throws {
        let fixture = try await ServerFixture()
        let folders = try PageFolders(withLeaflet: false)
        defer { fixture.remove(); folders.remove() }
        let page = try ReviewPageFiles(webRoot: folders.web, leafletDirectory: folders.leaflet, markerClusterDirectory: folders.markerCluster)
        #expect(page.leafletProblem?.contains("libjs-leaflet") == true)
        try await application(fixture, page: page).test(.router) { client in
            let page = try await client.get("/")
            #expect(page.status == .ok)
            let leaflet = try await client.get("/leaflet/leaflet.js")
            #expect(leaflet.status == .notFound)
        }
    }

    /// Without Leaflet.markercluster the server says so and serves the rest (the page then shows every pin apart).
    @Test func aMissingMarkerClusterIsReportedAndTheRestServed() async throws {
        let fixture = try await ServerFixture()
        let folders = try PageFolders(withMarkerCluster: false)
        defer { fixture.remove(); folders.remove() }
        let page = try ReviewPageFiles(webRoot: folders.web, leafletDirectory: folders.leaflet, markerClusterDirectory: folders.markerCluster)
        #expect(page.leafletProblem == nil)
        #expect(page.markerClusterProblem?.contains("libjs-leaflet.markercluster") == true)
        try await application(fixture, page: page).test(.router) { client in
            let page = try await client.get("/"), leaflet = try await client.get("/leaflet/leaflet.js")
            let plugin = try await client.get("/leaflet.markercluster/leaflet.markercluster.js")
            #expect(page.status == .ok)
            #expect(leaflet.status == .ok)
            #expect(plugin.status == .notFound)
        }
    }

    @Test func aMissingPageFolderIsAnError() async throws {
        #expect(throws: ReviewPageError.self) {
            try ReviewPageFiles(webRoot: "/nonexistent/planmark-page", leafletDirectory: ReviewPageFiles.defaultLeafletDirectory)
        }
    }

    /// The page built into the server: its files reference nothing outside the server (no scheme, no
    /// `//host`), and every file they load is one the server serves.
    @Test func theBuiltInPageLoadsOnlyServedFiles() async throws {
        let root = try #require(ReviewPageFiles.bundledWebRoot)
        let folders = try PageFolders()
        defer { folders.remove() }
        let page = try ReviewPageFiles(webRoot: root, leafletDirectory: folders.leaflet, markerClusterDirectory: folders.markerCluster)
        #expect(page.file(at: "/") != nil)
        var references: [String] = []
        for (path, file) in page.files where path.hasPrefix("/app/") && (path.hasSuffix(".html") || path.hasSuffix(".js")) {
            let text = String(decoding: file.bytes, as: UTF8.self)
            for match in text.matches(of: /(?:src|href)="([^"]*)"/) { references.append(String(match.1)) }
            for match in text.matches(of: /from '([^']*)'/) { references.append("/app/" + match.1.dropFirst(2)) }
            #expect(!text.contains("http://") && !text.contains("https://"), "\(path)")
        }
        #expect(references.contains("/app/app.js") && references.contains("/leaflet/leaflet.js"), "\(references)")
        for reference in references where reference != "data:," {
            #expect(page.file(at: reference) != nil, "\(reference) is not served")
        }
    }
}
