import Foundation
import Hummingbird
import PlanMarkGeometry
import PlanMarkSQLite
import PlanMarkStore
import PlanMarkTestSupport
import Testing
@testable import PlanMarkServer

/// `GET /drawings/{name}/events` (issue 26, items 2 and 3) on a live server: changes made through the service and by
/// another process (the CLI) arrive as events; a reconnection with `Last-Event-ID` in the middle of a burst misses
/// nothing and repeats nothing; streams beyond `--max-streams` are 503. Every wait is for bytes on the socket.
@Suite struct EventStreamTests {
    /// An event stream read from a raw connection: its events' ids and kinds, as they arrive.
    final class EventReader: @unchecked Sendable {
        let connection: RawHTTPConnection
        private(set) var text = ""

        init(port: Int, path: String, headers: String = "") throws {
            connection = try RawHTTPConnection(port: port)
            try connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\(headers)\r\n")
        }

        /// The events so far: (id, kind, data).
        var events: [(id: Int, kind: String, data: String)] {
            text.matches(of: /id: (\d+)\r?\nevent: (\S+)\r?\ndata: ([^\r\n]*)\r?\n/).map { (Int($0.1)!, String($0.2), String($0.3)) }
        }

        /// Reads until `condition` holds of the events (or the server closes the stream: false).
        func wait(until condition: ([(id: Int, kind: String, data: String)]) -> Bool) async throws -> Bool {
            while !condition(events) {
                let bytes = try await connection.readSome()
                if bytes.isEmpty { return condition(events) }
                text += String(decoding: bytes, as: UTF8.self)
            }
            return true
        }
    }

    /// A marker POSTed on a new connection (with `headers`, each line ending in CRLF, and `assignee`); its number.
    static func post(_ port: Int, x: Int, headers: String = "", assignee: String? = nil) async throws -> Int {
        let connection = try RawHTTPConnection(port: port)
        let body = #"{"x":\#(x),"y":400"# + (assignee.map { #","assignee":"\#($0)""# } ?? "") + "}"
        try connection.send("POST /drawings/plan/markers HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\(headers)\r\n\(body)")
        let answer = try await connection.readAnswer()
        #expect(answer.status == 201, "\(answer.text)")
        let object = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
        return object?["number"] as? Int ?? -1
    }

    @Test(.hangGuard) func changesFromTheServiceAndTheCLIArrive() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application(liveEvents: true).test(.live) { client in
            let port = try #require(client.port)
            let reader = try EventReader(port: port, path: "/drawings/plan/events")
            _ = try await reader.wait { _ in reader.text.contains("retry:") }
            let number = try await Self.post(port, x: 450)
            #expect(try await reader.wait { $0.contains { $0.kind == "upsert" && $0.data.contains("\"number\":\(number)") } })
            // Another process: the CLI, on the same store file.
            let cli = try ProcessRunner.run(BuiltProducts.path("planmark"), ["mark", "plan", "500", "400", "--store", fixture.storePath])
            #expect(cli.status == 0, "\(cli.stderr)")
            #expect(try await reader.wait { $0.filter { $0.kind == "upsert" }.count == 2 })
            let ids = reader.events.map(\.id)
            #expect(ids == ids.sorted() && Set(ids).count == ids.count)
        }
    }

    /// A viewer drops its connection in the middle of a burst and reconnects with the last id it saw: the rest of the
    /// burst arrives, nothing twice.
    @Test(.hangGuard) func aReconnectionMissesNothingAndRepeatsNothing() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application(liveEvents: true).test(.live) { client in
            let port = try #require(client.port)
            let first = try EventReader(port: port, path: "/drawings/plan/events?since=0")
            #expect(try await first.wait { $0.contains { $0.kind == "drawing-added" } })
            var numbers: [Int] = []
            for index in 0..<20 { numbers.append(try await Self.post(port, x: 400 + 5 * index)) }
            #expect(try await first.wait { $0.filter { $0.kind == "upsert" }.count >= 5 })
            let seen = first.events
            first.connection.abort()
            let again = try EventReader(port: port, path: "/drawings/plan/events", headers: "Last-Event-ID: \(seen.last!.id)\r\n")
            #expect(try await again.wait { ($0.filter { $0.kind == "upsert" }.count + seen.filter { $0.kind == "upsert" }.count) >= 20 })
            let all = seen + again.events
            let upserts = all.filter { $0.kind == "upsert" }
            #expect(upserts.count == 20 && Set(upserts.map(\.id)).count == 20, "\(all.map(\.id))")
            #expect(again.events.allSatisfy { $0.id > seen.last!.id })
        }
    }

    @Test(.hangGuard) func streamsBeyondTheLimitAre503() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let app = try PlanMarkApplication.application(
            configuration: ServerConfiguration(host: "127.0.0.1", port: 0, allowedHosts: [ServerFixture.testClientHost],
                                               headTimeout: ServerFixture.headTimeout, idleTimeout: ServerFixture.headTimeout, maxStreams: 1),
            store: StoreAccess(fixture.store), logger: quietLogger)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let one = try EventReader(port: port, path: "/drawings/plan/events")
            _ = try await one.wait { _ in one.text.contains("retry:") }
            let two = try RawHTTPConnection(port: port)
            try two.send("GET /drawings/plan/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            let answer = try await two.readAnswer()
            #expect(answer.status == 503 && answer.errorCode == "too-many-streams" && answer.header("retry-after") != nil)
        }
    }

    /// A stream carries only what its viewer may see: a subcontractor of Acme gets the changes of Acme's markers and
    /// nothing of the others (replayed or live); a user with no role in the drawing's project gets no stream.
    @Test(.hangGuard) func aStreamRespectsRoles() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let store = fixture.store
        _ = try await store.addProject(named: "Elsewhere")
        _ = try await store.addUser(User(name: "ines", email: "ines@example.com", company: nil, createdAt: .now()))
        _ = try await store.grant(.inspector, in: Project.defaultName, to: "ines")
        _ = try await store.addUser(User(name: "sam", email: "sam@example.com", company: "Acme", createdAt: .now()))
        _ = try await store.grant(.subcontractor, in: Project.defaultName, to: "sam")
        _ = try await store.addUser(User(name: "eve", email: "eve@example.com", company: nil, createdAt: .now()))
        _ = try await store.grant(.manager, in: "Elsewhere", to: "eve")
        let ines = "Authorization: Bearer \(try await store.addToken(for: "ines", label: nil, expires: nil).secret)\r\n"
        let sam = "Authorization: Bearer \(try await store.addToken(for: "sam", label: nil, expires: nil).secret)\r\n"
        let eve = "Authorization: Bearer \(try await store.addToken(for: "eve", label: nil, expires: nil).secret)\r\n"
        var theirs = NewMarker(position: PixelPoint(x: 450, y: 400))
        theirs.assignee = "Acme"
        _ = try await store.addMarker(to: "plan", theirs, author: nil)                                        // 1: Acme's
        _ = try await store.addMarker(to: "plan", NewMarker(position: PixelPoint(x: 460, y: 400)), author: nil)  // 2: nobody's
        try await fixture.application(liveEvents: true).test(.live) { client in
            let port = try #require(client.port)
            let reader = try EventReader(port: port, path: "/drawings/plan/events?since=0", headers: sam)
            #expect(try await reader.wait { $0.contains { $0.kind == "upsert" } })
            // Live: one of nobody's, then one of Acme's; the stream is in cursor order, so once Acme's has arrived, the
            // other would have been before it.
            let other = try await Self.post(port, x: 470, headers: ines)
            let acme = try await Self.post(port, x: 480, headers: ines, assignee: "Acme")
            #expect(try await reader.wait { $0.contains { $0.data.contains("\"number\":\(acme),") } })
            let numbers = reader.events.filter { $0.kind == "upsert" }.compactMap { event in
                event.data.firstMatch(of: /"number":(\d+),/).map { Int($0.1)! }
            }
            #expect(Set(numbers) == [1, acme], "\(reader.text)")
            #expect(!numbers.contains(other) && !numbers.contains(2))
            // Someone with no role in the drawing's project: no such drawing for them.
            let stranger = try RawHTTPConnection(port: port)
            try stranger.send("GET /drawings/plan/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(eve)\r\n")
            #expect(try await stranger.readAnswer().status == 404)
        }
    }

    /// A server told to stop (SIGTERM) ends its open streams at once and exits, with a grace of ten minutes for other
    /// answers: streams never end by themselves, and Hummingbird stops the server (waiting for open answers) before
    /// it stops the services beside it. If they did not end, the server would not exit and the hang guard would fail
    /// the test.
    @Test(.hangGuard) func aStoppingServerEndsItsStreams() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let server = try await RunningServer(executable: BuiltProducts.path("planmark"),
                                             arguments: ["serve", "--store", fixture.storePath, "--port", "0", "--shutdown-grace", "600"])
        let reader = try EventReader(port: server.port, path: "/drawings/plan/events")
        #expect(try await reader.wait { _ in reader.text.contains("retry:") })
        let status = await server.stop()
        #expect(status == 0, "\(server.stderr)")
        // The stream ended properly: the chunked body's last chunk, then the connection closed.
        #expect(try await reader.wait { _ in false } == false)
        #expect(reader.text.hasSuffix("0\r\n\r\n"), "\(reader.text.suffix(200))")
    }
}
