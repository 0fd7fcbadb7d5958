import ArgumentParser
import PlanMarkFrontDoor
import Logging
import NIOCore
import PlanMarkExport
import PlanMarkServer
import PlanMarkStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `planmark-server`: serves one store over HTTP until SIGINT or SIGTERM. `planmark serve` runs it.
@main
struct PlanMarkServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "planmark-server",
        abstract: "Serve a PlanMark store to map clients over HTTP (JSON, GeoJSON, PNG).",
        discussion: """
        Stops on SIGINT or SIGTERM: no new connections, requests in flight finish (those still running after \
        --shutdown-grace seconds are cancelled, and answers still being sent then are cut off), the store is closed.
        Without a token the service still refuses: writes not sent as application/json (415), a Host \
        that is not this server (421; see --allowed-host), and writes from a page on another origin (403).
        GET / is the review page (the project's HTML and ES modules with Leaflet from --leaflet-dir and \
        Leaflet.markercluster from --markercluster-dir), served without the token; the page asks for it and sends it \
        as a Bearer header with every API call.
        Exit status: 0 stopped cleanly, 1 could not start (address in use ...), 64 bad usage \
        (e.g. a non-loopback host without a token, or a store URL that cannot be used), 66 missing store or review page \
        folder, 74 store I/O error or database unreachable.
        The store is an SQLite file or a PostgreSQL database, postgres://USER@HOST[:PORT]/DATABASE (the password from \
        $PGPASSWORD or the URL; never printed or logged). Several servers may share one PostgreSQL store; a write \
        whose connection is lost answers 503 and is applied whole or not at all.
        """,
        version: "planmark-server " + PlanMarkVersion.current
    )

    @Option(name: .long, help: ArgumentHelp(
        "The store: an SQLite file or postgres://USER@HOST[:PORT]/DATABASE (default: $PLANMARK_STORE, else planmark.sqlite).",
        valueName: "store"))
    var store: String?

    @Option(name: .long, help: "The address to listen on; anything but loopback requires a token.")
    var host = "127.0.0.1"

    @Option(name: .long, help: "The TCP port (0: any free port; the chosen one is logged).")
    var port = 8080

    @Option(name: .long, help: ArgumentHelp("Require 'Authorization: Bearer TOKEN' on every request but /health and the review page's files.", valueName: "token"))
    var token: String?

    @Option(name: .long, help: ArgumentHelp("Read the token from this file (first line).", valueName: "file"))
    var tokenFile: String?

    @Option(name: .long, help: ArgumentHelp("The largest request body accepted, in bytes (default 1 MiB).", valueName: "bytes"))
    var maxBody = ServerConfiguration.defaultMaxBodyBytes

    @Option(name: .long, help: ArgumentHelp("The largest attachment (photo, PDF) accepted, in bytes (default 20 MiB).", valueName: "bytes"))
    var maxAttachment = ServerConfiguration.defaultMaxAttachmentBytes

    @Option(name: .long, help: ArgumentHelp("Let browser clients on this origin call the service (CORS); * for any.", valueName: "origin"))
    var corsOrigin: String?

    @Option(name: .long, help: ArgumentHelp(
        "Also answer requests whose Host is NAME (on the listening port) or NAME:PORT; repeatable. Others get 421.", valueName: "name"))
    var allowedHost: [String] = []

    @Option(name: .long, help: ArgumentHelp("POST /validate: the most region vertices one request may hold (default 200000).", valueName: "count"))
    var maxVertices = ServerConfiguration.defaultMaxVertices

    @Option(name: .long, help: ArgumentHelp("POST /validate: the most markers one request may hold (default 100000).", valueName: "count"))
    var maxMarkers = ServerConfiguration.defaultMaxMarkers

    @Option(name: .long, help: ArgumentHelp("POST /validate: the most validations at once; more get 503 (default: the number of cores).", valueName: "count"))
    var maxValidations: Int?

    @Option(name: .long, help: ArgumentHelp("Where tile pyramids are cached (default: the SQLite store's path + .tiles; for PostgreSQL $TMPDIR/planmark-tiles-UID).", valueName: "dir"))
    var tileCache: String?

    @Option(name: .long, help: ArgumentHelp(
        "The most bytes of tiles cached; least recently used pyramids are removed beyond it (default 1 GiB).", valueName: "bytes"))
    var tileCacheSize = ServerConfiguration.defaultTileCacheBytes

    @Option(name: .long, help: ArgumentHelp(
        "The most bytes of GET .../markers answers kept for repeated requests until the drawing changes; 0 keeps none (default 64 MiB).",
        valueName: "bytes"))
    var markerListCacheSize = ServerConfiguration.defaultMarkerListCacheBytes

    @Option(name: .long, help: ArgumentHelp(
        "The most review images, reports and tile pyramids made at once (default: the number of cores).", valueName: "count"))
    var maxHeavyJobs: Int?

    @Option(name: .long, help: ArgumentHelp(
        "The most review images, reports and tile pyramids waiting for a place; more get 503 server-busy (default 8).", valueName: "count"))
    var heavyQueue = ServerConfiguration.defaultHeavyQueue

    @Option(name: .long, help: ArgumentHelp(
        "Close a new connection that has not sent a whole request head within this many seconds (default 10).", valueName: "seconds"))
    var headTimeout = ServerConfiguration.defaultHeadTimeout

    @Option(name: .long, help: ArgumentHelp(
        "Close a kept-alive connection that has not sent its next whole request head this many seconds after its last answer (default 60).",
        valueName: "seconds"))
    var idleTimeout = ServerConfiguration.defaultIdleTimeout

    @Option(name: .long, help: ArgumentHelp(
        "The most connections open at once; more are answered 503 and closed (default: the open-files limit less 128).", valueName: "count"))
    var maxConnections: Int?

    @Option(name: .long, help: ArgumentHelp(
        "Event loops (threads) for the HTTP and PostgreSQL connections, 1 to 1024 (default: $NIO_SINGLETON_GROUP_LOOP_COUNT when set, else one a core for an SQLite store and half the cores for PostgreSQL).",
        valueName: "count"))
    var eventLoops: Int?

    @Option(name: .long, help: ArgumentHelp(
        "The most event streams (GET /drawings/NAME/events) open at once; more are answered 503 (default 1000).", valueName: "count"))
    var maxStreams = ServerConfiguration.defaultMaxStreams

    @Option(name: .long, help: ArgumentHelp(
        "Seconds requests in flight may still run after SIGTERM or SIGINT before they are cancelled (default 10).", valueName: "seconds"))
    var shutdownGrace = ServerConfiguration.defaultShutdownGrace

    @Option(name: .long, help: ArgumentHelp(
        "Seconds the PDF renderer may take to draw a PDF drawing's tiles before it is stopped and the tile answered 504 (default 60).",
        valueName: "seconds"))
    var pdfTimeLimit = ServerConfiguration.defaultPDFTimeLimit

    @Option(name: .long, help: ArgumentHelp("Seconds a write waits for another process's lock on an SQLite store before 503 (default 10).", valueName: "seconds"))
    var busyTimeout: Double = StoreOpener.defaultBusyTimeout

    @Option(name: .long, help: ArgumentHelp(
        "Serve the review page (GET /) from this folder instead of the copy built into planmark-server.", valueName: "dir"))
    var webRoot: String?

    @Option(name: .long, help: ArgumentHelp(
        "Leaflet's files for the review page (Debian's libjs-leaflet puts them here).", valueName: "dir"))
    var leafletDir = ReviewPageFiles.defaultLeafletDirectory

    @Option(name: .customLong("markercluster-dir"), help: ArgumentHelp(
        "Leaflet.markercluster's files for the review page (Debian's libjs-leaflet.markercluster puts them here).", valueName: "dir"))
    var markerClusterDir = ReviewPageFiles.defaultMarkerClusterDirectory

    @Option(name: .long, help: ArgumentHelp("trace, debug, info (default), notice, warning, error or critical.", valueName: "level"))
    var logLevel = "info"

    func validate() throws {
        if token != nil && tokenFile != nil { throw ValidationError("give --token or --token-file, not both") }
        guard busyTimeout.isFinite, busyTimeout >= 0 else { throw ValidationError("--busy-timeout: expected a number of seconds >= 0") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level: expected trace, debug, info, notice, warning, error or critical")
        }
    }

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "planmark-server")
        let configuration: ServerConfiguration
        do {
            configuration = ServerConfiguration(
                host: host, port: port, token: try resolvedToken(), maxBodyBytes: maxBody, corsOrigin: corsOrigin,
                allowedHosts: allowedHost, maxVertices: maxVertices, maxMarkers: maxMarkers, maxValidations: maxValidations,
                maxAttachmentBytes: maxAttachment, tileCacheDirectory: tileCache, tileCacheBytes: tileCacheSize,
                markerListCacheBytes: markerListCacheSize,
                maxHeavyJobs: maxHeavyJobs, heavyQueue: heavyQueue, headTimeout: headTimeout, idleTimeout: idleTimeout, maxConnections: maxConnections,
                shutdownGrace: shutdownGrace, maxStreams: maxStreams, pdfTimeLimit: pdfTimeLimit,
                eventLoops: eventLoops ?? getenv("NIO_SINGLETON_GROUP_LOOP_COUNT").flatMap { Int(String(cString: $0)) })
            try configuration.validate()
        } catch {
            printError("planmark-server: \(error.description)")
            if case .unreadableTokenFile = error { throw ExitCode(66) }
            throw ExitCode(64)
        }
        // Before the HTTP server or the store's client first uses NIO's event loop group.
        NIOSingletons.groupLoopCountSuggestion = configuration.eventLoops
            ?? ServerConfiguration.defaultEventLoops(postgres: StoreLocation(option: store).isPostgres)
        let access: StoreAccess
        let storeName: String
        do {
            let opened = try await StoreOpener.open(StoreLocation(option: store), create: false, busyTimeout: busyTimeout, logsToStderr: false)
            (access, storeName) = (StoreAccess(opened.store), opened.name)
        } catch {
            printError("planmark-server: \(error.description)")
            throw ExitCode(error.exitStatus)
        }
        let page: ReviewPageFiles
        do throws(ReviewPageError) {
            guard let root = webRoot ?? ReviewPageFiles.bundledWebRoot else { throw ReviewPageError.missingPage("ReviewPage") }
            page = try ReviewPageFiles(webRoot: root, leafletDirectory: leafletDir, markerClusterDirectory: markerClusterDir)
        } catch {
            printError("planmark-server: \(error.description)")
            throw ExitCode(66)
        }
        if let problem = page.leafletProblem { logger.warning("\(problem)") }
        if let problem = page.markerClusterProblem { logger.warning("\(problem)") }
        let host = configuration.host
        let app = try PlanMarkApplication.application(configuration: configuration, store: access, logger: logger, page: page) { port in
            logger.info("listening on http://\(host.contains(":") ? "[\(host)]" : host):\(port) (store \(storeName))")
        }
        do {
            try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
        } catch {
            printError("planmark-server: \(error)")
            throw ExitCode(1)
        }
        logger.info("stopped; store closed")
    }

    /// `--token`, else the first line of `--token-file`, else nil.
    func resolvedToken() throws(ServerConfigurationError) -> String? {
        if let token { return token }
        guard let tokenFile else { return nil }
        guard let file = fopen(tokenFile, "rb") else {
            throw .unreadableTokenFile(path: tokenFile, detail: String(cString: strerror(errno)))
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count <= 64 << 10 {
            let count = fread(&buffer, 1, buffer.count, file)
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        let line = String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).first.map(String.init) ?? ""
        let token = line.trimmingCharacters()
        guard !token.isEmpty else { throw .unreadableTokenFile(path: tokenFile, detail: "the file is empty") }
        return token
    }
}

/// Writes `line` to stderr.
func printError(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}

extension String {
    /// The text without leading and trailing white space.
    func trimmingCharacters() -> String {
        String(self.drop(while: { $0.isWhitespace }).reversed().drop(while: { $0.isWhitespace }).reversed())
    }
}
