import Foundation
import GRDBSQLite
import HTTPTypes
import Hummingbird
import PlanMarkGeometry
import PlanMarkStore
import PlanMarkSQLite
import PlanMarkTestSupport
import Testing
@testable import PlanMarkServer

#if canImport(Glibc)
import Glibc
#endif

/// Small files made here: a JPEG (SOI, an APP0 JFIF segment, EOI), a 1x1 PNG (its bytes written out by
/// hand from zlib and CRC-32), a one-page PDF, and a text file.
enum AttachmentFixtures {
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]
        + (0..<200).map { UInt8($0 % 251) } + [0xFF, 0xD9]
    static let png: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01,
        0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53, 0xDE, 0x00, 0x00, 0x00, 0x0C, 0x49, 0x44, 0x41,
        0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0x00, 0x00, 0x03, 0x01, 0x01, 0x00, 0xC9, 0xFE, 0x92, 0xEF, 0x00, 0x00, 0x00,
        0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]
    static let pdf: [UInt8] = Array("""
        %PDF-1.4
        1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
        2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
        3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj
        trailer << /Root 1 0 R >>
        %%EOF

        """.utf8)
    static let text: [UInt8] = Array("not a photo, just a renamed text file\n".utf8)
}

/// `/drawings/{name}/markers/{n}/attachments[/{id}]`.
@Suite struct AttachmentEndpointTests {
    static let base = "/drawings/plan/markers/1/attachments"

    /// A fixture with markers 1 and 2.
    static func makeFixture() async throws -> ServerFixture {
        let fixture = try await ServerFixture()
        _ = try await fixture.store.addMarker(to: "plan", at: PixelPoint(x: 450, y: 400), note: nil, author: nil)
        _ = try await fixture.store.addMarker(to: "plan", at: PixelPoint(x: 900, y: 300), note: nil, author: nil)
        return fixture
    }

    @Test(arguments: [
        (AttachmentFixtures.jpeg, "image/jpeg", "image/jpeg"),
        (AttachmentFixtures.png, "image/png", nil as String?),
        (AttachmentFixtures.pdf, "application/pdf", "application/octet-stream"),
        (AttachmentFixtures.jpeg, "image/jpeg", "IMAGE/JPEG; q=1"),
    ])
    func attachAndReadBack(bytes: [UInt8], type: String, declared: String?) async throws {
        let fixture = try await Self.makeFixture()
        defer { fixture.remove() }
        let digest = sha256sum(bytes)
        try await fixture.application().test(.router) { client in
            var headers: HTTPFields = [:]
            if let declared { headers[.contentType] = declared }
            let posted = try await client.execute(uri: Self.base + "?caption=north%20wall&author=ana", method: .post, headers: headers,
                                                  body: ByteBuffer(bytes: bytes))
            #expect(posted.status == .created, "\(posted.text)")
            let object = posted.object
            let id = try #require(object["id"] as? Int)
            #expect(Set(object.keys) == ["id", "sha256", "size", "contentType", "caption"])
            #expect(object["sha256"] as? String == digest)
            #expect(object["size"] as? Int == bytes.count)
            #expect(object["contentType"] as? String == type)
            #expect(object["caption"] as? String == "north wall")
            #expect(posted.headers[.location] == Self.base + "/\(id)")

            let got = try await client.get(Self.base + "/\(id)")
            #expect(got.status == .ok)
            #expect(Array(got.body.readableBytesView) == bytes)
            #expect(got.headers[.contentType] == type)
            #expect(got.headers[.eTag] == "\"\(digest)\"")
            #expect(got.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
            #expect(got.headers[.contentDisposition] == (type == "application/pdf" ? "attachment" : nil))
            let cached = try await client.get(Self.base + "/\(id)", headers: [.ifNoneMatch: "\"\(digest)\""])
            #expect(cached.status == .notModified)
            #expect(cached.body.readableBytes == 0)

            let list = try await client.get(Self.base)
            #expect(list.status == .ok)
            let items = list.object["attachments"] as? [[String: Any]] ?? []
            #expect(items.count == 1)
            #expect(items.first?["id"] as? Int == id && items.first?["sha256"] as? String == digest)
        }
        let history = try await fixture.store.history(of: "plan", number: 1)
        #expect(history.map(\.action) == [.created, .attached])
        #expect(history.last?.author == "ana")
    }

    /// The same photo attached three times (twice to marker 1, once to 2) is stored once; its bytes go
    /// with the last attachment that has them.
    @Test func samePhotoTwiceIsStoredOnce() async throws {
        let fixture = try await Self.makeFixture()
        defer { fixture.remove() }
        let storePath = fixture.storePath
        try await fixture.application().test(.router) { client in
            var ids: [Int] = []
            for uri in [Self.base, Self.base, "/drawings/plan/markers/2/attachments"] {
                let posted = try await client.execute(uri: uri, method: .post, headers: [.contentType: "image/jpeg"],
                                                      body: ByteBuffer(bytes: AttachmentFixtures.jpeg))
                #expect(posted.status == .created)
                ids.append(try #require(posted.object["id"] as? Int))
            }
            #expect(Set(ids).count == 3)
            #expect(try Self.count("attachmentBlob", in: storePath) == 1)
            #expect(try Self.count("attachment", in: storePath) == 3)
            let removed = try await client.execute(uri: Self.base + "/\(ids[0])?author=bo", method: .delete)
            #expect(removed.status == .ok)
            #expect(removed.object["removed"] as? Bool == true)
            #expect(removed.object["id"] as? Int == ids[0])
            #expect(try await client.get(Self.base + "/\(ids[0])").status == .notFound)
            #expect(try await client.get(Self.base + "/\(ids[0])").errorCode == "unknown-attachment")
            #expect(try await client.execute(uri: Self.base + "/\(ids[0])", method: .delete).status == .notFound)
            // Marker 1 does not have marker 2's attachment.
            #expect(try await client.get(Self.base + "/\(ids[2])").status == .notFound)
            let still = try await client.get("/drawings/plan/markers/2/attachments/\(ids[2])")
            #expect(Array(still.body.readableBytesView) == AttachmentFixtures.jpeg)
            #expect(try Self.count("attachmentBlob", in: storePath) == 1)
            _ = try await client.execute(uri: Self.base + "/\(ids[1])", method: .delete)
            _ = try await client.execute(uri: "/drawings/plan/markers/2/attachments/\(ids[2])", method: .delete)
            #expect(try Self.count("attachmentBlob", in: storePath) == 0)
        }
        #expect(try await fixture.store.history(of: "plan", number: 1).map(\.action) == [.created, .attached, .attached, .detached, .detached])
    }

    /// The type is judged by the bytes: a renamed text file, a PNG declared as JPEG, a JPEG declared as
    /// text, an empty body: 415, nothing stored.
    @Test(arguments: [
        (AttachmentFixtures.text, "image/jpeg"),
        (AttachmentFixtures.text, nil as String?),
        (AttachmentFixtures.text, "application/octet-stream"),
        (AttachmentFixtures.png, "image/jpeg"),
        (AttachmentFixtures.jpeg, "text/plain"),
        (AttachmentFixtures.pdf, "application/json"),
        ([], nil),
    ])
    func wrongTypeIs415(bytes: [UInt8], declared: String?) async throws {
        let fixture = try await Self.makeFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            var headers: HTTPFields = [:]
            if let declared { headers[.contentType] = declared }
            let response = try await client.execute(uri: Self.base, method: .post, headers: headers, body: ByteBuffer(bytes: bytes))
            #expect(response.status == .unsupportedMediaType, "\(response.text)")
            #expect(response.errorCode == "unsupported-media-type")
        }
        #expect(try await fixture.store.attachments(ofMarker: 1, in: "plan").isEmpty)
    }

    @Test func unknownTargetsAndParameters() async throws {
        let fixture = try await Self.makeFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let jpeg = ByteBuffer(bytes: AttachmentFixtures.jpeg)
            #expect(try await client.execute(uri: "/drawings/plan/markers/9/attachments", method: .post, body: jpeg).status == .notFound)
            #expect(try await client.execute(uri: "/drawings/nope/markers/1/attachments", method: .post, body: jpeg).status == .notFound)
            #expect(try await client.get("/drawings/plan/markers/9/attachments").status == .notFound)
            #expect(try await client.get(Self.base + "/0").status == .badRequest)
            #expect(try await client.get(Self.base + "/abc").status == .badRequest)
            let unknown = try await client.execute(uri: Self.base + "?title=x", method: .post, body: jpeg)
            #expect(unknown.status == .badRequest)
            #expect(unknown.errorMessage?.hasPrefix("title:") == true)
            #expect(try await client.get(Self.base).text == "{\"attachments\":[]}\n")
        }
    }

    /// Attachments have their own limit (`--max-attachment`): over it is 413 from Content-Length; a
    /// 2 MiB photo is taken while a JSON body of that size is still 413 (the JSON limit stays 1 MiB).
    @Test func attachmentLimitIsItsOwn() async throws {
        let fixture = try await Self.makeFixture()
        defer { fixture.remove() }
        let photo = AttachmentFixtures.jpeg + [UInt8](repeating: 0x55, count: 2 << 20)
        try await fixture.application().test(.router) { client in
            let taken = try await client.execute(uri: Self.base, method: .post, headers: [.contentType: "image/jpeg"], body: ByteBuffer(bytes: photo))
            #expect(taken.status == .created)
            let json = "{\"x\":450,\"y\":400,\"note\":\"" + String(repeating: "n", count: 2 << 20) + "\"}"
            #expect(try await client.send(.post, "/drawings/plan/markers", json: json).status == .contentTooLarge)
        }
        try await fixture.application(maxAttachment: 1000).test(.router) { client in
            let over = try await client.execute(uri: Self.base, method: .post, body: ByteBuffer(bytes: AttachmentFixtures.jpeg + [UInt8](repeating: 1, count: 1000)))
            #expect(over.status == .contentTooLarge)
            #expect(over.errorCode == "body-too-large")
            let within = try await client.execute(uri: Self.base, method: .post, body: ByteBuffer(bytes: AttachmentFixtures.jpeg))
            #expect(within.status == .created)
        }
        #expect(try await fixture.store.attachments(ofMarker: 1, in: "plan").count == 2)
        #expect(throws: ServerConfigurationError.invalidLimit(option: "--max-attachment", 0)) {
            try ServerConfiguration(maxAttachmentBytes: 0).validate()
        }
    }

    /// Rows of `table` in the store file, read with SQLite's C API (independent of the store's code).
    static func count(_ table: String, in path: String) throws -> Int {
        var connection: OpaquePointer?
        guard sqlite3_open_v2(path, &connection, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { throw ApplicationTestFailure(description: "open") }
        defer { sqlite3_close(connection) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, "SELECT count(*) FROM \(table)", -1, &statement, nil) == SQLITE_OK,
              sqlite3_step(statement) == SQLITE_ROW else { throw ApplicationTestFailure(description: "count \(table)") }
        defer { sqlite3_finalize(statement) }
        return Int(sqlite3_column_int64(statement, 0))
    }
}

/// Over-limit attachment bodies against a `planmark-server` process: refused before they are read whole,
/// with the server's peak memory (VmHWM) measured around them.
@Suite(.serialized) struct AttachmentLimitLiveTests {
    /// The server's peak resident set (VmHWM), in bytes, from /proc.
    static func peakMemory(of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        let kilobytes = try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        return kilobytes * 1024
    }

    /// With a 4 MiB limit: a request announcing 1 GiB gets its 413 with no body byte sent; a chunked body of
    /// 64 MiB that never ends (no last chunk) gets its 413 all the same, so the answer cannot have waited for
    /// the whole body. The server's peak memory grows by less than half the chunked body (it holds at most
    /// the limit; the rest is read and dropped).
    @Test(.hangGuard)
    func overLimitBodiesAreRefusedBeforeTheyAreRead() async throws {
        let fixture = try await AttachmentEndpointTests.makeFixture()
        defer { fixture.remove() }
        let limit = 4 << 20
        let server = try await RunningServer(
            executable: BuiltProducts.path("planmark-server"),
            arguments: ["--store", fixture.storePath, "--port", "0", "--max-attachment", String(limit)])
        let port = server.port
        let pid = server.process.processIdentifier
        let head = "POST /drawings/plan/markers/1/attachments HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: image/jpeg\r\n"

        // Warm up the attachment path with a small photo.
        let warm = try RawHTTPConnection(port: port)
        try warm.send(head + "Content-Length: \(AttachmentFixtures.jpeg.count)\r\n\r\n")
        try warm.send(AttachmentFixtures.jpeg)
        #expect(try await warm.readAnswer().status == 201)
        let before = try Self.peakMemory(of: pid)

        // 1 GiB announced, nothing sent: the answer comes from the headers alone.
        do {
            let announced = try RawHTTPConnection(port: port)
            try announced.send(head + "Content-Length: \(1 << 30)\r\n\r\n")
            let refused = try await announced.readAnswer()
            #expect(refused.status == 413)
            #expect(refused.errorCode == "body-too-large")
            announced.shutdownWrite()  // the server sees the body end early and drops the connection
        }

        // Chunked: 64 MiB in 64 KiB chunks, and no last chunk.
        let connection = try RawHTTPConnection(port: port)
        try connection.send(head + "Transfer-Encoding: chunked\r\n\r\n")
        let total = 64 << 20, chunkSize = 64 << 10
        let chunk = Array(String(chunkSize, radix: 16).utf8) + [13, 10] + AttachmentFixtures.jpeg
            + [UInt8](repeating: 0x42, count: chunkSize - AttachmentFixtures.jpeg.count) + [13, 10]
        let sender = Task.detached { () -> Int in
            var sent = 0
            while sent < total {
                do { try connection.send(chunk) } catch { break }
                sent += chunkSize
            }
            return sent
        }
        let answer = try await connection.readAnswer()
        let sent = await sender.value
        connection.shutdownWrite()  // the body ends without its last chunk: the server drops the connection
        #expect(answer.status == 413)
        #expect(answer.errorCode == "body-too-large")
        let after = try Self.peakMemory(of: pid)
        print("AttachmentLimitLiveTests: \(sent >> 20) MiB of an unterminated chunked body sent, 413 received; server peak memory \(before >> 20) MiB before, \(after >> 20) MiB after")
        #expect(after - before < total / 2, "peak memory grew by \(after - before) bytes")
        // Nothing was stored but the warm-up photo, and the server still serves.
        #expect(try await fixture.store.attachments(ofMarker: 1, in: "plan").count == 1)
        let health = try RawHTTPConnection(port: port)
        try health.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        #expect(try await health.readAnswer().status == 200)
        #expect(await server.stop() == 0)
    }
}
