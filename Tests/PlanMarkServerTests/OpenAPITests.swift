import Foundation
import Hummingbird
import Testing
@testable import PlanMarkServer
import PlanMarkTestSupport

/// `GET /openapi.json`: an OpenAPI 3.1 document describing every endpoint the router serves.
@Suite struct OpenAPITests {
    /// The endpoints the router serves (method, path template), written out independently of the document.
    static let endpoints: [(String, String)] = [
        ("get", "/health"), ("get", "/vocabulary"), ("head", "/vocabulary"), ("get", "/me"), ("head", "/me"), ("get", "/openapi.json"), ("get", "/metrics"), ("head", "/metrics"),
        ("post", "/validate"), ("get", "/drawings"), ("get", "/drawings/{name}"), ("get", "/changes"), ("head", "/changes"),
        ("get", "/drawings/{name}/events"), ("head", "/drawings/{name}/events"),
        ("get", "/drawings/{name}/image"), ("get", "/drawings/{name}/regions"), ("get", "/drawings/{name}/markers"),
        ("post", "/drawings/{name}/markers"), ("get", "/drawings/{name}/markers/{number}"), ("patch", "/drawings/{name}/markers/{number}"),
        ("delete", "/drawings/{name}/markers/{number}"), ("get", "/drawings/{name}/markers/{number}/history"),
        ("get", "/drawings/{name}/review.png"),
        ("patch", "/drawings/{name}"), ("delete", "/drawings/{name}"), ("get", "/drawings/{name}/summary"), ("head", "/drawings/{name}/summary"),
        ("get", "/drawings/{name}/markers/{number}/attachments"), ("head", "/drawings/{name}/markers/{number}/attachments"),
        ("post", "/drawings/{name}/markers/{number}/attachments"),
        ("get", "/drawings/{name}/markers/{number}/comments"), ("head", "/drawings/{name}/markers/{number}/comments"),
        ("post", "/drawings/{name}/markers/{number}/comments"),
        ("get", "/drawings/{name}/markers/{number}/attachments/{id}"), ("head", "/drawings/{name}/markers/{number}/attachments/{id}"),
        ("delete", "/drawings/{name}/markers/{number}/attachments/{id}"),
        ("head", "/health"), ("head", "/openapi.json"), ("head", "/drawings"), ("head", "/drawings/{name}"), ("head", "/drawings/{name}/image"),
        ("head", "/drawings/{name}/regions"), ("head", "/drawings/{name}/markers"), ("head", "/drawings/{name}/markers/{number}"),
        ("head", "/drawings/{name}/markers/{number}/history"), ("head", "/drawings/{name}/review.png"),
        ("get", "/drawings/{name}/tiles/{z}/{x}/{y}.png"), ("head", "/drawings/{name}/tiles/{z}/{x}/{y}.png"),
        ("get", "/drawings/{name}/revisions"), ("head", "/drawings/{name}/revisions"),
        ("get", "/drawings/{name}/report.pdf"), ("head", "/drawings/{name}/report.pdf"),
        ("get", "/drawings/{name}/issues.bcf"), ("head", "/drawings/{name}/issues.bcf"),
    ]

    @Test func documentDescribesEveryEndpoint() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.get("/openapi.json")
            #expect(response.status == .ok)
            let document = response.object
            #expect((document["openapi"] as? String)?.hasPrefix("3.1.") == true)
            let paths = document["paths"] as? [String: [String: Any]] ?? [:]
            for (method, path) in Self.endpoints {
                #expect(paths[path]?[method] != nil, "\(method) \(path) is not documented")
            }
            let documented = paths.flatMap { path, item in item.keys.filter { $0 != "parameters" }.map { "\($0) \(path)" } }
            #expect(Set(documented) == Set(Self.endpoints.map { "\($0.0) \($0.1)" }))
            // Every documented endpoint answers something other than "no such endpoint".
            for (method, path) in Self.endpoints {
                let concrete = path.replacingOccurrences(of: "{name}", with: "plan").replacingOccurrences(of: "{number}", with: "1")
                    .replacingOccurrences(of: "{id}", with: "1").replacingOccurrences(of: "{z}", with: "0")
                    .replacingOccurrences(of: "{x}", with: "0").replacingOccurrences(of: "{y}", with: "0")
                let answer = try await client.execute(uri: concrete, method: HTTPRequest.Method(method.uppercased())!, headers: [.contentType: "application/json"], body: ByteBuffer(string: "{}"))
                #expect(answer.errorCode != "not-found", "\(method) \(concrete)")
            }
            // /health needs no token; the rest use the bearer scheme.
            #expect(((paths["/health"]?["get"] as? [String: Any])?["security"] as? [Any])?.isEmpty == true)
            #expect((document["components"] as? [String: Any]).flatMap { ($0["securitySchemes"] as? [String: Any])?["bearer"] } != nil)
        }
    }

    /// The statuses each operation declares, written out by hand from what the server can answer.
    @Test(arguments: [
        ("/health", "get", ["200", "400", "421"]),
        ("/me", "get", ["200", "400", "401", "421", "429", "500", "503"]),
        ("/metrics", "get", ["200", "400", "401", "421", "429"]),
        ("/validate", "post", ["200", "400", "401", "403", "413", "415", "421", "429", "503"]),
        ("/drawings/{name}/markers", "post", ["200", "201", "400", "401", "403", "404", "409", "413", "415", "421", "422", "429", "500", "503"]),
        ("/drawings/{name}/markers/{number}", "patch", ["200", "400", "401", "403", "404", "409", "412", "413", "415", "421", "422", "429", "500", "503"]),
        ("/drawings/{name}/markers/{number}", "delete", ["200", "400", "401", "403", "404", "412", "415", "421", "422", "429", "500", "503"]),
        ("/changes", "get", ["200", "400", "401", "404", "421", "429", "500", "503"]),
        ("/drawings/{name}/image", "head", ["200", "304", "400", "401", "404", "421", "429", "500", "503"]),
        ("/drawings/{name}", "patch", ["200", "400", "401", "403", "404", "409", "413", "415", "421", "429", "500", "503"]),
        ("/drawings/{name}", "delete", ["200", "400", "401", "403", "404", "409", "415", "421", "429", "500", "503"]),
        ("/drawings/{name}/summary", "get", ["200", "400", "401", "404", "421", "429", "500", "503"]),
        ("/drawings/{name}/markers", "get", ["200", "304", "400", "401", "404", "421", "429", "500", "503"]),
        ("/drawings/{name}/tiles/{z}/{x}/{y}.png", "get", ["200", "304", "400", "401", "404", "421", "422", "429", "500", "503", "504"]),
        ("/drawings/{name}/tiles/{z}/{x}/{y}.png", "head", ["200", "304", "400", "401", "404", "421", "422", "429", "500", "503", "504"]),
        ("/drawings/{name}/markers/{number}/attachments", "post", ["201", "400", "401", "403", "404", "413", "415", "421", "422", "429", "500", "503"]),
        ("/drawings/{name}/markers/{number}/attachments", "get", ["200", "400", "401", "404", "421", "429", "500", "503"]),
        ("/drawings/{name}/markers/{number}/comments", "post", ["201", "400", "401", "403", "404", "413", "415", "421", "422", "429", "500", "503"]),
        ("/drawings/{name}/markers/{number}/comments", "get", ["200", "400", "401", "404", "421", "429", "500", "503"]),
        ("/drawings/{name}/markers/{number}/attachments/{id}", "get", ["200", "304", "400", "401", "404", "421", "429", "500", "503"]),
        ("/drawings/{name}/markers/{number}/attachments/{id}", "delete", ["200", "400", "401", "403", "404", "415", "421", "422", "429", "500", "503"]),
    ])
    func operationsDeclareEveryStatus(path: String, method: String, statuses: [String]) throws {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any])
        let operation = ((document["paths"] as? [String: Any])?[path] as? [String: Any])?[method] as? [String: Any]
        let responses = try #require(operation?["responses"] as? [String: Any])
        #expect(responses.keys.sorted() == statuses)
    }

    /// Positions: x/y or lat/lng(/zoom) are alternatives, zoom is within [-64, 64].
    @Test func markerBodiesStateTheAlternatives() async throws {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any])
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let newMarker = try #require(schemas["NewMarker"] as? [String: Any])
        let alternatives = try #require(newMarker["oneOf"] as? [[String: Any]])
        #expect(alternatives.map { $0["required"] as? [String] ?? [] } == [["x", "y"], ["lat", "lng"]])
        let zoom = (newMarker["properties"] as? [String: Any])?["zoom"] as? [String: Any]
        #expect(zoom?["minimum"] as? Int == -64)
        #expect(zoom?["maximum"] as? Int == 64)
        #expect(newMarker["additionalProperties"] as? Bool == false)
    }

    /// Every field of a punch item, on the bodies and the answer (lists written out by hand from issue 10).
    @Test func punchItemFieldsAreDocumented() async throws {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any])
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        func properties(_ name: String) -> Set<String> {
            Set(((schemas[name] as? [String: Any])?["properties"] as? [String: Any] ?? [:]).keys)
        }
        #expect(properties("NewMarker") == ["x", "y", "lat", "lng", "zoom", "note", "author", "uuid", "status", "category", "priority",
                                            "assignee", "due", "capturedAt"])
        #expect(properties("MarkerChange") == ["x", "y", "lat", "lng", "zoom", "note", "author", "status", "reason", "category", "priority",
                                               "assignee", "due"])
        #expect(properties("Attachment") == ["id", "sha256", "size", "contentType", "caption"])
        #expect(properties("Marker").isSuperset(of: ["uuid", "status", "category", "priority", "assignee", "due", "capturedAt"]))
        let status = ((schemas["Marker"] as? [String: Any])?["properties"] as? [String: Any])?["status"] as? [String: Any]
        #expect(status?["enum"] as? [String] == ["open", "in-progress", "ready", "closed", "void"])
    }

    /// Checks the document with the `openapi-spec-validator` package (`pip install openapi-spec-validator`;
    /// .ci/run installs it). Without python3 or the package the test fails: it is never skipped.
    @Test func documentPassesTheValidator() async throws {
        let probe = try ProcessRunner.run("/usr/bin/env", ["python3", "-c", "import openapi_spec_validator"])
        try #require(probe.status == 0, """
            python3 cannot import openapi_spec_validator, so the OpenAPI document cannot be checked: \
            install it with `pip install openapi-spec-validator` (.ci/run does). \(probe.stderr)
            """)
        let file = TestFolder.path("planmark-openapi", extension: "json")
        try OpenAPIDocument.json.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try ProcessRunner.run("/usr/bin/env", ["python3", "-c", """
            import json, sys
            from openapi_spec_validator import validate
            from openapi_spec_validator.validation import OpenAPIV31SpecValidator
            document = json.load(open(sys.argv[1]))
            validate(document, cls=OpenAPIV31SpecValidator)
            print("valid")
            """, file.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "valid\n")
    }
}
