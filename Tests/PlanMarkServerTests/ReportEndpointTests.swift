import Foundation
import Hummingbird
import Testing
@testable import PlanMarkServer

/// `GET /drawings/{name}/report.pdf`: the punch-list report as the CLI writes it, with the same filters as
/// `GET .../markers`. The PDF is read back with pdfinfo and pdftotext (poppler-utils) when they are there;
/// under CI=true their absence fails the test.
@Suite struct ReportEndpointTests {
    static let missingPoppler: String? = ["pdfinfo", "pdftotext"].allSatisfy { FileManager.default.isExecutableFile(atPath: "/usr/bin/" + $0) }
        ? nil : "poppler-utils (pdfinfo, pdftotext) is not installed"
    static let inCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// A PDF (`%PDF-` ... `%%EOF`) served as application/pdf; `status=open` lists marker 1 and its note, not the
    /// closed marker 2 and its note; the text says which filter chose them.
    @Test func servesThePDFWithTheFilters() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        _ = try await fixture.store.addMarker(to: "plan", at: .init(x: 450, y: 400), note: "Door frame scratched", author: nil)
        _ = try await fixture.store.addMarker(to: "plan", at: .init(x: 900, y: 300), note: "Window sealant", author: nil)
        _ = try await fixture.store.setStatus(.closed, ofMarker: 2, in: "plan", author: nil)
        let file = fixture.folder.appendingPathComponent("report.pdf")
        try await fixture.application().test(.router) { client in
            let response = try await client.get("/drawings/plan/report.pdf?status=open&groupBy=status")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/pdf")
            let bytes = [UInt8](response.body.readableBytesView)
            #expect(bytes.starts(with: Array("%PDF-".utf8)))
            #expect(String(decoding: bytes.suffix(8), as: UTF8.self).contains("%%EOF"))
            if let missing = Self.missingPoppler {
                if Self.inCI { Issue.record("CI=true but the PDF cannot be read: \(missing)") }
                return
            }
            try Data(bytes).write(to: file)
            let text = try ProcessRunner.run("/usr/bin/pdftotext", ["-layout", file.path, "-"]).stdout
            #expect(text.contains("#1 ") && text.contains("Door frame scratched"))
            #expect(!text.contains("#2 ") && !text.contains("Window sealant"))
            #expect(text.contains("status=open") && text.contains("Status: Open (1)"))
            let info = try ProcessRunner.run("/usr/bin/pdfinfo", [file.path]).stdout
            // Page 1, then marker 1's block.
            let pages = info.split(separator: "\n").first { $0.hasPrefix("Pages:") }?.dropFirst("Pages:".count)
            #expect(pages?.trimmingCharacters(in: .whitespaces) == "2", "\(info)")
        }
    }

    /// `signOff` repeated gives the sign-off block, names in the order asked (`Name, Role`, or a name alone), on the
    /// last page after the marker's card; a sign-off without a name is 400.
    @Test func signOffOverHTTP() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        _ = try await fixture.store.addMarker(to: "plan", at: .init(x: 450, y: 400), note: "Door frame scratched", author: nil)
        let file = fixture.folder.appendingPathComponent("signed.pdf")
        try await fixture.application().test(.router) { client in
            // "Ann Smith, Site manager" and "Bob" (a comma is %2C, a space %20).
            let response = try await client.get("/drawings/plan/report.pdf?signOff=Ann%20Smith%2C%20Site%20manager&signOff=Bob")
            #expect(response.status == .ok)
            let bytes = [UInt8](response.body.readableBytesView)
            let noName = try await client.get("/drawings/plan/report.pdf?signOff=%2C%20Role%20only")
            #expect(noName.status == .badRequest)
            #expect(noName.errorCode == "invalid-field")
            if let missing = Self.missingPoppler {
                if Self.inCI { Issue.record("CI=true but the PDF cannot be read: \(missing)") }
                return
            }
            try Data(bytes).write(to: file)
            let text = try ProcessRunner.run("/usr/bin/pdftotext", ["-layout", file.path, "-"]).stdout
            let card = try #require(text.range(of: "Door frame scratched", options: .backwards))
            let ann = try #require(text.range(of: "Ann Smith"))
            let bob = try #require(text.range(of: "Bob"))
            #expect(card.upperBound <= ann.lowerBound && ann.upperBound <= bob.lowerBound)
            #expect(text.contains("Site manager") && text.contains("Sign-off") && text.contains("Signature:"))
        }
    }

    @Test(arguments: [
        ("/drawings/nope/report.pdf", 404, "unknown-drawing"),
        ("/drawings/plan/report.pdf?status=done", 400, "invalid-field"),
        ("/drawings/plan/report.pdf?groupBy=colour", 400, "invalid-field"),
        ("/drawings/plan/report.pdf?paper=a3", 400, "invalid-field"),
        ("/drawings/plan/report.pdf?around=1", 400, "invalid-field"),
    ])
    func badReportRequests(path: String, status: Int, code: String) async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.get(path)
            #expect(response.status.code == status)
            #expect(response.errorCode == code, "\(path)")
        }
    }
}
