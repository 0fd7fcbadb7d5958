import Foundation
import Hummingbird
import PlanMarkGeometry
import PlanMarkStore
import Testing
@testable import PlanMarkServer

/// Query strings are percent-decoded exactly once (RFC 3986 section 2.1) and `+` is a plus: the
/// expected texts below are worked out by hand from the escapes (`%2B` is `+`, `%25` is `%`, `%20` a space).
/// On main 668aa73 the escapes were decoded twice (`C%2B%2B` stored as `C  `, `%2541` as `A`) and `%FF`
/// became U+FFFD.
@Suite struct QueryStringTests {
    @Test(arguments: [
        ("C%2B%2B", "C++"),
        ("a%2Bb", "a+b"),
        ("a+b", "a+b"),
        ("%2541", "%41"),
        ("x%252Fy", "x%2Fy"),
        ("50%25%20off", "50% off"),
        ("100%25", "100%"),
        ("caf%C3%A9", "café"),
        ("%E2%82%AC%F0%9F%98%80", "€😀"),
        ("a=b", "a=b"),
        ("", ""),
    ])
    func decodedOnce(raw: String, text: String) throws {
        #expect(try QueryParameters.parse("caption=\(raw)&author=ana")["caption"] == text)
        #expect(try QueryParameters.parse("caption=\(raw)") == ["caption": text])
    }

    @Test func keysAreDecodedOnceToo() async throws {
        #expect(try QueryParameters.parse("st%61tus=open&q%2B=1") == ["status": "open", "q+": "1"])
        #expect(try QueryParameters.parse("overdue&&q=") == ["overdue": "", "q": ""])
        #expect(try QueryParameters.parse(nil) == [:])
    }

    @Test(arguments: ["%FF", "%C3", "%ED%A0%80", "%", "%4", "%GG", "a%2"])
    func badEscapesAndInvalidUTF8AreRefused(raw: String) async {
        #expect(throws: APIError.self) { try QueryParameters.parse("caption=\(raw)") }
        #expect(throws: APIError.self) { try QueryParameters.parse("\(raw)=1") }
    }

    /// Through the router: a caption with escaped `+` and `%` is stored as typed, a filter on an assignee
    /// with `+` in it finds the marker, and `%FF` is 400 with nothing stored.
    @Test func throughTheService() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        _ = try await fixture.store.addMarker(to: "plan", NewMarker(position: PixelPoint(x: 450, y: 400), assignee: "C++ team"), author: nil)
        try await fixture.application().test(.router) { client in
            let base = "/drawings/plan/markers/1/attachments"
            let png: [UInt8] = AttachmentFixtures.png
            let posted = try await client.execute(uri: base + "?caption=50%25%20off%20C%2B%2B", method: .post,
                                                  headers: [.contentType: "image/png"], body: ByteBuffer(bytes: png))
            #expect(posted.status == .created, "\(posted.text)")
            #expect(posted.object["caption"] as? String == "50% off C++")

            let refused = try await client.execute(uri: base + "?caption=%FF", method: .post,
                                                   headers: [.contentType: "image/png"], body: ByteBuffer(bytes: png))
            #expect(refused.status == .badRequest, "\(refused.text)")

            let found = try await client.get("/drawings/plan/markers?assignee=C%2B%2B%20team")
            #expect(found.status == .ok)
            #expect(features(found).map { $0.properties["number"] as? Int } == [1])
            let plus = try await client.get("/drawings/plan/markers?q=C%2B%2B")
            #expect(features(plus).count == 1)
            let spaces = try await client.get("/drawings/plan/markers?assignee=C%20%20team")
            #expect(features(spaces).isEmpty)
        }
        #expect(try await fixture.store.attachments(ofMarker: 1, in: "plan").count == 1)
    }
}

/// Noncharacters are refused at the service's door too (400 `invalid-field` naming the field), in JSON bodies
/// (raw or `\u`-escaped) and in query parameters, and nothing is stored.
@Suite struct NoncharacterDoorTests {
    @Test(arguments: [
        #"{"x":460,"y":410,"note":"before \uFFFE after"}"#,
        "{\"x\":460,\"y\":410,\"note\":\"before " + String(Unicode.Scalar(0xFDD0)!) + " after\"}",
        #"{"x":460,"y":410,"assignee":"\uDBFF\uDFFF"}"#,
        #"{"x":460,"y":410,"category":"\uD83F\uDFFE"}"#,
    ])
    func markerBodies(body: String) async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.send(.post, "/drawings/plan/markers", json: body)
            #expect(response.status == .badRequest, "\(response.text)")
            #expect(response.errorCode == "invalid-field")
            #expect(response.errorMessage?.contains("noncharacter U+") == true, "\(response.text)")
        }
        #expect(try await fixture.store.drawing(named: "plan").drawing.nextNumber == 1)
    }

    @Test func attachmentCaption() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        _ = try await fixture.store.addMarker(to: "plan", at: PixelPoint(x: 450, y: 400), note: nil, author: nil)
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/drawings/plan/markers/1/attachments?caption=a%EF%BF%BEb", method: .post,
                                                    headers: [.contentType: "image/png"], body: ByteBuffer(bytes: AttachmentFixtures.png))
            #expect(response.status == .badRequest, "\(response.text)")
            #expect(response.errorMessage?.contains("noncharacter U+FFFE") == true, "\(response.text)")
        }
        #expect(try await fixture.store.attachments(ofMarker: 1, in: "plan").isEmpty)
    }
}
