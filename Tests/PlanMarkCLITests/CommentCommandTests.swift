import Foundation
import PlanMarkTestSupport
import Testing

/// `planmark comment`, `comments`, `history verify`, `history head`, and the comments in `markers --comments` and
/// the report, read back by independent readers (sqlite3, Foundation's JSON parser, pdftotext).
@Suite struct CommentCommandTests {
    /// `sqlite3 STORE SQL`'s output, trimmed: the store read by SQLite's own shell, not by planmark.
    static func sqlite3(_ sandbox: StoreSandbox, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [sandbox.store, sql]
        let out = ChildProcess.pipe()
        process.standardOutput = out
        try ChildProcess.run(process)
        let data = out.fileHandleForReading.readBytesToEnd()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "sqlite3 \(sql)")
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static let sqlite3Present = FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")

    @Test func commentsAreListedInTextAndJSON() throws {
        let sandbox = try StoreSandbox.withDrawing()
        #expect(try sandbox.run(["mark", "A", "50", "50"]).status == 0)
        let first = try sandbox.run(["comment", "A", "1", "Tile cracked\nby the door", "--author", "ana"])
        #expect(first.status == 0, "\(first.stderr)")
        let second = try sandbox.run(["comment", "A", "1", "Replaced \"today\""])
        let firstID = try #require(Int(first.stdout.trimmingCharacters(in: .newlines)))
        let secondID = try #require(Int(second.stdout.trimmingCharacters(in: .newlines)))
        #expect(secondID > firstID)
        let json = try sandbox.run(["comments", "A", "1", "--format", "json"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(list.map { $0["id"] as? Int } == [firstID, secondID])
        #expect(list.map { $0["text"] as? String } == ["Tile cracked\nby the door", "Replaced \"today\""])
        #expect(list[0]["author"] as? String == "ana" && list[1]["author"] is NSNull)
        #expect((list[0]["createdAt"] as? String)?.hasSuffix("Z") == true)
        let text = try sandbox.run(["comments", "A", "1"]).stdout.split(separator: "\n").map(String.init)
        #expect(text.count == 3)
        #expect(text[0].hasPrefix("\(firstID)  ") && text[0].hasSuffix("  ana: Tile cracked"))
        #expect(text[1] == "    by the door")
        #expect(text[2].hasSuffix("  -: Replaced \"today\""))
        // In the history (action commented) and in markers --comments (json, jsonl, geojson), not without it.
        #expect(try sandbox.run(["history", "A", "1"]).stdout.contains("#1 commented by ana  new {\"comment\":\"Tile cracked\\nby the door\"}"))
        let marker = try sandbox.markers("A", ["--comments"])[0]
        #expect((marker["comments"] as? [[String: Any]])?.map { $0["id"] as? Int } == [firstID, secondID])
        #expect(try sandbox.markers("A")[0]["comments"] == nil)
        let geojson = try sandbox.run(["markers", "A", "--format", "geojson", "--comments"]).stdout
        let features = try #require((try JSONSerialization.jsonObject(with: Data(geojson.utf8)) as? [String: Any])?["features"] as? [[String: Any]])
        #expect(((features[0]["properties"] as? [String: Any])?["comments"] as? [Any])?.count == 2)
    }

    @Test func badCommentsAreOneLineWithTheirCode() throws {
        let sandbox = try StoreSandbox.withDrawing()
        #expect(try sandbox.run(["mark", "A", "50", "50"]).status == 0)
        let before = try sandbox.snapshot()
        let cases: [([String], String, Int32)] = [
            (["comment", "A", "1", "  "], "planmark: comment: is empty\n", 65),
            (["comment", "A", "1", String(repeating: "x", count: 4001)], "planmark: comment: is 4001 characters long; at most 4000\n", 65),
            (["comment", "A", "2", "hi"], "planmark: drawing \"A\": no marker 2\n", 66),
            (["comment", "B", "1", "hi"], "planmark: drawing \"B\": no such drawing\n", 66),
            (["comments", "A", "2"], "planmark: drawing \"A\": no marker 2\n", 66),
            (["comment", "A", "1", "hi", "--as", "cy"], "planmark: user \"cy\": no such user\n", 66),
        ]
        for (arguments, line, status) in cases {
            let result = try sandbox.run(arguments)
            #expect(result.status == status, "\(arguments.prefix(3))")
            #expect(result.stderr == line, "\(arguments.prefix(3))")
            #expect(result.stdout.isEmpty)
        }
        #expect(try sandbox.snapshot() == before)
    }

    /// `history verify` and `history head` against the store as sqlite3 reads it, before and after an edit made with
    /// sqlite3.
    @Test(.enabled(if: sqlite3Present || Poppler.inCI, "sqlite3 is not installed")) func historyVerifyFindsAnEditMadeWithSQL() throws {
        let sandbox = try StoreSandbox.withDrawing()
        for (x, y) in [(50, 50), (60, 60), (70, 70)] { #expect(try sandbox.run(["mark", "A", "\(x)", "\(y)"]).status == 0) }
        #expect(try sandbox.run(["comment", "A", "2", "checked"]).status == 0)
        let verified = try sandbox.run(["history", "verify"])
        #expect(verified.status == 0 && verified.stdout == "history: 4 entries verified\n" && verified.stderr.isEmpty)
        let head = try sandbox.run(["history", "head"])
        let lastHash = try Self.sqlite3(sandbox, "SELECT hash FROM history ORDER BY id DESC LIMIT 1")
        #expect(head.status == 0 && head.stdout == lastHash + "\n")
        let kept = head.stdout.trimmingCharacters(in: .newlines)
        #expect(kept.count == 64)
        #expect(try sandbox.run(["mark", "A", "80", "80"]).status == 0)
        #expect(try sandbox.run(["history", "verify", "--head", kept]).status == 0)
        let unknown = try sandbox.run(["history", "verify", "--head", String(repeating: "0f", count: 32)])
        #expect(unknown.status == 1 && unknown.stderr.hasPrefix("planmark: history verify: the head: no entry has the hash"))
        let usage = try sandbox.run(["history", "verify", "--head", "abc"])
        #expect(usage.status == 64 && usage.stderr.hasPrefix("planmark: "))

        let second = try Self.sqlite3(sandbox, "SELECT id FROM history ORDER BY id LIMIT 1 OFFSET 1")
        _ = try Self.sqlite3(sandbox, "UPDATE history SET at = at + 1 WHERE id = \(second)")
        let broken = try sandbox.run(["history", "verify"])
        #expect(broken.status == 1)
        #expect(broken.stdout == "history: entry \(second) (drawing \"A\", marker 2) does not verify; 1 entries before it verified\n")
        #expect(broken.stderr.hasPrefix("planmark: history verify: entry \(second) (drawing \"A\", marker 2): ") && broken.stderr.split(separator: "\n").count == 1)
        // Any command still works on the store; the chain stays broken where it was.
        #expect(try sandbox.run(["comment", "A", "1", "after"]).status == 0)
        #expect(try sandbox.run(["history", "verify"]).status == 1)
    }

    @Test func theReportListsTheLastComments() throws {
        guard Poppler.missing == nil || popplerPresent() else { return }
        let sandbox = try StoreSandbox.withDrawing()
        #expect(try sandbox.run(["mark", "A", "50", "50"]).status == 0)
        for text in ["first look", "second look", "third look"] { #expect(try sandbox.run(["comment", "A", "1", text, "--author", "ana"]).status == 0) }
        let pdf = sandbox.folder.appendingPathComponent("report.pdf").path
        #expect(try sandbox.run(["report", "A", "-o", pdf, "--comments", "2"]).status == 0)
        let text = try Poppler.text(pdf)
        #expect(text.contains("Comments"))
        #expect(!text.contains("first look") && text.contains("ana: second look") && text.contains("ana: third look"))
        #expect(try sandbox.run(["report", "A", "-o", pdf, "--comments", "0"]).status == 0)
        #expect(!(try Poppler.text(pdf)).contains("look"))
        #expect(try sandbox.run(["report", "A", "-o", pdf, "--comments", "-1"]).status == 64)
    }
}
