import Foundation
import Hummingbird
import Testing
@testable import PlanMarkServer

/// What only a real socket shows: the Host header as clients send it, HEAD on a kept-alive
/// connection, broken chunked bodies and clients that leave mid-request. The in-process server runs
/// on a loopback port; requests are written byte for byte by `RawHTTPConnection`.
@Suite(.serialized) struct LiveHardeningTests {
    /// Runs `body` with the port of a live in-process server over `fixture` (no extra allowed hosts).
    func live(_ fixture: ServerFixture, recorder: LogRecorder = LogRecorder(), allowedHosts: [String] = [],
              _ body: @escaping @Sendable (Int) async throws -> Void) async throws {
        try await fixture.application(allowedHosts: allowedHosts, logger: recorder.logger(level: .info)).test(.live) { client in
            try await body(try #require(client.port))
        }
    }

    @Test(.hangGuard, arguments: [
        ("127.0.0.1:PORT", 200), ("localhost:PORT", 200), ("LOCALHOST:PORT", 200), ("[::1]:PORT", 200),
        ("127.0.0.1", 421), ("localhost:1", 421), ("evil.example:PORT", 421), ("plans.local:PORT", 200), ("a b", 400),
    ])
    func hostHeader(host: String, status: Int) async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await live(fixture, allowedHosts: ["plans.local"]) { port in
            let connection = try RawHTTPConnection(port: port)
            try connection.send("GET /health HTTP/1.1\r\nHost: \(host.replacingOccurrences(of: "PORT", with: String(port)))\r\n\r\n")
            let answer = try await connection.readAnswer()
            #expect(answer.status == status, "\(answer.text)")
            if status != 200 { #expect(answer.header("content-type")?.hasPrefix("application/json") == true) }
        }
    }

    @Test(.hangGuard)
    func missingHostIs400() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await live(fixture) { port in
            let connection = try RawHTTPConnection(port: port)
            try connection.send("GET /health HTTP/1.0\r\n\r\n")
            let answer = try await connection.readAnswer()
            #expect(answer.status == 400)
            #expect(answer.errorCode == "missing-host")
        }
    }

    /// A HEAD answer carries the GET's headers and no body: the next answer on the connection follows at once.
    @Test(.hangGuard)
    func headOnAKeptAliveConnection() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await live(fixture) { port in
            let connection = try RawHTTPConnection(port: port)
            let host = "Host: 127.0.0.1:\(port)\r\n"
            try connection.send("HEAD /drawings/plan/image HTTP/1.1\r\n\(host)\r\nGET /health HTTP/1.1\r\n\(host)\r\n"
                                + "HEAD /validate HTTP/1.1\r\n\(host)\r\nGET /health HTTP/1.1\r\n\(host)\r\n")
            let head = try await connection.readAnswer(head: true)
            #expect(head.status == 200)
            #expect(head.header("content-type") == "image/png")
            #expect(head.header("content-length") == String(try Data(contentsOf: URL(fileURLWithPath: ServerFixture.samplePlan)).count))
            let health = try await connection.readAnswer()
            #expect(health.status == 200)
            #expect(health.text == "{\"status\":\"ok\"}\n")
            let wrong = try await connection.readAnswer(head: true)
            #expect(wrong.status == 405)
            #expect(wrong.header("allow") == "POST")
            let again = try await connection.readAnswer()
            #expect(again.text == "{\"status\":\"ok\"}\n")
        }
    }

    @Test(.hangGuard, arguments: [
        "zz\r\n{}\r\n0\r\n\r\n",            // a chunk size that is not hexadecimal
        "5\r\n{\"x\":450,\"y\":400}\r\n0\r\n\r\n", // a chunk longer than its size
    ])
    func malformedChunkedBodyIs400(chunks: String) async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let recorder = LogRecorder()
        try await live(fixture, recorder: recorder) { port in
            let connection = try RawHTTPConnection(port: port)
            try connection.send("POST /drawings/plan/markers HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
                                + "Transfer-Encoding: chunked\r\n\r\n" + chunks)
            let answer = try await connection.readAnswer()
            #expect(answer.status == 400, "\(answer.text)")
            // The server still serves.
            let next = try RawHTTPConnection(port: port)
            try next.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            #expect(try await next.readAnswer().status == 200)
        }
        #expect(!recorder.all.contains { $0.contains(" 500 ") || $0.contains("internal") })
        #expect(try await fixture.store.drawing(named: "plan").markerCount == 0)
    }

    /// A client sends a complete JSON object but fewer bytes than its Content-Length (or a chunked body
    /// without its last chunk), then goes away: the request is logged as a client error, nothing is stored.
    @Test(.hangGuard, arguments: [
        "Content-Length: 100\r\n\r\n{\"x\":450,\"y\":400}",
        "Transfer-Encoding: chunked\r\n\r\n11\r\n{\"x\":450,\"y\":400}\r\n",
    ])
    func clientLeavingMidBodyChangesNothing(rest: String) async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let recorder = LogRecorder()
        try await live(fixture, recorder: recorder) { port in
            let connection = try RawHTTPConnection(port: port)
            try connection.send("POST /drawings/plan/markers HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n" + rest)
            connection.shutdownWrite()
            let line = await recorder.waitForLine { $0.hasPrefix("POST /drawings/plan/markers ") }
            #expect(line.hasPrefix("POST /drawings/plan/markers 400 "), "\(line)")
        }
        #expect(!recorder.all.contains { $0.contains(" 500 ") || $0.contains("internal") })
        #expect(try await fixture.store.drawing(named: "plan").markerCount == 0)
    }
}
