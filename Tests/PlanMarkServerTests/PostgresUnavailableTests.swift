import Foundation
import PlanMarkPostgres
import PlanMarkStoreTestSupport
import PlanMarkTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `planmark-server` on a PostgreSQL store whose server goes away: reads and writes answer 503 (`store-unavailable`),
/// and the password in the store URL appears in no log line. A throwaway cluster of its own
/// (`Drawings/postgres-cluster.sh`), stopped in the middle of the test.
@Suite(.enabled(if: TestDatabases.required, "no PostgreSQL test cluster (PLANMARK_TEST_POSTGRES) and not CI"))
struct PostgresUnavailableTests {

    /// A TCP port on loopback that nothing listens on now (the system's choice for a socket bound to port 0).
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Runs `command` through `/bin/sh` (`system`), output discarded; returns its exit status. Not Foundation's
    /// `Process`: the cluster's server, which `postgres-cluster.sh start` leaves running, kept `waitUntilExit` from
    /// returning in this async test.
    @discardableResult
    static func shell(_ arguments: [String], stderr: String = "/dev/null") -> Int32 {
        func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let status = system(arguments.map(quote).joined(separator: " ") + " </dev/null >/dev/null 2>" + quote(stderr))
        return (status >> 8) & 0xff
    }

    /// Starts a cluster in `folder` on a free port; its port. A port found free can be taken by another test's server
    /// before the cluster binds it: then (and only then: the script's log says so) the start is tried on another.
    static func startCluster(in folder: URL) throws -> Int {
        let script = ServerFixture.repositoryRoot.appendingPathComponent("Drawings/postgres-cluster.sh").path
        var failures: [String] = []
        for _ in 0..<3 {
            let port = try freePort()
            let log = folder.path + ".start.log"
            let status = shell(["/bin/bash", script, "start", folder.path, String(port)], stderr: log)
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if status == 0 { return port }
            shell(["/bin/bash", script, "stop", folder.path])
            failures.append(text)
            guard text.contains("Address already in use") else { break }
        }
        Issue.record("postgres-cluster.sh start failed: \(failures)")
        throw POSIXError(.EADDRINUSE)
    }

    /// Runs `Drawings/postgres-cluster.sh` with `arguments`.
    static func cluster(_ arguments: [String]) {
        let script = ServerFixture.repositoryRoot.appendingPathComponent("Drawings/postgres-cluster.sh").path
        #expect(shell(["/bin/bash", script] + arguments) == 0, "postgres-cluster.sh \(arguments)")
    }

    @Test(.hangGuard)
    func databaseDownAnswers503AndTheLogNeverHasThePassword() async throws {
        let folder = TestFolder.path("planmark-pgdown")
        let port = try Self.startCluster(in: folder)
        var stopped = false
        defer { if !stopped { Self.cluster(["stop", folder.path]) } }
        // Trust authentication: the password is sent nowhere, but is in the URL the server is given.
        let url = "postgres://planmark:Hunter2Secret@127.0.0.1:\(port)/postgres"
        let shown = "postgres://planmark@127.0.0.1:\(port)/postgres"
        #expect(Self.shell([BuiltProducts.path("planmark"), "drawing", "add", ServerFixture.samplePlan, "--name", "plan",
                            "--regions", ServerFixture.sampleRegions, "--store", url]) == 0)

        let server = try await RunningServer(
            executable: BuiltProducts.path("planmark-server"), arguments: ["--store", url, "--port", "0", "--log-level", "debug"])
        #expect(server.stderr.contains("(store \(shown))"))
        func send(_ head: String, body: String = "") async throws -> RawHTTPConnection.Answer {
            let connection = try RawHTTPConnection(port: server.port)
            try connection.send(head + "Host: 127.0.0.1:\(server.port)\r\nConnection: close\r\n"
                                + (body.isEmpty ? "" : "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n") + "\r\n" + body)
            return try await connection.readAnswer()
        }
        #expect(try await send("GET /drawings HTTP/1.1\r\n").status == 200)

        Self.cluster(["stop", folder.path])
        stopped = true
        let read = try await send("GET /drawings HTTP/1.1\r\n")
        #expect(read.status == 503)
        #expect(read.text.contains("store-unavailable"))
        let write = try await send("POST /drawings/plan/markers HTTP/1.1\r\n", body: #"{"x":450,"y":400,"note":"lost"}"#)
        #expect(write.status == 503)
        #expect(write.text.contains("store-unavailable"))
        #expect(await server.stop() == 0)
        #expect(!server.stderr.contains("Hunter2"))
        #expect(server.stderr.contains(shown))
    }

    @Test func unreachableDatabaseAtStartIs74WithoutThePassword() async throws {
        let port = try Self.freePort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("planmark-server"))
        // connect_timeout (libpq's) bounds the wait: 1 s here instead of the default 10.
        process.arguments = ["--store", "postgres://planmark:Hunter2Secret@127.0.0.1:\(port)/postgres?connect_timeout=1", "--port", "0"]
        let pipe = ChildProcess.pipe()
        process.standardError = pipe
        try ChildProcess.run(process)
        let data = pipe.fileHandleForReading.readBytesToEnd()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == 74)
        #expect(text.hasPrefix("planmark-server: postgres://planmark@127.0.0.1:\(port)/postgres?connect_timeout=1: "), "\(text)")
        #expect(text.contains("within 1 s"), "\(text)")
        #expect(!text.contains("Hunter2"))
    }

    /// While the database is down every request answers 503 `store-unavailable` (each within connect_timeout), and the
    /// outage is one error line an interval in the log, not one a request.
    @Test(.hangGuard)
    func anOutageIs503ForEveryRequestAndLoggedOnce() async throws {
        let folder = TestFolder.path("planmark-pgout")
        let port = try Self.startCluster(in: folder)
        var stopped = false
        defer { if !stopped { Self.cluster(["stop", folder.path]) } }
        let url = "postgres://planmark@127.0.0.1:\(port)/postgres?connect_timeout=1"
        #expect(Self.shell([BuiltProducts.path("planmark"), "drawing", "add", ServerFixture.samplePlan, "--name", "plan",
                            "--regions", ServerFixture.sampleRegions, "--store", url]) == 0)
        let server = try await RunningServer(executable: BuiltProducts.path("planmark-server"), arguments: ["--store", url, "--port", "0"])
        @Sendable func get() async throws -> RawHTTPConnection.Answer {
            let connection = try RawHTTPConnection(port: server.port)
            try connection.send("GET /drawings HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: close\r\n\r\n")
            return try await connection.readAnswer()
        }
        #expect(try await get().status == 200)
        Self.cluster(["stop", folder.path])
        stopped = true
        let requests = 12
        let answers = try await withThrowingTaskGroup(of: RawHTTPConnection.Answer.self) { group in
            for _ in 0..<requests { group.addTask { try await get() } }
            var answers: [RawHTTPConnection.Answer] = []
            for try await answer in group { answers.append(answer) }
            return answers
        }
        #expect(answers.map(\.status) == Array(repeating: 503, count: requests))
        #expect(answers.allSatisfy { $0.text.contains("store-unavailable") })
        #expect(await server.stop() == 0)
        // One line for the lost idle connection at most, one for the refused new ones: not one a request.
        let lines = server.stderr.split(separator: "\n").filter { $0.contains("store-unavailable") }
        #expect(lines.count >= 1 && lines.count <= 2, "\(lines)")
    }

    /// `planmark import` whose database is stopped (`pg_ctl stop -m immediate`) in the middle of its COPY, while
    /// postgres-nio waits for the socket to drain: exit 74 within connect_timeout, not a hang.
    @Test(.hangGuard)
    func importExits74WhenTheDatabaseStopsMidCopy() async throws {
        let folder = TestFolder.path("planmark-pgimp")
        let port = try Self.startCluster(in: folder)
        var stopped = false
        defer { if !stopped { Self.cluster(["stop", folder.path]) } }
        let admin = try PostgresURL("postgres://planmark@127.0.0.1:\(port)/postgres")
        let url = admin.description + "?connect_timeout=2"
        let planmark = BuiltProducts.path("planmark")
        for name in ["A", "B"] {
            #expect(Self.shell([planmark, "drawing", "add", ServerFixture.samplePlan, "--name", name, "--regions", ServerFixture.sampleRegions,
                                "--store", url]) == 0)
        }
        let files = folder.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        let one = files.appendingPathComponent("one.csv").path
        try "x,y\n450,400\n".write(toFile: one, atomically: true, encoding: .utf8)
        #expect(Self.shell([planmark, "import", "B", one, "--store", url]) == 0)
        // A uuid held by an open transaction: the COPY waits at the uuid index, the server stops reading.
        let held = "6f1c1d9e-1b7a-4c53-9a43-2f1e6c1d0a78"
        let holder = try HeldSession(admin)
        defer { holder.close() }
        try holder.query("BEGIN")
        try holder.query("UPDATE marker SET uuid = '\(held)' WHERE drawingId = (SELECT id FROM drawing WHERE name = 'B')")
        var text = "x,y,uuid\n250,200,\(held)\n"
        for k in 0..<400_000 { text += "\(250 + k % 300),\(200 + (k / 300) % 250),\n" }
        let many = files.appendingPathComponent("many.csv").path
        try text.write(toFile: many, atomically: true, encoding: .utf8)
        let process = try BoundedProcess(planmark, ["import", "A", many, "--skip-invalid", "--store", url],
                                         environment: ["PLANMARK_LOG_LEVEL": "debug"])
        // The COPY's first row waits on the held uuid, so the server stops reading; planmark says when its write has to
        // wait for the socket to drain.
        guard process.waitForError(containing: "COPY waits for the database to read", seconds: 300) else {
            Issue.record("planmark's COPY never had to wait: \(String(describing: process.wait(seconds: 0)))")
            return
        }
        let start = Date()
        Self.cluster(["stop", folder.path])
        stopped = true
        let result = process.wait(seconds: 2 + 20)
        guard let result else {
            Issue.record("planmark import was still running 22 s after its database stopped (connect_timeout=2)")
            return
        }
        #expect(result.status == 74, "\(result.stderr)")
        // Beside the debug log's lines (each begins with its time), one line says what went wrong.
        let said = result.stderr.split(separator: "\n").filter { $0.first?.isNumber != true }
        #expect(said.first?.hasPrefix("planmark: postgres://planmark@127.0.0.1:\(port)/postgres?connect_timeout=2: ") == true, "\(result.stderr)")
        #expect(said.count == 1, "\(result.stderr)")
        #expect(Date().timeIntervalSince(start) < 2 + 20)
    }

    /// The database dropped and made again under the server (another PlanMark store in it): a write answers 503
    /// `store-replaced` and is not stored in the new database.
    @Test(.hangGuard)
    func aDroppedAndRecreatedDatabaseIs503StoreReplaced() async throws {
        let url = try TestDatabases.fresh()
        let store = url.description
        let planmark = BuiltProducts.path("planmark")
        #expect(Self.shell([planmark, "drawing", "add", ServerFixture.samplePlan, "--name", "plan", "--regions", ServerFixture.sampleRegions,
                            "--store", store]) == 0)
        let server = try await RunningServer(executable: BuiltProducts.path("planmark-server"), arguments: ["--store", store, "--port", "0"])
        func post(_ body: String) async throws -> RawHTTPConnection.Answer {
            let connection = try RawHTTPConnection(port: server.port)
            try connection.send("POST /drawings/plan/markers HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: close\r\n"
                                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
            return try await connection.readAnswer()
        }
        #expect(try await post(#"{"x":450,"y":400,"note":"first"}"#).status == 201)
        try TestDatabases.adminURL!.execute(["DROP DATABASE \(url.database) WITH (FORCE)", "CREATE DATABASE \(url.database)"])
        #expect(Self.shell([planmark, "drawing", "add", ServerFixture.samplePlan, "--name", "plan", "--regions", ServerFixture.sampleRegions,
                            "--store", store]) == 0)
        let refused = try await post(#"{"x":460,"y":400,"note":"lost"}"#)
        #expect(refused.status == 503, "\(refused.text)")
        #expect(refused.text.contains("store-replaced"), "\(refused.text)")
        #expect(await server.stop() == 0)
        let session = try HeldSession(url)
        defer { session.close() }
        #expect(try session.query("SELECT count(*)::text FROM marker") == ["0"])
    }
}
