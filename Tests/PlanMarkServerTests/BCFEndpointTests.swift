import Foundation
import Hummingbird
import PlanMarkGeometry
import PlanMarkStore
import Testing
@testable import PlanMarkServer

/// `GET /drawings/{name}/issues.bcf`: the same bytes as `planmark export NAME --format bcf` but for the times of the
/// zip's entries; only what the signed-in user may see; its query checked.
@Suite struct BCFEndpointTests {
    /// The zip with every entry's modification time and date set to zero (local headers and central directory), by
    /// Python's own reading of the zip format: what must then be equal byte for byte.
    static let withoutTimes = """
        import struct, sys
        data = bytearray(open(sys.argv[1], "rb").read())
        for signature, offset in ((b"PK\\x03\\x04", 10), (b"PK\\x01\\x02", 12)):
            at = data.find(signature)
            while at >= 0:
                struct.pack_into("<HH", data, at + offset, 0, 0)
                at = data.find(signature, at + 4)
        sys.stdout.write(data.hex())
        """

    @Test func theServiceAnswersTheCLIsBytesButForTheTimes() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        _ = try await fixture.store.addMarker(to: "plan", at: .init(x: 450, y: 400), note: "Door frame scratched", author: "ann")
        _ = try await fixture.store.addMarker(to: "plan", at: .init(x: 900, y: 300), note: "Window sealant", author: nil)
        _ = try await fixture.store.comment("Seen again today", onMarker: 1, in: "plan", author: "ben")
        _ = try await fixture.store.setStatus(.closed, ofMarker: 2, in: "plan", author: nil)
        let served = fixture.folder.appendingPathComponent("served.bcf").path
        let written = fixture.folder.appendingPathComponent("written.bcf").path
        try await fixture.application().test(.router) { client in
            let response = try await client.get("/drawings/plan/issues.bcf?version=3.0&status=open")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/zip")
            #expect(response.headers[.contentDisposition] == "attachment; filename=\"plan.bcf\"")
            try Data(response.body.readableBytesView).write(to: URL(fileURLWithPath: served))
        }
        let cli = try ProcessRunner.run(BuiltProducts.path("planmark"), ["export", "plan", "--format", "bcf", "--bcf-version", "3.0", "--status", "open",
                                                                         "-o", written, "--store", fixture.storePath])
        #expect(cli.status == 0, "\(cli.stderr)")
        let a = try ProcessRunner.run("/usr/bin/python3", ["-c", Self.withoutTimes, served])
        let b = try ProcessRunner.run("/usr/bin/python3", ["-c", Self.withoutTimes, written])
        #expect(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)")
        #expect(!a.stdout.isEmpty && a.stdout == b.stdout)
        // One topic: the open marker; its folder is its uuid.
        let uuid = try await fixture.store.marker(1, in: "plan").uuid.text
        let names = try ProcessRunner.run("/usr/bin/python3", ["-c", "import sys, zipfile; print(' '.join(zipfile.ZipFile(sys.argv[1]).namelist()))",
                                                               served]).stdout
        #expect(names.split(separator: " ").filter { $0.hasSuffix("markup.bcf") } == ["\(uuid)/markup.bcf"])
    }

    /// A subcontractor of Acme gets Acme's markers only; a user without a role in the drawing's project gets 404.
    @Test func eachUserGetsWhatTheyMaySee() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let store = fixture.store
        let (sam, eve) = try await fixture.subcontractorAndOutsider()
        var acme = NewMarker(position: PixelPoint(x: 450, y: 400))
        acme.assignee = "Acme"
        _ = try await store.addMarker(to: "plan", acme, author: nil)
        _ = try await store.addMarker(to: "plan", NewMarker(position: PixelPoint(x: 460, y: 400)), author: nil)
        let mine = try await store.marker(1, in: "plan").uuid.text
        try await fixture.application().test(.router) { client in
            let response = try await client.get("/drawings/plan/issues.bcf", headers: [.authorization: "Bearer \(sam)"])
            #expect(response.status == .ok)
            let file = fixture.folder.appendingPathComponent("sam.bcf").path
            try Data(response.body.readableBytesView).write(to: URL(fileURLWithPath: file))
            let names = try ProcessRunner.run("/usr/bin/python3", ["-c", "import sys, zipfile; print(' '.join(zipfile.ZipFile(sys.argv[1]).namelist()))",
                                                                   file]).stdout
            #expect(names.split(separator: " ").filter { $0.hasSuffix("markup.bcf") } == ["\(mine)/markup.bcf"])
            #expect(try await client.get("/drawings/plan/issues.bcf", headers: [.authorization: "Bearer \(eve)"]).status == .notFound)
            #expect(try await client.get("/drawings/plan/issues.bcf").status == .unauthorized)
        }
    }

    @Test func theQueryIsChecked() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let version = try await client.get("/drawings/plan/issues.bcf?version=2.0")
            #expect(version.status == .badRequest && version.errorCode == "invalid-field")
            let base = try await client.get("/drawings/plan/issues.bcf?baseUrl=javascript:alert(1)")
            #expect(base.status == .badRequest && base.errorCode == "invalid-field")
            #expect(try await client.get("/drawings/plan/issues.bcf?colour=red").status == .badRequest)
            #expect(try await client.get("/drawings/nope/issues.bcf").status == .notFound)
            // HEAD answers the GET's headers without making the file; an unknown drawing is 404 there too.
            let head = try await client.execute(uri: "/drawings/plan/issues.bcf", method: .head)
            #expect(head.status == .ok && head.headers[.contentType] == "application/zip" && head.body.readableBytes == 0)
            #expect(try await client.execute(uri: "/drawings/nope/issues.bcf", method: .head).status == .notFound)
            // No markers: a BCF file with no topic.
            let empty = try await client.get("/drawings/plan/issues.bcf")
            #expect(empty.status == .ok && Array(empty.body.readableBytesView).starts(with: [0x50, 0x4B, 0x03, 0x04]))
        }
    }
}
