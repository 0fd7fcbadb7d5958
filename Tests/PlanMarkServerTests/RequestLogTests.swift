import Foundation
import Hummingbird
import Logging
import Testing
@testable import PlanMarkServer

/// One log line a request: method, path, status, duration.
@Suite struct RequestLogTests {
    @Test func oneLinePerRequestWithStatusAndDuration() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let recorder = LogRecorder()
        let logger = recorder.logger(level: .info)
        try await fixture.application(token: "tok", logger: logger).test(.router) { client in
            _ = try await client.get("/health")
            _ = try await client.get("/drawings/nope?x=1", headers: [.authorization: "Bearer tok"])
            _ = try await client.get("/drawings")
            _ = try await client.send(.post, "/drawings/plan/markers", json: #"{"x":450,"y":400}"#, headers: [.authorization: "Bearer tok"])
        }
        let lines = recorder.all.filter { $0.hasPrefix("GET ") || $0.hasPrefix("POST ") }
        #expect(lines.count == 4)
        let pattern = /^(GET|POST) (\S+) (\d{3}) \d+\.\d\dms$/
        let parsed = lines.compactMap { try? pattern.wholeMatch(in: $0) }.map { "\($0.1) \($0.2) \($0.3)" }
        #expect(parsed == ["GET /health 200", "GET /drawings/nope 400", "GET /drawings 401", "POST /drawings/plan/markers 201"])
    }
}
