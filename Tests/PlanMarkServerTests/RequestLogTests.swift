import Foundation
import Hummingbird
import Logging
import Testing
@testable import PlanMarkServer

/// One log line a request: method, path, status, duration.
@Suite struct RequestLogTests {
    /// Keeps every message logged at info or above.
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    struct RecordingHandler: LogHandler {
        let recorder: Recorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            recorder.append(event.message.description)
        }
    }

    @Test func oneLinePerRequestWithStatusAndDuration() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let recorder = Recorder()
        let logger = Logger(label: "test") { _ in RecordingHandler(recorder: recorder) }
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
