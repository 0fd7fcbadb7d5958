#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How the service listens and whom it serves.
public struct ServerConfiguration: Sendable, Hashable {
    /// The address to bind: a hostname or an IP address.
    public var host: String
    /// The TCP port; 0 lets the system choose one.
    public var port: Int
    /// When set, every request but `/health` must carry `Authorization: Bearer <token>`.
    public var token: String?
    /// Request bodies larger than this are refused with 413.
    public var maxBodyBytes: Int
    /// When set, browsers on this origin (`*` for any) may call the service (CORS); nil sends no CORS headers.
    public var corsOrigin: String?
    /// More `Host` names the service answers to besides the address it listens on: `NAME` (on the
    /// bound port) or `NAME:PORT`.
    public var allowedHosts: [String]
    /// `POST /validate` refuses (413) regions with more vertices than this in all.
    public var maxVertices: Int
    /// `POST /validate` refuses (413) more markers than this.
    public var maxMarkers: Int
    /// At most this many validations run at once; more are refused with 503 and `Retry-After`.
    public var maxValidations: Int
    /// Attachment bodies (photos, PDFs) larger than this are refused with 413, from `Content-Length` before
    /// anything is read, or as soon as a chunked body passes it.
    public var maxAttachmentBytes: Int
    /// Where tile pyramids are kept (`<sha256>/<z>/<x>/<y>.png`); nil: beside the store, `<store>.tiles`.
    public var tileCacheDirectory: String?
    /// The most bytes of tiles the cache keeps; least recently used pyramids are evicted beyond it.
    public var tileCacheBytes: Int
    /// The most bytes of marker listings kept (`MarkerListCache`); 0 keeps none.
    public var markerListCacheBytes: Int
    /// The most CPU-heavy jobs (review images, reports, tile pyramids) running at once.
    public var maxHeavyJobs: Int
    /// The most heavy jobs waiting for a place; more are refused with 503 `server-busy` and `Retry-After`.
    public var heavyQueue: Int
    /// Seconds a new connection may take to send a whole request head; then it is closed.
    public var headTimeout: Double
    /// Seconds a kept-alive connection may take to send its next whole request head after an answer; then it is closed.
    public var idleTimeout: Double
    /// The most connections open at once; one more is answered 503 `too-many-connections` and closed.
    public var maxConnections: Int
    /// The most event streams (`GET /drawings/{name}/events`) open at once; one more is 503 `too-many-streams`.
    public var maxStreams: Int
    /// Seconds requests in flight may still run after SIGTERM (or SIGINT); then they are cancelled (heavy
    /// jobs stop at their next check) and the server stops.
    public var shutdownGrace: Double
    /// The NIO event loops (threads) that serve the HTTP connections and the PostgreSQL store's connections; the
    /// requests' handlers run on Swift's own pool of one thread a core. Nil: `defaultEventLoops(postgres:)` for the
    /// store. `planmark-server` applies it before anything starts (`NIOSingletons.groupLoopCountSuggestion`).
    public var eventLoops: Int?
    /// Seconds the PDF renderer (the child process `planmark-pdf`) may take to draw a PDF drawing's pyramid or one of
    /// its tiles before it is killed and the tile answered 504 `pdf-timed-out`.
    public var pdfTimeLimit: Double

    /// The default body limit: 1 MiB.
    public static let defaultMaxBodyBytes = 1 << 20
    /// The default attachment limit: 20 MiB.
    public static let defaultMaxAttachmentBytes = 20 << 20
    /// The default vertex limit of one validation: 200,000 (a 1 MiB body holds fewer; a large building
    /// with curved walls has about 100,000).
    public static let defaultMaxVertices = 200_000
    /// The default marker limit of one validation: 100,000.
    public static let defaultMaxMarkers = 100_000
    /// The default number of validations at once: the number of cores.
    public static var defaultMaxValidations: Int { onlineCores }
    /// The default tile cache bound: 1 GiB.
    public static let defaultTileCacheBytes = 1 << 30
    /// The default marker listing cache bound: 64 MiB.
    public static let defaultMarkerListCacheBytes = 64 << 20
    /// The default number of heavy jobs at once: the number of cores.
    public static var defaultMaxHeavyJobs: Int { onlineCores }
    /// The default number of heavy jobs waiting: 8.
    public static let defaultHeavyQueue = 8
    /// The default request-head timeout: 10 seconds.
    public static let defaultHeadTimeout = 10.0
    /// The default idle timeout of kept-alive connections: 60 seconds.
    public static let defaultIdleTimeout = 60.0
    /// The default connection cap: the open-files limit (`ulimit -n`) less 128 kept for the store, tiles
    /// and logs, at least 16 (896 under the common limit of 1,024).
    public static var defaultMaxConnections: Int {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur != rlim_t.max else { return 4096 }
        return max(16, Int(min(limit.rlim_cur, 1 << 20)) - 128)
    }
    /// The default number of event loops: one a core (SwiftNIO's default) for an SQLite store, half the cores (at
    /// least one) for a PostgreSQL store, measured on 2 cores (2026-11-28): with an SQLite store one loop took 5% fewer
    /// marker POSTs a second (`Benchmarks/server/posts-ab.sh`); with PostgreSQL one server was as fast with one loop as
    /// with two, and three servers sharing the cores with the database 20 to 30% faster (`Benchmarks/postgres/README.md`:
    /// each loop's thread that sleeps between requests is woken for each, and more threads than cores make more of those
    /// wake-ups).
    public static func defaultEventLoops(postgres: Bool) -> Int {
        postgres ? max(1, onlineCores / 2) : onlineCores
    }
    /// The cores the kernel has online (at least one): what the defaults above are counted in.
    static var onlineCores: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
    /// The most event loops `validate` accepts (a thread each).
    public static let maxEventLoops = 1024
    /// The default shutdown grace: 10 seconds.
    public static let defaultShutdownGrace = 10.0
    /// The default bound of event streams: 1,000.
    public static let defaultMaxStreams = 1_000
    /// The default PDF time limit: 60 seconds (`PDFRenderer.defaultTimeLimit`).
    public static let defaultPDFTimeLimit = 60.0

    /// Creates a configuration; the defaults serve loopback port 8080 without a token.
    public init(host: String = "127.0.0.1", port: Int = 8080, token: String? = nil,
                maxBodyBytes: Int = ServerConfiguration.defaultMaxBodyBytes, corsOrigin: String? = nil,
                allowedHosts: [String] = [], maxVertices: Int = ServerConfiguration.defaultMaxVertices,
                maxMarkers: Int = ServerConfiguration.defaultMaxMarkers, maxValidations: Int? = nil,
                maxAttachmentBytes: Int = ServerConfiguration.defaultMaxAttachmentBytes, tileCacheDirectory: String? = nil,
                tileCacheBytes: Int = ServerConfiguration.defaultTileCacheBytes,
                markerListCacheBytes: Int = ServerConfiguration.defaultMarkerListCacheBytes, maxHeavyJobs: Int? = nil,
                heavyQueue: Int = ServerConfiguration.defaultHeavyQueue, headTimeout: Double = ServerConfiguration.defaultHeadTimeout,
                idleTimeout: Double = ServerConfiguration.defaultIdleTimeout, maxConnections: Int? = nil, shutdownGrace: Double = ServerConfiguration.defaultShutdownGrace,
                maxStreams: Int = ServerConfiguration.defaultMaxStreams, pdfTimeLimit: Double = ServerConfiguration.defaultPDFTimeLimit,
                eventLoops: Int? = nil) {
        self.host = host
        self.port = port
        self.token = token
        self.maxBodyBytes = maxBodyBytes
        self.corsOrigin = corsOrigin
        self.allowedHosts = allowedHosts
        self.maxVertices = maxVertices
        self.maxMarkers = maxMarkers
        self.maxValidations = maxValidations ?? Self.defaultMaxValidations
        self.maxAttachmentBytes = maxAttachmentBytes
        self.tileCacheDirectory = tileCacheDirectory
        self.tileCacheBytes = tileCacheBytes
        self.markerListCacheBytes = markerListCacheBytes
        self.maxHeavyJobs = maxHeavyJobs ?? Self.defaultMaxHeavyJobs
        self.heavyQueue = heavyQueue
        self.headTimeout = headTimeout
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections ?? Self.defaultMaxConnections
        self.shutdownGrace = shutdownGrace
        self.maxStreams = maxStreams
        self.pdfTimeLimit = pdfTimeLimit
        self.eventLoops = eventLoops
    }

    /// Checks the configuration before anything is bound: a port in range, positive limits, a
    /// non-empty token, well-formed allowed hosts, and a token whenever the host is not a loopback address.
    public func validate() throws(ServerConfigurationError) {
        guard (0...65535).contains(port) else { throw .invalidPort(port) }
        guard maxBodyBytes > 0 else { throw .invalidBodyLimit(maxBodyBytes) }
        guard maxVertices > 0 else { throw .invalidLimit(option: "--max-vertices", maxVertices) }
        guard maxMarkers > 0 else { throw .invalidLimit(option: "--max-markers", maxMarkers) }
        guard maxStreams > 0 else { throw .invalidLimit(option: "--max-streams", maxStreams) }
        guard maxValidations > 0 else { throw .invalidLimit(option: "--max-validations", maxValidations) }
        guard maxAttachmentBytes > 0 else { throw .invalidLimit(option: "--max-attachment", maxAttachmentBytes) }
        guard tileCacheBytes > 0 else { throw .invalidLimit(option: "--tile-cache-size", tileCacheBytes) }
        guard markerListCacheBytes >= 0 else { throw .invalidLimit(option: "--marker-list-cache-size", markerListCacheBytes) }
        guard maxHeavyJobs > 0 else { throw .invalidLimit(option: "--max-heavy-jobs", maxHeavyJobs) }
        guard heavyQueue >= 0 else { throw .invalidLimit(option: "--heavy-queue", heavyQueue) }
        guard maxConnections > 0 else { throw .invalidLimit(option: "--max-connections", maxConnections) }
        if let eventLoops, !(1...Self.maxEventLoops).contains(eventLoops) { throw .invalidLimit(option: "--event-loops", eventLoops) }
        guard headTimeout.isFinite, headTimeout > 0, headTimeout <= 86_400 else { throw .invalidSeconds(option: "--head-timeout", headTimeout) }
        guard idleTimeout.isFinite, idleTimeout > 0, idleTimeout <= 86_400 else { throw .invalidSeconds(option: "--idle-timeout", idleTimeout) }
        guard shutdownGrace.isFinite, shutdownGrace >= 0, shutdownGrace <= 86_400 else {
            throw .invalidSeconds(option: "--shutdown-grace", shutdownGrace)
        }
        guard pdfTimeLimit.isFinite, pdfTimeLimit > 0, pdfTimeLimit <= 86_400 else { throw .invalidSeconds(option: "--pdf-time-limit", pdfTimeLimit) }
        if let tileCacheDirectory, tileCacheDirectory.isEmpty { throw .invalidTileCache }
        for name in allowedHosts where HostAuthority(allowedHost: name) == nil { throw .invalidAllowedHost(name) }
        if let token, token.isEmpty || token.contains(where: { $0.isWhitespace }) { throw .invalidToken }
        if token == nil && !Self.isLoopback(host) { throw .tokenRequired(host: host) }
    }

    /// True for `localhost`, `127.0.0.0/8` and `::1`: addresses no other machine can reach.
    /// - Complexity: O(length of `host`).
    public static func isLoopback(_ host: String) -> Bool {
        let lower = host.lowercased()
        if lower == "localhost" || lower == "::1" || lower == "[::1]" || lower == "0:0:0:0:0:0:0:1" { return true }
        let parts = lower.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(part), value <= 255 else {
                return false
            }
        }
        return parts[0] == "127"
    }
}

/// Why the service refuses to start.
public enum ServerConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Listening beyond loopback without a token would open the store to anyone who can reach the host.
    case tokenRequired(host: String)
    /// The port is not in 0...65535.
    case invalidPort(Int)
    /// The body limit is not positive.
    case invalidBodyLimit(Int)
    /// A limit (`--max-vertices`, `--max-markers`, `--max-validations`, `--max-attachment`, `--tile-cache-size`,
    /// `--max-heavy-jobs`, `--max-connections`) is not positive, or `--heavy-queue` is negative.
    case invalidLimit(option: String, Int)
    /// A time (`--head-timeout`, `--idle-timeout`, `--shutdown-grace`, `--pdf-time-limit`) is not a number of seconds in
    /// range.
    case invalidSeconds(option: String, Double)
    /// An `--allowed-host` value is not `NAME` or `NAME:PORT`.
    case invalidAllowedHost(String)
    /// The token is empty or contains white space.
    case invalidToken
    /// `--tile-cache` is empty.
    case invalidTileCache
    /// The token file could not be read or is empty.
    case unreadableTokenFile(path: String, detail: String)

    /// One line saying what is wrong.
    public var description: String {
        switch self {
        case .tokenRequired(let host):
            return "refusing to listen on \(host) without a token: give --token or --token-file, or listen on 127.0.0.1"
        case .invalidPort(let port):
            return "--port: \(port) is not in 0...65535"
        case .invalidBodyLimit(let limit):
            return "--max-body: \(limit) is not a positive number of bytes"
        case .invalidLimit(let option, let value):
            let range = switch option {
            case "--heavy-queue": "number >= 0"
            case "--event-loops": "number in 1...\(ServerConfiguration.maxEventLoops)"
            default: "positive number"
            }
            return "\(option): \(value) is not a \(range)"
        case .invalidSeconds(let option, let value):
            return "\(option): \(value) is not a number of seconds in " + (option == "--shutdown-grace" ? "[0, 86400]" : "(0, 86400]")
        case .invalidAllowedHost(let name):
            return "--allowed-host: \"\(name)\" is not NAME or NAME:PORT (port 1...65535)"
        case .invalidToken:
            return "--token: the token must be non-empty and contain no white space"
        case .invalidTileCache:
            return "--tile-cache: expected a folder path"
        case .unreadableTokenFile(let path, let detail):
            return "\(path): cannot read the token: \(detail)"
        }
    }
}
