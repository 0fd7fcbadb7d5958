import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `planmark-server` on a PostgreSQL store whose server goes away: reads and writes answer 503 (`store-unavailable`),
/// and the password in the store URL appears in no log line. A throwaway cluster of its own
/// (`Drawings/postgres-cluster.sh`), stopped in the middle of the test.
/// Whether a PostgreSQL cluster can be started (a test cluster is set, or CI is, where a missing one is a failure).
let postgresClusterAvailable: Bool = {
    let environment = ProcessInfo.processInfo.environment
    return (environment["PLANMARK_TEST_POSTGRES"].map { !$0.isEmpty } ?? false) || environment["CI"] == "true"
}()

@Suite(.enabled(if: postgresClusterAvailable, "no PostgreSQL test cluster (PLANMARK_TEST_POSTGRES) and not CI"))
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
    static func shell(_ arguments: [String]) -> Int32 {
        let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let status = system(quoted + " </dev/null >/dev/null 2>&1")
        return (status >> 8) & 0xff
    }

    /// Runs `Drawings/postgres-cluster.sh` with `arguments`.
    static func cluster(_ arguments: [String]) {
        let script = ServerFixture.repositoryRoot.appendingPathComponent("Drawings/postgres-cluster.sh").path
        #expect(shell(["/bin/bash", script] + arguments) == 0, "postgres-cluster.sh \(arguments)")
    }

    @Test(.timeLimit(.minutes(3)))
    func databaseDownAnswers503AndTheLogNeverHasThePassword() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("planmark-pgdown-\(UUID().uuidString)")
        let port = try Self.freePort()
        Self.cluster(["start", folder.path, String(port)])
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
        let pipe = Pipe()
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == 74)
        #expect(text.hasPrefix("planmark-server: postgres://planmark@127.0.0.1:\(port)/postgres?connect_timeout=1: "), "\(text)")
        #expect(text.contains("within 1 s"), "\(text)")
        #expect(!text.contains("Hunter2"))
    }
}
