import Foundation
import Hummingbird
import Logging
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore
import PlanMarkSQLite
import Testing
@testable import PlanMarkServer
import PlanMarkTestSupport

/// A temporary store holding the sample drawing (2400x1600, Leaflet, zoom 8) with its regions, and
/// the application over it.
struct ServerFixture {
    /// The repository's root folder.
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The sample drawing's image.
    static let samplePlan = repositoryRoot.appendingPathComponent("Drawings/sample/plan.png").path
    /// The sample drawing's regions.
    static let sampleRegions = repositoryRoot.appendingPathComponent("Drawings/sample/regions.geojson").path

    /// The temporary folder.
    let folder: URL
    /// The store file.
    let storePath: String
    /// The store.
    let store: SQLiteStore

    /// Creates a store with the sample drawing named `plan` (and any `extra` drawings).
    init(extra: [NewDrawing] = []) async throws {
        folder = try TestFolder.make("planmark-server")
        storePath = folder.appendingPathComponent("store.sqlite").path
        store = try SQLiteStore(path: storePath, create: true)
        let regions = try RegionsFile.read(path: Self.samplePlanRegionsPath)
        _ = try await store.addDrawing(NewDrawing(name: "plan", imagePath: Self.samplePlan), regions: regions)
        for drawing in extra { _ = try await store.addDrawing(drawing, regions: regions) }
    }

    static var samplePlanRegionsPath: String { sampleRegions }

    /// The router client (and the live one of `test(.live)`) sends `Host: localhost` without a port,
    /// which is port 80: the fixture allows that name unless a test asks for other hosts.
    static let testClientHost = "localhost:80"

    /// The application over the fixture's store (or `store`), for `.router` or `.live` tests.
    func application(token: String? = nil, maxBody: Int = ServerConfiguration.defaultMaxBodyBytes, corsOrigin: String? = nil,
                     allowedHosts: [String] = [ServerFixture.testClientHost], maxVertices: Int = ServerConfiguration.defaultMaxVertices,
                     maxMarkers: Int = ServerConfiguration.defaultMaxMarkers, maxValidations: Int? = nil,
                     maxAttachment: Int = ServerConfiguration.defaultMaxAttachmentBytes,
                     store: SQLiteStore? = nil, logger: Logger = quietLogger, tileCache: TileCache? = nil,
                     signInThrottle: SignInThrottle = SignInThrottle(), liveEvents: Bool = false) throws -> some ApplicationProtocol
    {
        try PlanMarkApplication.application(
            configuration: ServerConfiguration(
                host: "127.0.0.1", port: 0, token: token, maxBodyBytes: maxBody, corsOrigin: corsOrigin, allowedHosts: allowedHosts,
                maxVertices: maxVertices, maxMarkers: maxMarkers, maxValidations: maxValidations, maxAttachmentBytes: maxAttachment,
                headTimeout: Self.headTimeout, idleTimeout: Self.headTimeout),
            store: StoreAccess(store ?? self.store), logger: logger, tileCache: tileCache, signInThrottle: signInThrottle, liveEvents: liveEvents)
    }

    /// The live servers' request-head and idle timeouts: long, because the tests share one process whose
    /// cooperative threads some tests block for a while (a client task then sends its request late); the
    /// timeouts themselves are tested with their own values (ServerRobustnessTests).
    static let headTimeout = 300.0

    /// Removes the folder.
    func remove() { try? FileManager.default.removeItem(at: folder) }
}

/// How long a live-socket test client waits for an answer before it gives up: a guard against a hung
/// server, not a wait for anything (HummingbirdTesting's 15-20 s, used before, failed on a loaded machine).
let liveReadTimeout: Duration = .seconds(300)

/// A logger that drops everything below errors.
let quietLogger: Logger = {
    var logger = Logger(label: "test")
    logger.logLevel = .error
    return logger
}()

extension TestResponse {
    /// The body as text.
    var text: String { String(buffer: body) }

    /// The body parsed as JSON.
    var json: Any? { try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) }

    /// `error.code` of a JSON error body.
    var errorCode: String? { ((json as? [String: Any])?["error"] as? [String: Any])?["code"] as? String }

    /// `error.message` of a JSON error body.
    var errorMessage: String? { ((json as? [String: Any])?["error"] as? [String: Any])?["message"] as? String }

    /// The body as a JSON object.
    var object: [String: Any] { (json as? [String: Any]) ?? [:] }
}

extension ApplicationTestClient {
    /// POSTs or PATCHes `json` text.
    func send(_ method: HTTPRequest.Method, _ uri: String, json: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        var all: HTTPFields = [.contentType: "application/json"]
        all.append(contentsOf: headers)
        return try await execute(uri: uri, method: method, headers: all, body: ByteBuffer(string: json))
    }

    /// GETs `uri`.
    func get(_ uri: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await execute(uri: uri, method: .get, headers: headers)
    }
}

extension TestClient {
    /// GETs `uri` naming `host` (`NAME:PORT`) in the Host header; the plain `get` sends none.
    func get(_ uri: String, host: String, headers: HTTPFields = [:]) async throws -> Response {
        try await execute(Request(uri, method: .get, authority: host, headers: headers))
    }
}

/// The `[lng, lat]` or `[x, y]` coordinates and properties of every Point feature of a GeoJSON response.
/// Coordinates are read from the text with `Double(String)` (correctly rounded), not through
/// JSONSerialization, whose number parsing on Linux can be off by a few units in the last place.
func features(_ response: TestResponse) -> [(coordinates: [Double], properties: [String: Any])] {
    let list = response.object["features"] as? [[String: Any]] ?? []
    let points = response.text.matches(of: /"coordinates":\[([^\[\],]+),([^\[\],]+)\]/).map { [Double($0.1)!, Double($0.2)!] }
    return list.enumerated().map { index, feature in
        (index < points.count ? points[index] : [], feature["properties"] as? [String: Any] ?? [:])
    }
}

/// Width and height from a PNG's IHDR chunk; nil when the bytes are not a PNG.
func pngSize(_ buffer: ByteBuffer) -> (width: Int, height: Int)? {
    let bytes = Array(buffer.readableBytesView)
    guard bytes.count >= 24, bytes[0..<8] == [137, 80, 78, 71, 13, 10, 26, 10] else { return nil }
    func be32(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (be32(16), be32(20))
}

/// Built executables next to the test bundle.
enum BuiltProducts {
    /// The folder holding the test bundle and the built executables.
    static let folder: URL = {
        var candidates: [URL] = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        for bundle in Bundle.allBundles { candidates.append(bundle.bundleURL.deletingLastPathComponent()) }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("planmark").path) } ?? candidates[0]
    }()

    /// The path of executable `name`.
    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
}

extension ServerFixture {
    /// Two users and their tokens: sam, a subcontractor of Acme in the default project (he sees the markers assigned to
    /// Acme), and eve, a manager of another project ("Elsewhere": the default project's drawings are 404 to her).
    func subcontractorAndOutsider() async throws -> (sam: String, eve: String) {
        _ = try await store.addProject(named: "Elsewhere")
        _ = try await store.addUser(User(name: "sam", email: "sam@example.com", company: "Acme", createdAt: .now()))
        _ = try await store.grant(.subcontractor, in: Project.defaultName, to: "sam")
        _ = try await store.addUser(User(name: "eve", email: "eve@example.com", company: nil, createdAt: .now()))
        _ = try await store.grant(.manager, in: "Elsewhere", to: "eve")
        return (try await store.addToken(for: "sam", label: nil, expires: nil).secret, try await store.addToken(for: "eve", label: nil, expires: nil).secret)
    }
}
