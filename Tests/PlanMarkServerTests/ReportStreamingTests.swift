import Foundation
import GRDBSQLite
import HTTPTypes
import Hummingbird
import PlanMarkGeometry
import PlanMarkStore
import PlanMarkSQLite
import Testing
@testable import PlanMarkServer

#if canImport(Glibc)
import Glibc
#endif

/// Photos made byte by byte: headers that declare a size (nothing else in them is read at upload).
enum DeclaredPhoto {
    /// A PNG signature, an IHDR chunk declaring `width` x `height` (8-bit RGB) and IEND.
    static func png(width: Int, height: Int) -> [UInt8] {
        func word(_ value: Int) -> [UInt8] { [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + word(13) + Array("IHDR".utf8) + word(width) + word(height)
            + [8, 2, 0, 0, 0] + word(0) + word(0) + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
    }

    /// SOI, APP0 JFIF, a baseline SOF0 declaring `width` x `height` (3 components), `filler` bytes, EOI.
    static func jpeg(width: Int, height: Int, filler: Int = 64) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]
            + [0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 0x03,
               0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]
            + [UInt8](repeating: 0x33, count: filler) + [0xFF, 0xD9]
    }
}

/// The report endpoint's hardening (issue 23): pixel limits at upload, text cairo would refuse, a report streamed
/// (memory bounded whatever its size), stopped when its client goes away or the service stops.
@Suite struct ReportStreamingTests {
    static let missingPoppler = ReportEndpointTests.missingPoppler

    /// Over 100,000,000 pixels or 20,000 a side, read from the header: 422 `photo-too-large` with one line naming
    /// the declared size and the limits, nothing stored; at the limits, 201.
    @Test(arguments: [
        (DeclaredPhoto.png(width: 14000, height: 14000), "14000 x 14000"),
        (DeclaredPhoto.jpeg(width: 65535, height: 65535), "65535 x 65535"),
        (DeclaredPhoto.jpeg(width: 30000, height: 30000), "30000 x 30000"),
        (DeclaredPhoto.jpeg(width: 20001, height: 1), "20001 x 1"),
    ])
    func photosOverThePixelLimitsAre422(bytes: [UInt8], size: String) async throws {
        let fixture = try await AttachmentEndpointTests.makeFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: AttachmentEndpointTests.base, method: .post, body: ByteBuffer(bytes: bytes))
            #expect(response.status == .unprocessableContent, "\(response.text)")
            #expect(response.errorCode == "photo-too-large")
            #expect(response.errorMessage == "the photo declares \(size) pixels; photos may have at most 100000000 pixels and 20000 a side")
            let edge = try await client.execute(uri: AttachmentEndpointTests.base, method: .post,
                                                body: ByteBuffer(bytes: DeclaredPhoto.png(width: 20000, height: 5000)))
            #expect(edge.status == .created, "\(edge.text)")
        }
        #expect(try await fixture.store.attachments(ofMarker: 1, in: "plan").count == 1)
    }

    /// Notes with a noncharacter (U+FFFE, U+FDD0, U+10FFFF, U+1FFFE), written with SQLite's C API as an older store
    /// may hold them: the served PDF has every text after each of them and the later marker's note (pdftotext).
    @Test func noncharactersDoNotEndTheServedReport() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let codes = [0xFFFE, 0xFDD0, 0x10FFFF, 0x1FFFE]
        for index in codes.indices {
            _ = try await fixture.store.addMarker(to: "plan", at: .init(x: 450 + Double(index) * 10, y: 400), note: "placeholder", author: nil)
        }
        _ = try await fixture.store.addMarker(to: "plan", at: .init(x: 900, y: 300), note: "Last marker note", author: nil)
        var connection: OpaquePointer?
        try #require(sqlite3_open_v2(fixture.storePath, &connection, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK)
        for (index, code) in codes.enumerated() {
            let sql = "UPDATE marker SET note = 'before-\(index + 1) ' || char(\(code)) || ' after-\(index + 1)' WHERE number = \(index + 1)"
            #expect(sqlite3_exec(connection, sql, nil, nil, nil) == SQLITE_OK)
        }
        sqlite3_close(connection)
        let file = fixture.folder.appendingPathComponent("nonchar.pdf")
        try await fixture.application().test(.router) { client in
            let response = try await client.get("/drawings/plan/report.pdf")
            #expect(response.status == .ok)
            if let missing = Self.missingPoppler {
                if ReportEndpointTests.inCI { Issue.record("CI=true but the PDF cannot be read: \(missing)") }
                return
            }
            try Data(response.body.readableBytesView).write(to: file)
            let text = try ProcessRunner.run("/usr/bin/pdftotext", [file.path, "-"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            for number in 1...codes.count {
                #expect(text.contains("before-\(number) \u{FFFD} after-\(number)"), "marker \(number): \(text)")
            }
            #expect(text.contains("Last marker note"))
        }
    }

    /// A report far larger than everything between the server and a client that does not read (the pipe's 1 MiB,
    /// the kernel's socket buffers: on Linux up to `tcp_wmem` 4 MiB plus `tcp_rmem` 32 MiB; 30 markers make 60 MiB),
    /// so that its maker is always still at work, waiting for the client, when the test acts, however loaded the
    /// machine is: `count` markers, each with the same 2 MiB JPEG (stored once; cairo embeds it, unread, on each
    /// page it is shown on).
    static func photoReportFixture(count: Int = 30) async throws -> ServerFixture {
        let fixture = try await ServerFixture()
        let photo = DeclaredPhoto.jpeg(width: 64, height: 48, filler: 2 << 20)
        for index in 0..<count {
            _ = try await fixture.store.addMarker(to: "plan", at: .init(x: 450 + Double(index % 10), y: 400 + Double(index / 10)),
                                            note: "Marker note \(index + 1)", author: nil)
            _ = try await fixture.store.attach(photo, declaredType: nil, caption: nil, toMarker: index + 1, in: "plan", author: nil)
        }
        return fixture
    }

    /// A client that goes away after the report's first bytes: the report stops being made (the server logs that it
    /// stopped; it waits for nothing else: on main the report is built to its end) and the service still answers,
    /// with its render places free (a second report is made and sent whole).
    @Test(.hangGuard)
    func reportAbandonedByItsClientStops() async throws {
        let fixture = try await Self.photoReportFixture()
        defer { fixture.remove() }
        let server = try await RunningServer(executable: BuiltProducts.path("planmark-server"),
                                             arguments: ["--store", fixture.storePath, "--port", "0"])
        let port = server.port
        let connection = try RawHTTPConnection(port: port)
        try connection.send("GET /drawings/plan/report.pdf HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        let first = try await connection.readSome()
        #expect(String(decoding: first.prefix(12), as: UTF8.self) == "HTTP/1.1 200")
        connection.abort()
        try await server.waitForStderr(containing: "report of drawing \"plan\" stopped")
        for _ in 0..<3 {  // more than the 2 render places
            let small = try RawHTTPConnection(port: port)
            try small.send("GET /drawings/plan/report.pdf?status=closed HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            let answer = try await small.readAnswer()
            #expect(answer.status == 200)
            #expect(answer.body.starts(with: Array("%PDF-".utf8)) && answer.header("content-length") != nil)
        }
        #expect(await server.stop() == 0)
    }

    /// SIGTERM while a long report is being sent to a client that has stopped reading: the server stops the report,
    /// closes the connection after the shutdown grace (2 s here) and exits 0 (on main it waited for the report's
    /// end, holding it whole; before the grace closed answers being sent, it waited for the client for ever); the
    /// client then reads what was sent: the transfer broken before its last chunk, never a whole-looking shorter PDF.
    /// (The report's maker may not get to log that it stopped: the process can end first.)
    @Test(.hangGuard)
    func sigtermStopsAReportBeingMade() async throws {
        let fixture = try await Self.photoReportFixture()
        defer { fixture.remove() }
        let server = try await RunningServer(executable: BuiltProducts.path("planmark-server"),
                                             arguments: ["--store", fixture.storePath, "--port", "0", "--shutdown-grace", "2"])
        let port = server.port
        let connection = try RawHTTPConnection(port: port)
        try connection.send("GET /drawings/plan/report.pdf HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        let first = try await connection.readSome()
        #expect(String(decoding: first.prefix(12), as: UTF8.self) == "HTTP/1.1 200")
        #expect(await server.stop(signal: SIGTERM) == 0)
        var received = first
        while true {
            let more = try await connection.readSome()
            if more.isEmpty { break }
            received += more
        }
        // Chunked, and cut before its last chunk (`0\r\n\r\n`) and before the PDF's end: no client takes it for a
        // whole PDF.
        let text = String(decoding: received.prefix(2000), as: UTF8.self).lowercased()
        #expect(text.contains("transfer-encoding: chunked"))
        #expect(!received.suffix(5).elementsEqual(Array("0\r\n\r\n".utf8)))
        #expect(!String(decoding: received.suffix(64), as: UTF8.self).contains("%%EOF"))
    }

    /// The server's peak memory (VmHWM) over a report of 60 markers, each with the same 2 MiB JPEG (stored once;
    /// cairo embeds it on each page it is shown on): the PDF is over 120 MB, sent chunked, and read whole it is a
    /// PDF with every marker; the server's peak grows by less than half the PDF, so the server never held it (it once
    /// held it twice). The growth itself varies with the load and the warm-up's own peak: 17 to 43 MiB in seven suite
    /// runs of 2026-11-26 (12 MiB alone), so a bound of a third of the PDF (40 MiB) failed once with a build running
    /// beside the suite. The limits table (docs/limits.md) states the bound.
    @Test(.hangGuard)
    func largeReportIsStreamedInBoundedMemory() async throws {
        let count = 60
        let fixture = try await Self.photoReportFixture(count: count)
        defer { fixture.remove() }
        let server = try await RunningServer(executable: BuiltProducts.path("planmark-server"),
                                             arguments: ["--store", fixture.storePath, "--port", "0"])
        let port = server.port
        let pid = server.process.processIdentifier
        // Warm up: the same drawing (decoded for the sheet and the crops), one marker.
        let warm = try RawHTTPConnection(port: port)
        try warm.send("GET /drawings/plan/report.pdf?q=Marker%20note%201 HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        #expect(try await warm.readAnswer().status == 200)
        let before = try AttachmentLimitLiveTests.peakMemory(of: pid)

        let connection = try RawHTTPConnection(port: port)
        try connection.send("GET /drawings/plan/report.pdf HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        let answer = try await connection.readAnswer()
        #expect(answer.status == 200)
        #expect(answer.header("transfer-encoding")?.lowercased() == "chunked")
        #expect(answer.body.count > count * (2 << 20), "\(answer.body.count) bytes")
        #expect(answer.body.starts(with: Array("%PDF-".utf8)))
        #expect(String(decoding: answer.body.suffix(8), as: UTF8.self).contains("%%EOF"))
        let after = try AttachmentLimitLiveTests.peakMemory(of: pid)
        print("ReportStreamingTests: a \(answer.body.count >> 20) MiB report; server peak memory \(before >> 20) MiB before, \(after >> 20) MiB after")
        #expect(after - before < answer.body.count / 2, "peak memory grew by \(after - before) bytes, the PDF is \(answer.body.count)")
        if Self.missingPoppler == nil {
            let file = fixture.folder.appendingPathComponent("large.pdf")
            try Data(answer.body).write(to: file)
            let text = try ProcessRunner.run("/usr/bin/pdftotext", [file.path, "-"]).stdout
            #expect(text.contains("Marker note \(count)"))
        }
        #expect(await server.stop() == 0)
    }
}
