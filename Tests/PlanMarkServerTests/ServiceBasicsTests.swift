import Foundation
import Hummingbird
import Testing
@testable import PlanMarkServer

/// Health, JSON errors, body limits, tokens and the start-up refusal.
@Suite struct ServiceBasicsTests {
    @Test func healthAnswersOK() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.get("/health")
            #expect(response.status == .ok)
            #expect(response.object["status"] as? String == "ok")
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
        }
    }

    @Test func unknownEndpointIsAJSON404() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.get("/nothing/here")
            #expect(response.status == .notFound)
            #expect(response.errorCode == "not-found")
        }
    }

    @Test func malformedJSONIs400() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.send(.post, "/drawings/plan/markers", json: "{\"x\": 10, \"y\": ")
            #expect(response.status == .badRequest)
            #expect(response.errorCode == "malformed-json")
            let empty = try await client.send(.post, "/drawings/plan/markers", json: "")
            #expect(empty.status == .badRequest)
        }
    }

    @Test(arguments: [
        ("{\"x\": \"10\", \"y\": 20}", "$.x"),
        ("{\"x\": 10}", "$.y"),
        ("{\"lat\": 1}", "$.lng"),
        ("{\"x\": 1, \"y\": 2, \"lat\": 3, \"lng\": 4}", "$"),
        ("{\"x\": 1, \"y\": 2, \"colour\": \"red\"}", "$.colour"),
        ("{\"lat\": 1, \"lng\": 2, \"zoom\": 99}", "$.zoom"),
        ("{\"x\": 1, \"y\": 2, \"note\": 5}", "$.note"),
        ("[1, 2]", "$"),
        ("{}", "$"),
    ])
    func invalidFieldsAre400NamingTheField(body: String, field: String) async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.send(.post, "/drawings/plan/markers", json: body)
            #expect(response.status == .badRequest)
            #expect(response.errorCode == "invalid-field")
            #expect(response.errorMessage?.hasPrefix(field + ":") == true, "message: \(response.errorMessage ?? "nil")")
        }
        #expect(try await fixture.store.drawing(named: "plan").markerCount == 0)
    }

    @Test func bodyOverTheLimitIs413AndStoresNothing() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application(maxBody: 1024).test(.router) { client in
            let note = String(repeating: "n", count: 2000)
            let response = try await client.send(.post, "/drawings/plan/markers", json: "{\"x\":450,\"y\":400,\"note\":\"\(note)\"}")
            #expect(response.status == .contentTooLarge)
            #expect(response.errorCode == "body-too-large")
            let small = try await client.send(.post, "/drawings/plan/markers", json: "{\"x\":450,\"y\":400}")
            #expect(small.status == .created)
        }
        #expect(try await fixture.store.drawing(named: "plan").markerCount == 1)
    }

    @Test func defaultLimitIsOneMebibyte() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.live) { live in
            let port = try #require(live.port)
            try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: .init(timeout: liveReadTimeout)) { client in
                func post(_ body: String) async throws -> TestClient.Response {
                    try await client.execute(TestClient.Request(
                        "/validate", method: .post, authority: "127.0.0.1:\(port)",
                        headers: [.contentType: "application/json"], body: ByteBuffer(string: body)))
                }
                // Just over 1 MiB: refused; a body of exactly 1 MiB is read (and then refused as bad JSON).
                let over = try await post(String(repeating: " ", count: (1 << 20) + 1))
                #expect(over.status == .contentTooLarge)
                let exact = try await post(String(repeating: " ", count: 1 << 20))
                #expect(exact.status == .badRequest)
            }
        }
    }

    @Test func tokenIsRequiredForEverythingButHealth() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application(token: "s3cret-token").test(.router) { client in
            #expect(try await client.get("/health").status == .ok)
            let missing = try await client.get("/drawings")
            #expect(missing.status == .unauthorized)
            #expect(missing.errorCode == "unauthorized")
            #expect(missing.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            #expect(try await client.get("/drawings", headers: [.authorization: "Bearer s3cret-toke"]).status == .unauthorized)
            #expect(try await client.get("/drawings", headers: [.authorization: "Bearer s3cret-token2"]).status == .unauthorized)
            #expect(try await client.get("/drawings", headers: [.authorization: "Basic s3cret-token"]).status == .unauthorized)
            #expect(try await client.get("/openapi.json").status == .unauthorized)
            let post = try await client.send(.post, "/drawings/plan/markers", json: "{\"x\":450,\"y\":400}")
            #expect(post.status == .unauthorized)
            #expect(try await client.get("/drawings", headers: [.authorization: "Bearer s3cret-token"]).status == .ok)
            #expect(try await client.get("/drawings", headers: [.authorization: "bearer s3cret-token"]).status == .ok)
        }
        #expect(try await fixture.store.drawing(named: "plan").markerCount == 0)
    }

    @Test func corsPreflightNeedsNoTokenAndAnswersCarryTheOrigin() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application(token: "tok", corsOrigin: "https://plans.example").test(.router) { client in
            let preflight = try await client.execute(uri: "/drawings/plan/markers", method: .options, headers: [
                .origin: "https://plans.example", .accessControlRequestMethod: "POST", .accessControlRequestHeaders: "authorization, content-type"])
            #expect(preflight.status == .noContent)
            #expect(preflight.headers[.accessControlAllowOrigin] == "https://plans.example")
            #expect(preflight.headers[.accessControlAllowMethods]?.contains("PATCH") == true)
            let get = try await client.get("/drawings", headers: [.origin: "https://plans.example", .authorization: "Bearer tok"])
            #expect(get.status == .ok)
            #expect(get.headers[.accessControlAllowOrigin] == "https://plans.example")
            #expect(get.headers[.accessControlExposeHeaders]?.contains("ETag") == true)
            let denied = try await client.get("/drawings", headers: [.origin: "https://plans.example"])
            #expect(denied.status == .unauthorized)
            #expect(denied.headers[.accessControlAllowOrigin] == "https://plans.example")
            let other = try await client.get("/drawings", headers: [.origin: "https://evil.example", .authorization: "Bearer tok"])
            #expect(other.headers[.accessControlAllowOrigin] == nil)
        }
        try await fixture.application().test(.router) { client in
            let get = try await client.get("/drawings", headers: [.origin: "https://plans.example"])
            #expect(get.headers[.accessControlAllowOrigin] == nil)
        }
    }

    @Test(arguments: [
        ("abc", "abc", true), ("abc", "abd", false), ("abc", "ab", false), ("", "", true), ("a", "", false), ("token", "TOKEN", false),
    ])
    func constantTimeComparison(lhs: String, rhs: String, equal: Bool) async {
        #expect(ConstantTime.equal(Array(lhs.utf8), Array(rhs.utf8)) == equal)
    }

    @Test(arguments: [
        ("127.0.0.1", true), ("127.1.2.3", true), ("localhost", true), ("::1", true), ("0.0.0.0", false),
        ("192.168.1.10", false), ("::", false), ("example.org", false), ("127.0.0.256", false), ("1127.0.0.1", false),
    ])
    func loopbackHosts(host: String, loopback: Bool) async {
        #expect(ServerConfiguration.isLoopback(host) == loopback)
    }

    @Test func nonLoopbackHostWithoutTokenIsRefused() async throws {
        #expect(throws: ServerConfigurationError.tokenRequired(host: "0.0.0.0")) {
            try ServerConfiguration(host: "0.0.0.0", port: 8080).validate()
        }
        try ServerConfiguration(host: "0.0.0.0", port: 8080, token: "t0ken").validate()
        try ServerConfiguration(host: "127.0.0.1", port: 8080).validate()
        #expect(throws: ServerConfigurationError.invalidPort(70000)) { try ServerConfiguration(port: 70000).validate() }
        #expect(throws: ServerConfigurationError.invalidToken) { try ServerConfiguration(token: "").validate() }
    }

    @Test func unknownQueryParameterIs400() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.get("/drawings/plan/markers?zoom=3&colour=red")
            #expect(response.status == .badRequest)
            #expect(response.errorMessage?.hasPrefix("colour:") == true)
            let badZoom = try await client.get("/drawings/plan/markers?zoom=abc")
            #expect(badZoom.status == .badRequest)
            #expect(badZoom.errorMessage?.hasPrefix("zoom:") == true)
            let badStatus = try await client.get("/drawings/plan/markers?status=done")
            #expect(badStatus.status == .badRequest)
        }
    }
}
