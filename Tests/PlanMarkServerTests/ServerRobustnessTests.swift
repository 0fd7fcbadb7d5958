import Foundation
import Hummingbird
import Logging
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore
import PlanMarkTestSupport
import PlanMarkSQLite
import Synchronization
import Testing
@testable import PlanMarkServer

#if canImport(Glibc)
import Glibc
#endif

/// Issue 23, the service's part: heavy jobs (reports, renders, tiles) never hold up store calls, are bounded
/// (503 `server-busy`) and cancelled when their client goes away or the server stops; slow clients cannot
/// hold connections (request-head timeout, connection cap); a replaced SQLite store is refused (503
/// `store-replaced`); two `Host` headers and an absolute-form target naming another host are refused.
/// Every wait is for an event (a log line, an answer, a closed connection); one bounded retry is marked.
@Suite(.serialized) struct ServerRobustnessTests {
    /// The sample store with `markers` markers, each with a note of a few lines: a report of it takes a while.
    static func fixture(markers: Int) async throws -> ServerFixture {
        let fixture = try await ServerFixture()
        let note = String(repeating: "Plaster crack above the door to be filled, sanded and painted. ", count: 6)
        for index in 0..<markers {
            let at = index % 2 == 0 ? PixelPoint(x: 450, y: 400) : PixelPoint(x: 900, y: 300)
            _ = try await fixture.store.addMarker(to: "plan", at: at, note: "Item \(index): " + note, author: nil)
        }
        return fixture
    }

    /// The application over `fixture`'s store with the given limits, logging to `recorder`.
    static func application(_ fixture: ServerFixture, recorder: LogRecorder, level: Logger.Level = .info, maxHeavyJobs: Int = 2,
                            heavyQueue: Int = 8, headTimeout: Double = ServerFixture.headTimeout, idleTimeout: Double = ServerFixture.headTimeout,
                            maxConnections: Int = 1000,
                            shutdownGrace: Double = 10) throws -> some ApplicationProtocol {
        try PlanMarkApplication.application(
            configuration: ServerConfiguration(
                host: "127.0.0.1", port: 0, allowedHosts: [ServerFixture.testClientHost], maxHeavyJobs: maxHeavyJobs, heavyQueue: heavyQueue,
                headTimeout: headTimeout, idleTimeout: idleTimeout, maxConnections: maxConnections, shutdownGrace: shutdownGrace),
            store: StoreAccess(fixture.store), logger: recorder.logger(level: level), liveEvents: false)
    }

    /// `GET path` on a new connection; its answer.
    static func get(_ path: String, port: Int) async throws -> RawHTTPConnection.Answer {
        let connection = try RawHTTPConnection(port: port)
        try connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        return try await connection.readAnswer()
    }

    // MARK: Item 2: heavy jobs and store calls

    /// Two reports run (both have started, as the server's log says, and both are being sent) and cannot end, for
    /// their clients read nothing more of them than the first bytes: each is 600 markers' notes (the CPU) and then
    /// 30 photos of 2 MiB, more than the report pipe (1 MiB) and the sockets' buffers hold. Meanwhile marker GETs are
    /// answered (on main they waited for the reports' end, up to 57 s). Then the report clients go away (they close
    /// their connections): both reports stop, as the server logs, instead of being built to the end. Nothing here is
    /// timed: every step waits for an event.
    @Test(.hangGuard)
    func markerReadsAreAnsweredWhileTwoReportsRunAndAbandonedReportsStop() async throws {
        let fixture = try await Self.fixture(markers: 600)
        defer { fixture.remove() }
        let photo = DeclaredPhoto.jpeg(width: 64, height: 48, filler: 2 << 20)
        for number in 571...600 {
            _ = try await fixture.store.attach(photo, declaredType: nil, caption: nil, toMarker: number, in: "plan", author: nil)
        }
        let recorder = LogRecorder()
        try await Self.application(fixture, recorder: recorder, level: .debug, maxHeavyJobs: 2).test(.live) { client in
            let port = try #require(client.port)
            let reports = try (0..<2).map { _ in try RawHTTPConnection(port: port) }
            for connection in reports {
                try connection.send("GET /drawings/plan/report.pdf HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            }
            _ = await recorder.waitForLine { $0.contains("heavy job started: report of drawing \"plan\" (2 running)") }
            // A report is sent once its first 256 KiB are made; from then on it waits for its client.
            for connection in reports {
                let first = try await connection.readSome()
                #expect(String(decoding: first.prefix(12), as: UTF8.self) == "HTTP/1.1 200")
            }

            for _ in 0..<7 {
                #expect(try await Self.get("/drawings/plan/markers/1", port: port).status == 200)
            }
            let stopped = { @Sendable (line: String) in line.hasPrefix("report of drawing \"plan\" stopped") }
            #expect(!recorder.all.contains(where: stopped), "a report stopped before its client went away")

            for connection in reports { connection.abort() }
            let seen = Mutex(0)
            _ = await recorder.waitForLine { line in stopped(line) && seen.withLock { count in count += 1; return count == 2 } }
        }
    }

    /// Beyond `--max-heavy-jobs` running and `--heavy-queue` waiting, a heavy job is refused at once with 503
    /// `server-busy` and `Retry-After`; once the place is free again, jobs run.
    @Test func heavyJobsBeyondTheQueueAre503() async throws {
        let heavy = HeavyWork(limit: 1, queueLimit: 0)
        let (started, startedInput) = AsyncStream.makeStream(of: Void.self)
        let (release, releaseInput) = AsyncStream.makeStream(of: Void.self)
        let first = Task {
            try await heavy.run("first") { () async -> Int in
                startedInput.yield()
                for await _ in release { break }
                return 1
            }
        }
        var iterator = started.makeAsyncIterator()
        _ = await iterator.next()
        do {
            _ = try await heavy.run("second") { 2 }
            Issue.record("a second job ran while the only place was taken")
        } catch let error as APIError {
            #expect(error.status == .serviceUnavailable)
            #expect(error.code == "server-busy")
            #expect(error.headers[.retryAfter] != nil)
        }
        releaseInput.yield()
        #expect(try await first.value == 1)
        #expect(try await heavy.run("third") { 3 } == 3)
        #expect(heavy.inUse == 0)
    }

    /// A job runs in its task: cancelling the task before it starts means it never starts, and a running job
    /// sees `Task.isCancelled`.
    @Test func heavyJobsSeeTheirTasksCancellation() async throws {
        let heavy = HeavyWork(limit: 1, queueLimit: 4)
        let (started, startedInput) = AsyncStream.makeStream(of: Void.self)
        let job = Task {
            try await heavy.run("cancelled") { () async throws -> Int in
                startedInput.yield()
                while !Task.isCancelled { await Task.yield() }
                throw CancellationError()
            }
        }
        var iterator = started.makeAsyncIterator()
        _ = await iterator.next()
        job.cancel()
        await #expect(throws: CancellationError.self) { try await job.value }
        let never = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await heavy.run("never") { Issue.record("a cancelled job started"); return 0 }
        }
        await #expect(throws: CancellationError.self) { try await never.value }
    }

    /// SIGTERM while a report runs: the report is cancelled after `--shutdown-grace` (answered 503
    /// `request-cancelled`) and the server exits 0, instead of building the report to the end first.
    @Test(.hangGuard)
    func sigtermStopsTheServerWhileAReportRuns() async throws {
        let fixture = try await Self.fixture(markers: 600)
        defer { fixture.remove() }
        let server = try await RunningServer(
            executable: BuiltProducts.path("planmark-server"),
            arguments: ["--store", fixture.storePath, "--port", "0", "--log-level", "debug", "--shutdown-grace", "1"])
        let port = server.port
        let connection = try RawHTTPConnection(port: port)
        try connection.send("GET /drawings/plan/report.pdf HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        try await server.waitForStderr(containing: "heavy job started: report of drawing \"plan\"")
        let signalled = ContinuousClock.now
        server.signal(SIGTERM)
        let answer = try await connection.readAnswer()
        #expect(answer.status == 503, "\(answer.status) \(answer.text)")
        #expect(answer.errorCode == "request-cancelled")
        #expect(await server.waitForExit() == 0, "\(server.stderr)")
        #expect(ContinuousClock.now - signalled < .seconds(60))
        #expect(server.stderr.contains("stopped; store closed"))
    }

    /// `--event-loops` is the number of SwiftNIO event loop threads the server runs (their names, as the kernel
    /// lists them in `/proc/PID/task/*/comm`, are `NIO-SGLTN-G-#N`); without it an SQLite store's server runs one a
    /// core (the cores the kernel has online); 0 is a usage error.
    @Test(.hangGuard)
    func eventLoopsSetsTheServersLoopThreads() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        for (arguments, expected) in [(["--event-loops", "3"], 3), ([], Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))] {
            let server = try await RunningServer(
                executable: BuiltProducts.path("planmark-server"), arguments: ["--store", fixture.storePath, "--port", "0"] + arguments)
            let tasks = "/proc/\(server.process.processIdentifier)/task"
            let names = try FileManager.default.contentsOfDirectory(atPath: tasks).compactMap { task in
                try? String(contentsOfFile: "\(tasks)/\(task)/comm", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            }
            // A thread each (counted, not their names: the kernel keeps 15 characters of a name).
            #expect(names.filter { $0.hasPrefix("NIO-SGLTN-") && $0.contains("-#") }.count == expected, "\(arguments): \(names)")
            server.signal(SIGTERM)
            #expect(await server.waitForExit() == 0, "\(server.stderr)")
        }

        let refused = Process()
        refused.executableURL = URL(fileURLWithPath: BuiltProducts.path("planmark-server"))
        refused.arguments = ["--store", fixture.storePath, "--port", "0", "--event-loops", "0"]
        let pipe = ChildProcess.pipe()
        refused.standardError = pipe
        try ChildProcess.run(refused)
        let text = String(decoding: pipe.fileHandleForReading.readBytesToEnd(), as: UTF8.self)
        refused.waitUntilExit()
        #expect(refused.terminationStatus == 64)
        #expect(text == "planmark-server: --event-loops: 0 is not a number in 1...1024\n", "\(text)")
    }

    // MARK: Item 9: slow clients

    /// A half-sent request head is closed after `--head-timeout`, without an answer. (Each of the three slow-client
    /// rules has a test of its own, with the other timeouts far away: under a loaded machine one rule's short
    /// timeout would otherwise fire in the middle of another's check.)
    @Test(.hangGuard)
    func halfSentHeadsAreClosed() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let recorder = LogRecorder()
        try await Self.application(fixture, recorder: recorder, headTimeout: 1, idleTimeout: 600).test(.live) { client in
            let port = try #require(client.port)
            let slow = try RawHTTPConnection(port: port)
            try slow.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1")
            let start = ContinuousClock.now
            #expect(try await slow.readToEnd().isEmpty)  // closed by the server, no answer
            let held = ContinuousClock.now - start
            #expect(held < .seconds(30), "\(held)")
        }
    }

    /// Beyond `--max-connections` a new connection is answered 503 `too-many-connections` at once, without sending
    /// anything, and closed; when the clients close theirs, the server takes new ones again.
    @Test(.hangGuard)
    func connectionsBeyondTheCapAreRefused() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let recorder = LogRecorder()
        try await Self.application(fixture, recorder: recorder, headTimeout: 600, idleTimeout: 600, maxConnections: 4).test(.live) { client in
            let port = try #require(client.port)
            // Four connections, each answered once (so the server has counted it), fill the cap.
            var open: [RawHTTPConnection] = []
            for _ in 0..<4 {
                let connection = try RawHTTPConnection(port: port)
                try connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
                #expect(try await connection.readAnswer().status == 200)
                open.append(connection)
            }
            let refused = try RawHTTPConnection(port: port)
            let answer = try await refused.readAnswer()
            #expect(answer.status == 503)
            #expect(answer.errorCode == "too-many-connections")
            #expect(answer.header("retry-after") != nil)
            #expect(try await refused.readToEnd().isEmpty)

            // The clients close the four; the server closes its ends (each read sees the close).
            for connection in open { connection.shutdownWrite() }
            for connection in open { #expect(try await connection.readToEnd().isEmpty) }
            // The server counts them out as it closes them, just after the clients see the close: bounded retry.
            var status = 0
            for _ in 0..<200 where status != 200 {
                status = try await Self.get("/health", port: port).status
            }
            #expect(status == 200)
        }
    }

    /// A kept-alive connection idle past `--idle-timeout` after its answer is closed.
    @Test(.hangGuard)
    func idleConnectionsAreClosed() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let recorder = LogRecorder()
        try await Self.application(fixture, recorder: recorder, headTimeout: 600, idleTimeout: 1).test(.live) { client in
            let port = try #require(client.port)
            let connection = try RawHTTPConnection(port: port)
            try connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            #expect(try await connection.readAnswer().status == 200)
            let start = ContinuousClock.now
            #expect(try await connection.readToEnd().isEmpty)
            let held = ContinuousClock.now - start
            #expect(held < .seconds(30), "\(held)")
        }
    }

    // MARK: Item 10: a replaced store

    /// The store file is removed and made again while the server runs: a write is refused with 503
    /// `store-replaced` (and `Retry-After`), and nothing is written to either store; reads are refused too.
    @Test func aReplacedStoreIsRefused() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let storePath = fixture.storePath
        try await fixture.application().test(.router) { client in
            let before = try await client.send(.post, "/drawings/plan/markers", json: #"{"x":450,"y":400}"#)
            #expect(before.status == .created)
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: storePath + suffix) }
            let replacement = try SQLiteStore(path: storePath, create: true)
            _ = try await replacement.addDrawing(NewDrawing(name: "plan", imagePath: ServerFixture.samplePlan),
                                           regions: try RegionsFile.read(path: ServerFixture.sampleRegions))
            let after = try await client.send(.post, "/drawings/plan/markers", json: #"{"x":450,"y":400}"#)
            #expect(after.status == .serviceUnavailable, "\(after.text)")
            #expect(after.errorCode == "store-replaced")
            #expect(after.headers[.retryAfter] != nil)
            #expect(try await replacement.drawing(named: "plan").markerCount == 0)
            let read = try await client.get("/drawings/plan/markers")
            #expect(read.errorCode == "store-replaced")
        }
    }

    /// The store file is removed (and not made again): writes are refused with 503 `store-replaced`.
    @Test func aRemovedStoreIsRefused() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let storePath = fixture.storePath
        try await fixture.application().test(.router) { client in
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: storePath + suffix) }
            let after = try await client.send(.post, "/drawings/plan/markers", json: #"{"x":450,"y":400}"#)
            #expect(after.status == .serviceUnavailable, "\(after.text)")
            #expect(after.errorCode == "store-replaced")
        }
    }

    /// Only the WAL is replaced (removed and made again): refused as well.
    @Test func aReplacedWALIsRefused() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let identity = try #require(StoreFileIdentity(path: fixture.storePath))
        try identity.check()
        let wal = fixture.storePath + "-wal"
        #expect(FileManager.default.fileExists(atPath: wal))
        try FileManager.default.removeItem(atPath: wal)
        #expect(FileManager.default.createFile(atPath: wal, contents: Data()))
        #expect(throws: APIError.self) { try identity.check() }
    }

    // MARK: Item 11: Host

    @Test(.hangGuard, arguments: [
        ("GET /health HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nHost: evil.example\r\n\r\n", 400, "duplicate-host"),
        ("GET /health HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nHost: 127.0.0.1:PORT\r\n\r\n", 400, "duplicate-host"),
        ("GET http://evil.example/health HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\n\r\n", 421, "unknown-host"),
        ("GET http://evil.example:PORT/health HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\n\r\n", 421, "unknown-host"),
        ("GET http://127.0.0.1:PORT/health HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\n\r\n", 200, ""),
        ("GET http://127.0.0.1:PORT/health HTTP/1.1\r\nHost: evil.example\r\n\r\n", 200, ""),
    ])
    func hostHeadersAndAbsoluteTargets(request: String, status: Int, code: String) async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await Self.application(fixture, recorder: LogRecorder()).test(.live) { client in
            let port = try #require(client.port)
            let connection = try RawHTTPConnection(port: port)
            try connection.send(request.replacingOccurrences(of: "PORT", with: String(port)))
            let answer = try await connection.readAnswer()
            #expect(answer.status == status, "\(answer.text)")
            if !code.isEmpty { #expect(answer.errorCode == code) }
        }
    }

    @Test(arguments: [
        ("http://example.com:8080/a?b", "example.com:8080"), ("https://h/", "h"), ("http://h?x", "h"), ("/path", nil), ("*", nil),
        ("http://u@h/", "u@h"),
    ] as [(String, String?)])
    func absoluteFormAuthority(target: String, authority: String?) async {
        #expect(RequestTargetAuthority.absoluteFormAuthority(target) == authority)
    }

    // MARK: Options

    @Test func newLimitsAreChecked() async {
        #expect(throws: ServerConfigurationError.invalidSeconds(option: "--head-timeout", 0)) { try ServerConfiguration(headTimeout: 0).validate() }
        #expect(throws: ServerConfigurationError.invalidSeconds(option: "--idle-timeout", .infinity)) {
            try ServerConfiguration(idleTimeout: .infinity).validate()
        }
        #expect(throws: ServerConfigurationError.invalidSeconds(option: "--shutdown-grace", -1)) {
            try ServerConfiguration(shutdownGrace: -1).validate()
        }
        #expect(throws: ServerConfigurationError.invalidLimit(option: "--max-connections", 0)) { try ServerConfiguration(maxConnections: 0).validate() }
        #expect(throws: ServerConfigurationError.invalidLimit(option: "--max-heavy-jobs", 0)) { try ServerConfiguration(maxHeavyJobs: 0).validate() }
        #expect(throws: ServerConfigurationError.invalidLimit(option: "--heavy-queue", -1)) { try ServerConfiguration(heavyQueue: -1).validate() }
        #expect(throws: ServerConfigurationError.invalidLimit(option: "--event-loops", 0)) { try ServerConfiguration(eventLoops: 0).validate() }
        #expect(throws: ServerConfigurationError.invalidLimit(option: "--event-loops", 1025)) { try ServerConfiguration(eventLoops: 1025).validate() }
        #expect(throws: Never.self) { try ServerConfiguration(eventLoops: 1).validate() }
        #expect(throws: Never.self) { try ServerConfiguration(heavyQueue: 0, shutdownGrace: 0).validate() }
        #expect(ServerConfiguration.defaultMaxConnections >= 16)
    }
}

