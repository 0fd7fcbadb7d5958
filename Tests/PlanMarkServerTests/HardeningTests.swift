import Foundation
import GRDBSQLite
import Hummingbird
import Logging
import PlanMarkStore
import PlanMarkSQLite
import Testing
@testable import PlanMarkServer
import PlanMarkTestSupport

/// What the service refuses without a token (Content-Type, Host, Origin), the bounds on one
/// validation, HEAD, 405, the busy store and errors that must not show server paths; through the router.
@Suite struct HardeningTests {
    // MARK: Content-Type

    @Test(arguments: [
        ("POST", "/drawings/plan/markers", "text/plain", 415),
        ("POST", "/drawings/plan/markers", "application/x-www-form-urlencoded", 415),
        ("POST", "/drawings/plan/markers", "multipart/form-data; boundary=x", 415),
        ("POST", "/drawings/plan/markers", "application/jsonx", 415),
        ("POST", "/drawings/plan/markers", nil, 415),
        ("POST", "/drawings/plan/markers", "application/json", 201),
        ("POST", "/drawings/plan/markers", "application/json; charset=utf-8", 201),
        ("POST", "/drawings/plan/markers", "Application/JSON ;charset=UTF-8", 201),
        ("PATCH", "/drawings/plan/markers/1", "text/plain", 415),
        ("PATCH", "/drawings/plan/markers/1", "application/json", 200),
        ("DELETE", "/drawings/plan/markers/1", "text/plain", 415),
        ("DELETE", "/drawings/plan/markers/1", "application/json", 200),
        ("POST", "/validate", "text/plain", 415),
    ] as [(String, String, String?, Int)])
    func writesNeedJSONContentType(method: String, path: String, contentType: String?, status: Int) async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        _ = try await fixture.store.addMarker(to: "plan", at: .init(x: 450, y: 400), note: nil, author: nil)
        let body = path == "/validate" ? #"{"regions":{"type":"FeatureCollection","features":[]},"markers":[]}"# : #"{"x":460,"y":410}"#
        try await fixture.application().test(.router) { client in
            var headers: HTTPFields = [:]
            if let contentType { headers[.contentType] = contentType }
            let response = try await client.execute(uri: path, method: HTTPRequest.Method(method)!, headers: headers, body: ByteBuffer(string: body))
            #expect(response.status.code == status, "\(response.text)")
            if status == 415 {
                #expect(response.errorCode == "unsupported-media-type")
                #expect(response.errorMessage?.contains("application/json") == true)
            }
        }
        // A refused write changed nothing: marker 1 is where it was, and no marker 2.
        if status == 415 {
            let marker = try await fixture.store.marker(1, in: "plan")
            #expect(marker.position == .init(x: 450, y: 400))
            #expect(try await fixture.store.drawing(named: "plan").drawing.nextNumber == 2)
        }
    }

    @Test func deleteWithoutABodyNeedsNoContentType() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        _ = try await fixture.store.addMarker(to: "plan", at: .init(x: 450, y: 400), note: nil, author: nil)
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/drawings/plan/markers/1", method: .delete)
            #expect(response.status == .ok)
            #expect(response.object["removed"] as? Bool == true)
        }
    }

    // MARK: Host

    @Test(arguments: [
        ("127.0.0.1", [], 8080, "127.0.0.1:8080", true),
        ("127.0.0.1", [], 8080, "localhost:8080", true),
        ("127.0.0.1", [], 8080, "LocalHost:8080", true),
        ("127.0.0.1", [], 8080, "[::1]:8080", true),
        ("127.0.0.1", [], 8080, "127.0.0.1", false),
        ("127.0.0.1", [], 80, "localhost", true),
        ("127.0.0.1", [], 80, "localhost:80", true),
        ("127.0.0.1", [], 8080, "127.0.0.1:8081", false),
        ("127.0.0.1", [], 8080, "evil.example:8080", false),
        ("127.0.0.1", [], 8080, "127.0.0.2:8080", false),
        ("localhost", [], 8080, "127.0.0.1:8080", true),
        ("::1", [], 8080, "[::1]:8080", true),
        ("[::1]", [], 8080, "localhost:8080", true),
        ("127.0.0.1", ["plans.local"], 8080, "plans.local:8080", true),
        ("127.0.0.1", ["plans.local"], 8080, "plans.local:9090", false),
        ("127.0.0.1", ["plans.local"], 8080, "other.local:8080", false),
        ("127.0.0.1", ["plans.local:443"], 8080, "plans.local:443", true),
        ("127.0.0.1", ["plans.local:443"], 8080, "plans.local:8080", false),
        ("127.0.0.1", ["plans.local:80"], 8080, "plans.local", true),
        ("192.168.1.5", [], 8080, "192.168.1.5:8080", true),
        ("192.168.1.5", [], 8080, "localhost:8080", false),
        ("0.0.0.0", [], 8080, "localhost:8080", true),
        ("0.0.0.0", [], 8080, "plans.example:8080", false),
    ] as [(String, [String], Int, String, Bool)])
    func hostPolicy(listen: String, allowed: [String], port: Int, header: String, accepted: Bool) throws {
        let policy = HostPolicy(ServerConfiguration(host: listen, port: port, token: "t", allowedHosts: allowed))
        let authority = try #require(HostAuthority(header))
        #expect(policy.accepts(authority, boundPort: port) == accepted)
    }

    @Test(arguments: ["", "a b", "[::1", "[::1]x", "host:", "host:99999", "host:8x", "ex ample:80", "[zz]:80", "host:80:80", "::1"])
    func malformedHostValues(text: String) async {
        #expect(HostAuthority(text) == nil)
    }

    @Test func allowedHostsAreCheckedAtStart() async throws {
        #expect(throws: ServerConfigurationError.invalidAllowedHost("plans.local:0")) {
            try ServerConfiguration(allowedHosts: ["plans.local:0"]).validate()
        }
        #expect(throws: ServerConfigurationError.invalidAllowedHost("a b")) { try ServerConfiguration(allowedHosts: ["a b"]).validate() }
        try ServerConfiguration(allowedHosts: ["plans.local", "plans.local:8443", "[fe80::1]:8080"]).validate()
        #expect(throws: ServerConfigurationError.invalidLimit(option: "--max-markers", 0)) { try ServerConfiguration(maxMarkers: 0).validate() }
    }

    /// The router client says `Host: localhost` (port 80); the server here is on port 0.
    @Test func unknownHostIs421EvenForHealth() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application(allowedHosts: []).test(.router) { client in
            let health = try await client.get("/health")
            #expect(health.status == .misdirectedRequest)
            #expect(health.errorCode == "unknown-host")
            let post = try await client.send(.post, "/drawings/plan/markers", json: #"{"x":450,"y":400}"#)
            #expect(post.status == .misdirectedRequest)
        }
        #expect(try await fixture.store.drawing(named: "plan").markerCount == 0)
    }

    // MARK: Origin

    @Test(arguments: [
        ("POST", "https://evil.example", nil, 403),
        ("POST", "null", nil, 403),
        ("POST", "http://localhost.evil.example", nil, 403),
        ("POST", "http://localhost", nil, 201),
        ("POST", "HTTP://LOCALHOST", nil, 201),
        ("POST", "https://plans.example", "https://plans.example", 201),
        ("POST", "https://evil.example", "https://plans.example", 403),
        ("POST", "https://evil.example", "*", 201),
        ("PATCH", "https://evil.example", nil, 403),
        ("DELETE", "https://evil.example", nil, 403),
        ("GET", "https://evil.example", nil, 200),
    ] as [(String, String, String?, Int)])
    func writesFromAnotherOriginAre403(method: String, origin: String, corsOrigin: String?, status: Int) async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        _ = try await fixture.store.addMarker(to: "plan", at: .init(x: 450, y: 400), note: nil, author: nil)
        let path = method == "POST" ? "/drawings/plan/markers" : "/drawings/plan/markers/1"
        try await fixture.application(corsOrigin: corsOrigin).test(.router) { client in
            let body: ByteBuffer? = method == "DELETE" || method == "GET" ? nil : ByteBuffer(string: #"{"x":460,"y":410}"#)
            let response = try await client.execute(uri: path, method: HTTPRequest.Method(method)!,
                                                    headers: [.contentType: "application/json", .origin: origin], body: body)
            #expect(response.status.code == status, "\(response.text)")
            if status == 403 { #expect(response.errorCode == "forbidden-origin") }
        }
        if status == 403 {
            #expect(try await fixture.store.marker(1, in: "plan").position == .init(x: 450, y: 400))
            #expect(try await fixture.store.drawing(named: "plan").markerCount == 1)
        }
    }

    @Test func preflightStillWorksForTheConfiguredOrigin() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application(corsOrigin: "https://plans.example").test(.router) { client in
            let preflight = try await client.execute(uri: "/drawings/plan/markers", method: .options, headers: [
                .origin: "https://plans.example", .accessControlRequestMethod: "POST", .accessControlRequestHeaders: "content-type"])
            #expect(preflight.status == .noContent)
            #expect(preflight.headers[.accessControlAllowOrigin] == "https://plans.example")
            let post = try await client.send(.post, "/drawings/plan/markers", json: #"{"x":450,"y":400}"#, headers: [.origin: "https://plans.example"])
            #expect(post.status == .created)
            #expect(post.headers[.accessControlAllowOrigin] == "https://plans.example")
        }
    }

    // MARK: Bounds on POST /validate

    /// One square room, closed ring: 5 positions.
    static let squareRegions = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":"r","kind":"room"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]]]}}]}"#

    @Test(arguments: [
        (5, 3, "[[1,1],[2,2],[3,3]]", 200, nil),
        (4, 3, "[[1,1],[2,2],[3,3]]", 413, "too-many-vertices"),
        (5, 2, "[[1,1],[2,2],[3,3]]", 413, "too-many-markers"),
        (5, 2, #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,1]}},{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[2,2]}},{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[3,3]}}]}"#, 413, "too-many-markers"),
    ] as [(Int, Int, String, Int, String?)])
    func validationCountsAreBounded(maxVertices: Int, maxMarkers: Int, markers: String, status: Int, code: String?) async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application(maxVertices: maxVertices, maxMarkers: maxMarkers).test(.router) { client in
            let response = try await client.send(.post, "/validate", json: #"{"regions":"# + Self.squareRegions + #","markers":"# + markers + "}")
            #expect(response.status.code == status, "\(response.text)")
            #expect(response.errorCode == code)
            if code == "too-many-vertices" {
                #expect(response.errorMessage == "$.regions: more than 4 vertices; this server validates at most 4 (--max-vertices)")
            }
            if code == "too-many-markers" {
                #expect(response.errorMessage == "$.markers: more than 2 markers; this server validates at most 2 (--max-markers)")
            }
        }
    }

    @Test func validationsBeyondTheLimitAre503WithRetryAfter() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let limiter = ConcurrencyLimiter(limit: 1)
        let router = PlanMarkApplication.router(
            configuration: ServerConfiguration(port: 0, allowedHosts: [ServerFixture.testClientHost]), store: StoreAccess(fixture.store),
            logger: quietLogger, renderer: .init(), boundPort: BoundPort(0), validationLimiter: limiter)
        let body = #"{"regions":"# + Self.squareRegions + #","markers":[[1,1]]}"#
        #expect(limiter.tryAcquire())  // another validation is running
        try await Application(router: router).test(.router) { client in
            let refused = try await client.send(.post, "/validate", json: body)
            #expect(refused.status == .serviceUnavailable)
            #expect(refused.headers[.retryAfter] == "1")
            #expect(refused.errorCode == "too-many-validations")
            limiter.release()
            let served = try await client.send(.post, "/validate", json: body)
            #expect(served.status == .ok)
        }
        #expect(limiter.inUse == 0)
    }

    // MARK: HEAD and 405

    @Test(arguments: [
        "/health", "/openapi.json", "/drawings", "/drawings/plan", "/drawings/plan/image", "/drawings/plan/regions?zoom=3",
        "/drawings/plan/markers", "/drawings/plan/markers/1", "/drawings/plan/markers/1/history", "/drawings/nope",
    ])
    func headAnswersLikeGetWithoutABody(path: String) async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        _ = try await fixture.store.addMarker(to: "plan", at: .init(x: 450, y: 400), note: nil, author: nil)
        try await fixture.application().test(.router) { client in
            let get = try await client.get(path)
            let head = try await client.execute(uri: path, method: .head)
            #expect(head.status == get.status)
            #expect(head.headers[.contentType] == get.headers[.contentType])
            #expect(head.headers[.contentLength] == String(get.body.readableBytes))
            #expect(head.headers[.eTag] == get.headers[.eTag])
            #expect(head.body.readableBytes == 0)
            #expect(get.body.readableBytes > 0)
        }
    }

    @Test(arguments: [
        ("PUT", "/drawings/plan/markers/1", "GET, HEAD, PATCH, DELETE"),
        ("POST", "/drawings/plan/markers/1", "GET, HEAD, PATCH, DELETE"),
        ("GET", "/validate", "POST"),
        ("HEAD", "/validate", "POST"),
        ("DELETE", "/health", "GET, HEAD"),
        ("POST", "/drawings/plan", "GET, HEAD, PATCH, DELETE"),
        ("PATCH", "/drawings/plan/markers", "GET, HEAD, POST"),
        ("OPTIONS", "/drawings", "GET, HEAD"),
    ])
    func wrongMethodIs405WithAllow(method: String, path: String, allow: String) async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: path, method: HTTPRequest.Method(method)!, headers: [.contentType: "application/json"])
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers[.allow] == allow)
            if method != "HEAD" { #expect(response.errorCode == "method-not-allowed") }
        }
    }

    @Test func unknownPathsStay404() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            for path in ["/nothing", "/drawings/plan/nothing", "/drawings/plan/markers/1/history/x"] {
                let response = try await client.execute(uri: path, method: .post, headers: [.contentType: "application/json"])
                #expect(response.status == .notFound, "\(path)")
                #expect(response.errorCode == "not-found")
            }
        }
    }

    /// Every method the route table lists is served (not 404 or 405): the table and the routes agree.
    @Test func routeTableMatchesTheRouter() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            for entry in PlanMarkRoutes.table.entries {
                let path = "/" + entry.template.map { $0 == ":name" ? "plan" : $0 == ":number" ? "1" : String($0) }.joined(separator: "/")
                for method in entry.methods {
                    let response = try await client.execute(uri: path, method: method, headers: [.contentType: "application/json"], body: ByteBuffer(string: "{}"))
                    #expect(response.status != .methodNotAllowed && response.errorCode != "not-found", "\(method) \(path)")
                }
            }
        }
    }

    // MARK: A busy store

    /// The test holds an exclusive SQLite transaction on the store file; the server's store gives up
    /// after its 0.2 s busy timeout and the write is answered 503 with `Retry-After: 1`, naming no path.
    @Test(.hangGuard)
    func lockedStoreIs503WithRetryAfter() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let impatient = try SQLiteStore(path: fixture.storePath, create: false, busyTimeout: 0.2)
        let lock = try ExclusiveLock(path: fixture.storePath)
        let folderName = fixture.folder.lastPathComponent
        try await fixture.application(store: impatient).test(.router) { client in
            let refused = try await client.send(.post, "/drawings/plan/markers", json: #"{"x":450,"y":400}"#)
            #expect(refused.status == .serviceUnavailable)
            #expect(refused.headers[.retryAfter] == "1")
            #expect(refused.errorCode == "store-busy")
            #expect(!refused.text.contains(folderName))
            #expect(!refused.text.contains(".sqlite"))
            lock.release()
            let served = try await client.send(.post, "/drawings/plan/markers", json: #"{"x":450,"y":400}"#)
            #expect(served.status == .created)
        }
        #expect(try await fixture.store.drawing(named: "plan").markerCount == 1)
    }

    // MARK: No server paths in answers

    static let secret = "/srv/secret-folder/planmark.sqlite"

    @Test(arguments: [
        (StoreError.missingStore(path: secret), 500, "store-error"),
        (StoreError.newerSchema(path: secret, unknownMigrations: ["v9"]), 500, "store-error"),
        (StoreError.notPNG(path: secret, detail: "bad signature"), 500, "image-unavailable"),
        (StoreError.missingImage(path: secret), 500, "image-unavailable"),
        (StoreError.io("disk I/O error in \(secret)"), 500, "store-error"),
        (StoreError.busy(path: secret, seconds: 10), 503, "store-busy"),
    ])
    func storeErrorsNameNoPath(error: StoreError, status: Int, code: String) {
        let api = APIError(error)
        #expect(api.status.code == status)
        #expect(api.code == code)
        #expect(!api.jsonBody.contains("secret-folder"))
        #expect(api.detail?.contains("secret-folder") == true)
    }

    /// The drawing's image file is gone: the store still has the bytes, so both routes answer. A store
    /// from before images were kept in it (no bytes stored) whose file is gone answers 409 without the
    /// path, which goes to the log.
    @Test func missingImageAnswersWithoutItsPath() async throws {
        let folder = TestFolder.path("planmark-image")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("copy.png")
        try FileManager.default.copyItem(atPath: ServerFixture.samplePlan, toPath: copy.path)
        let fixture = try await ServerFixture(extra: [NewDrawing(name: "gone", imagePath: copy.path)])
        defer { fixture.remove() }
        try FileManager.default.removeItem(at: copy)
        let recorder = LogRecorder()
        let storePath = fixture.storePath
        try await fixture.application(logger: recorder.logger(level: .debug)).test(.router) { client in
            for path in ["/drawings/gone/review.png", "/drawings/gone/image"] {
                #expect(try await client.get(path).status == .ok, "\(path)")
            }
            // As a store made before images were kept inside it: no bytes, and the file is gone.
            var connection: OpaquePointer?
            try #require(sqlite3_open_v2(storePath, &connection, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK)
            try #require(sqlite3_exec(connection, "DELETE FROM image", nil, nil, nil) == SQLITE_OK)
            sqlite3_close(connection)
            for path in ["/drawings/gone/review.png", "/drawings/gone/image"] {
                let response = try await client.get(path)
                #expect(response.status == .conflict, "\(path)")
                #expect(response.errorCode == "image-changed")
                #expect(!response.text.contains(folder.lastPathComponent), "\(response.text)")
            }
        }
        #expect(recorder.all.contains { $0.contains(folder.lastPathComponent) })
    }

    // MARK: Zoom

    @Test(arguments: [
        ("/drawings/plan/markers?zoom=64.5", nil as String?, "zoom:"),
        ("/drawings/plan/regions?zoom=-65", nil, "zoom:"),
        ("/drawings/plan/markers", #"{"lat":1,"lng":1,"zoom":-64.01}"#, "$.zoom:"),
    ])
    func zoomBeyond64Is400NamingTheField(path: String, body: String?, prefix: String) async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = if let body { try await client.send(.post, path, json: body) } else { try await client.get(path) }
            #expect(response.status == .badRequest)
            #expect(response.errorMessage?.hasPrefix(prefix) == true, "\(response.errorMessage ?? "nil")")
        }
    }
}

/// A connection of the test's own that holds an exclusive SQLite transaction on a file until released.
final class ExclusiveLock: @unchecked Sendable {
    private var connection: OpaquePointer?

    struct Failure: Error {}

    /// Opens `path` and begins an exclusive transaction (no other connection can write).
    init(path: String) throws {
        guard sqlite3_open_v2(path, &connection, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK,
              sqlite3_exec(connection, "BEGIN EXCLUSIVE TRANSACTION", nil, nil, nil) == SQLITE_OK
        else {
            sqlite3_close(connection)
            throw Failure()
        }
    }

    /// Rolls back and closes.
    func release() {
        guard let connection else { return }
        sqlite3_exec(connection, "ROLLBACK", nil, nil, nil)
        sqlite3_close(connection)
        self.connection = nil
    }

    deinit { release() }
}
