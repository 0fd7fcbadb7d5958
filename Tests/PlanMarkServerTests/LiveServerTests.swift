import Foundation
import Hummingbird
import PlanMarkGeometry
import PlanMarkStore
import Testing
@testable import PlanMarkServer

#if canImport(Glibc)
import Glibc
#endif

/// Tests through real sockets: the in-process server on a loopback port, and the built executables.
@Suite(.serialized) struct LiveServerTests {
    @Test func endpointsThroughARealSocket() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application(token: "live-token").test(.live) { live in
            let port = try #require(live.port)
            try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: .init(timeout: liveReadTimeout)) { client in
                func send(_ method: HTTPRequest.Method, _ uri: String, auth: Bool = true, json: String? = nil) async throws -> TestClient.Response {
                    var headers: HTTPFields = auth ? [.authorization: "Bearer live-token"] : [:]
                    if json != nil { headers[.contentType] = "application/json" }
                    return try await client.execute(TestClient.Request(
                        uri, method: method, authority: "127.0.0.1:\(port)", headers: headers, body: json.map { ByteBuffer(string: $0) }))
                }
                #expect(try await send(.get, "/health", auth: false).status == .ok)
                #expect(try await send(.get, "/drawings", auth: false).status == .unauthorized)
                let posted = try await send(.post, "/drawings/plan/markers", json: #"{"lat":-50,"lng":56.25,"zoom":3}"#)
                #expect(posted.status == .created)
                let markers = try await send(.get, "/drawings/plan/markers?zoom=3")
                let text = String(buffer: markers.body ?? ByteBuffer())
                let points = text.matches(of: /"coordinates":\[([^\[\],]+),([^\[\],]+)\]/).map { [Double($0.1), Double($0.2)] }
                #expect(points == [[56.25, -50]], "\(text)")
                let image = try await send(.get, "/drawings/plan/image")
                #expect(pngSize(image.body ?? ByteBuffer())! == (2400, 1600))
            }
        }
    }

    /// A request whose head has arrived before SIGTERM, and whose body is sent only once the server
    /// has begun to shut down, is still answered in full; then the process exits 0. Each step waits
    /// on the event itself: the server's debug line for the request's head, its line for the signal.
    @Test(.hangGuard)
    func serverExecutableStopsGracefullyOnSIGTERM() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let server = try await RunningServer(
            executable: BuiltProducts.path("planmark-server"), arguments: ["--store", fixture.storePath, "--port", "0", "--log-level", "debug"])
        let port = server.port
        let connection = try RawHTTPConnection(port: port)
        let body = #"{"x":450,"y":400,"note":"in flight"}"#
        try connection.send("POST /drawings/plan/markers HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
                            + "Content-Length: \(body.utf8.count)\r\n\r\n")
        try await server.waitForStderr(containing: "POST /drawings/plan/markers started")
        server.signal(SIGTERM)
        try await server.waitForStderr(containing: "Signal caught. Shutting down the group.")
        try connection.send(body)
        let answer = try await connection.readAnswer()
        #expect(answer.status == 201)
        #expect(answer.text.contains(#""number":1"#), "\(answer.text)")
        #expect(await server.waitForExit() == 0, "\(server.stderr)")
        #expect(server.stderr.contains("POST /drawings/plan/markers 201"))
        #expect(server.stderr.contains("stopped; store closed"))
        // Nothing listens any more.
        #expect(throws: RawHTTPConnection.Failure.self) { try RawHTTPConnection(port: port) }
        // The store is intact and usable by the CLI.
        let cli = try ProcessRunner.run(BuiltProducts.path("planmark"), ["markers", "plan", "--store", fixture.storePath, "--format", "jsonl"])
        #expect(cli.status == 0)
        #expect(cli.stdout.split(separator: "\n").count == 1)
        #expect(cli.stdout.contains("in flight"))
    }

    @Test func planmarkServeUsesPLANMARK_STOREAndStopsOnSIGINT() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let server = try await RunningServer(executable: BuiltProducts.path("planmark"), arguments: ["serve", "--port", "0", "--token", "abc"],
                                       environment: ["PLANMARK_STORE": fixture.storePath])
        #expect(server.stderr.contains("(store \(fixture.storePath))"))
        let response = try await TestClient.withClient(host: "127.0.0.1", port: server.port) { client in
            try await client.get("/drawings/plan", host: "127.0.0.1:\(server.port)", headers: [.authorization: "Bearer abc"])
        }
        #expect(response.status == .ok)
        #expect(await server.stop(signal: SIGINT) == 0)
    }

    @Test func serverRefusesNonLoopbackWithoutTokenAndMissingStore() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let open = try ProcessRunner.run(BuiltProducts.path("planmark"), ["serve", "--store", fixture.storePath, "--host", "0.0.0.0", "--port", "0"])
        #expect(open.status == 64)
        #expect(open.stderr.contains("refusing to listen on 0.0.0.0 without a token"))
        let missing = try ProcessRunner.run(BuiltProducts.path("planmark-server"), ["--store", fixture.folder.appendingPathComponent("none.sqlite").path, "--port", "0"])
        #expect(missing.status == 66)
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.appendingPathComponent("none.sqlite").path))
        let both = try ProcessRunner.run(BuiltProducts.path("planmark"), ["serve", "--token", "a", "--token-file", "f"])
        #expect(both.status == 64)
        // `serve` hands its arguments to planmark-server unchanged: the server's options, help and checks.
        let help = try ProcessRunner.run(BuiltProducts.path("planmark"), ["serve", "--help"])
        #expect(help.status == 0)
        for option in ["--store", "--allowed-host", "--max-vertices", "--max-validations", "--busy-timeout", "--log-level"] {
            #expect(help.stdout.contains(option), "planmark serve --help lacks \(option)")
        }
        let badPort = try ProcessRunner.run(BuiltProducts.path("planmark"), ["serve", "--port", "eighty"])
        #expect(badPort.status == 64)
    }

    @Test func tokenFileIsRead() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let tokenFile = fixture.folder.appendingPathComponent("token")
        try "from-file\n".write(to: tokenFile, atomically: true, encoding: .utf8)
        let server = try await RunningServer(
            executable: BuiltProducts.path("planmark-server"),
            arguments: ["--store", fixture.storePath, "--port", "0", "--token-file", tokenFile.path])
        let (without, with) = try await TestClient.withClient(host: "127.0.0.1", port: server.port) { client in
            (try await client.get("/drawings", host: "127.0.0.1:\(server.port)").status,
             try await client.get("/drawings", host: "127.0.0.1:\(server.port)", headers: [.authorization: "Bearer from-file"]).status)
        }
        #expect(without == .unauthorized)
        #expect(with == .ok)
        #expect(await server.stop() == 0)
    }
}

