import Foundation
import PlanMarkTestSupport
import Testing

/// `planmark changes` (issue 26, item 1): the feed as JSON lines (read by Foundation's JSON parser), `--since`, and
/// `--follow` printing a change another process makes (waited for as the line arriving on the pipe).
@Suite struct ChangesCommandTests {
    /// Each line's `kind drawing number`, and its cursor.
    static func lines(_ text: String) throws -> [(change: String, cursor: Int)] {
        try text.split(separator: "\n").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let number = (object["number"] as? Int).map(String.init) ?? "-"
            return ("\(object["kind"] as? String ?? "?") \(object["drawing"] as? String ?? "?") \(number)", object["cursor"] as? Int ?? -1)
        }
    }

    @Test func theFeedAsJSONLines() throws {
        let sandbox = try StoreSandbox.withDrawing()
        for x in ["50", "60", "70"] { #expect(try sandbox.run(["mark", "A", x, "50"]).status == 0) }
        #expect(try sandbox.run(["note", "A", "1", "later"]).status == 0)
        #expect(try sandbox.run(["remove", "A", "2"]).status == 0)
        let all = try sandbox.run(["changes"])
        #expect(all.status == 0, "\(all.stderr)")
        let lines = try Self.lines(all.stdout)
        #expect(lines.map(\.change) == ["drawing-added A -", "upsert A 3", "upsert A 1", "remove A 2"])
        #expect(zip(lines, lines.dropFirst()).allSatisfy { $0.cursor < $1.cursor })
        let after = try sandbox.run(["changes", "--since", String(lines[1].cursor)])
        #expect(try Self.lines(after.stdout).map(\.change) == ["upsert A 1", "remove A 2"])
        #expect(try sandbox.run(["changes", "--since", "-1"]).status == 64)
        #expect(try sandbox.run(["changes", "--drawing", "nope"]).status == 66)
    }

    /// `--follow` prints what another process commits afterwards, without being asked again.
    @Test(.hangGuard) func followPrintsNewChanges() throws {
        let sandbox = try StoreSandbox.withDrawing()
        let process = Process()
        process.executableURL = CLIRunner.binary
        process.arguments = ["changes", "--follow", "--store", sandbox.store]
        let out = ChildProcess.pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try ChildProcess.run(process)
        defer { if process.isRunning { process.terminate() }; process.waitUntilExit() }
        var received = ""
        func waitForLines(_ count: Int) {
            while received.split(separator: "\n").count < count {
                let chunk = out.fileHandleForReading.readAvailableBytes()
                if chunk.isEmpty { return }
                received += String(decoding: chunk, as: UTF8.self)
            }
        }
        waitForLines(1)
        #expect(try Self.lines(received).map(\.change) == ["drawing-added A -"])
        #expect(try sandbox.run(["mark", "A", "50", "50"]).status == 0)
        waitForLines(2)
        #expect(try Self.lines(received).map(\.change) == ["drawing-added A -", "upsert A 1"])
    }
}
