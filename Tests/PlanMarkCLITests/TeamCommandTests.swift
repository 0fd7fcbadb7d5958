import Foundation
import PlanMarkTestSupport
import Testing

/// `planmark user ...` and `planmark project ...`: what they print, and one line with the documented exit code for
/// each bad input the team issue names (an unknown role, a duplicate user, a grant to an unknown project, an expiry
/// date in the past, a token for an unknown user).
@Suite struct TeamCommandTests {
    /// A store with drawing A and the users ana (Tiles Ltd) and bo.
    static func sandbox() throws -> StoreSandbox {
        let sandbox = try StoreSandbox.withDrawing()
        for arguments in [["user", "add", "ana", "--email", "ana@example.com", "--company", "Tiles Ltd"], ["user", "add", "bo", "--email", "bo@example.org"]] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        return sandbox
    }

    /// `YYYY-MM-DD` of the day `days` from today (UTC), worked out by Foundation's calendar.
    static func date(days: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let day = calendar.date(byAdding: .day, value: days, to: Date())!
        let parts = calendar.dateComponents([.year, .month, .day], from: day)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    @Test func badInputIsOneLineWithTheDocumentedCode() throws {
        let sandbox = try Self.sandbox()
        let cases: [([String], String, Int32)] = [
            (["project", "grant", "default", "ana", "boss"],
             "planmark: project grant: unknown role \"boss\" (expected admin, manager, inspector, subcontractor, viewer)\n", 64),
            (["user", "add", "ana", "--email", "other@example.com"], "planmark: user \"ana\": a user with this name already exists\n", 1),
            (["project", "grant", "Tower C", "ana", "viewer"], "planmark: project \"Tower C\": no such project\n", 66),
            (["user", "token", "ana", "--expires", Self.date(days: -1)],
             "planmark: --expires: \(Self.date(days: -1)) is in the past (today is \(Self.date(days: 0)))\n", 64),
            (["user", "token", "ana", "--expires", "2027-02-30"], "planmark: --expires: expected a date YYYY-MM-DD, found \"2027-02-30\"\n", 64),
            (["user", "token", "cy"], "planmark: user \"cy\": no such user\n", 66),
            (["user", "add", "cy", "--email", "cy at example.com"], "planmark: user \"cy\": \"cy at example.com\" is not an e-mail address\n", 64),
            (["project", "add", "default"], "planmark: project \"default\": a project with this name already exists\n", 1),
            (["project", "revoke", "default", "ana"], "planmark: project \"default\": user \"ana\" has no role here\n", 66),
            (["user", "revoke", "ana", "7"], "planmark: user \"ana\": no token 7\n", 66),
            (["user", "revoke", "ana"], "planmark: user revoke: give a token's id or --all, not both (see 'planmark user revoke --help')\n", 64),
            (["user", "remove", "cy"], "planmark: user \"cy\": no such user\n", 66),
            (["drawing", "add", try sandbox.png("b.png"), "--name", "B", "--project", "Tower C"], "planmark: project \"Tower C\": no such project\n", 66),
        ]
        let before = try sandbox.snapshot()
        let users = try sandbox.run(["user", "list", "--format", "json"]).stdout
        for (arguments, line, status) in cases {
            let result = try sandbox.run(arguments)
            #expect(result.stderr == line, "\(arguments)")
            #expect(result.status == status, "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments)")
        }
        // Nothing was changed by any of them.
        #expect(try sandbox.snapshot() == before)
        #expect(try sandbox.run(["user", "list", "--format", "json"]).stdout == users)
        #expect(try sandbox.run(["user", "tokens", "ana"]).stdout.isEmpty)
        #expect(try sandbox.run(["project", "list"]).stdout.split(separator: "\n").map { $0.split(separator: "\t")[0] } == ["default"])
    }

    @Test func usersTokensProjectsAndRoles() throws {
        let sandbox = try Self.sandbox()
        let list = try sandbox.run(["user", "list"])
        #expect(list.stdout == "ana\tana@example.com\tTiles Ltd\nbo\tbo@example.org\t-\n")
        let users = try JSONSerialization.jsonObject(with: Data(try sandbox.run(["user", "list", "--format", "json"]).stdout.utf8)) as! [String: Any]
        let first = (users["users"] as! [[String: Any]])[0]
        #expect(first["name"] as? String == "ana" && first["email"] as? String == "ana@example.com" && first["company"] as? String == "Tiles Ltd")
        #expect((first["createdAt"] as? String)?.hasSuffix("Z") == true)

        // A token: one line on stdout, pmk_ and 43 base64url characters; stderr says it is shown once.
        let expires = Self.date(days: 30)
        let made = try sandbox.run(["user", "token", "ana", "--label", "phone", "--expires", expires])
        #expect(made.status == 0, "\(made.stderr)")
        let token = made.stdout.dropLast()
        #expect(made.stdout.hasSuffix("\n") && !token.contains("\n"))
        #expect(token.hasPrefix("pmk_") && token.count == 47)
        #expect(token.dropFirst(4).allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        #expect(made.stderr == "planmark: token 1 of user \"ana\", accepted until \(expires): shown once, the store keeps only its SHA-256\n")
        // The store has its SHA-256 (by the system's sha256sum) and not the token.
        let stored = try Self.sqlite(sandbox.store, "SELECT sha256 FROM token")
        #expect(stored == sha256sum(Array(token.utf8)) + "\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.store)).range(of: Data(token.utf8)) == nil)

        let tokens = try sandbox.run(["user", "tokens", "ana", "--format", "json"])
        let record = ((try JSONSerialization.jsonObject(with: Data(tokens.stdout.utf8)) as! [String: Any])["tokens"] as! [[String: Any]])[0]
        #expect(record["id"] as? Int == 1 && record["label"] as? String == "phone" && record["expires"] as? String == expires)
        #expect(record["lastUsedAt"] is NSNull && record["user"] as? String == "ana")
        #expect(try sandbox.run(["user", "tokens", "ana"]).stdout.hasPrefix("1\tphone\tcreated "))

        #expect(try sandbox.run(["project", "add", "Tower B"]).stdout == "added project \"Tower B\"\n")
        #expect(try sandbox.run(["project", "grant", "Tower B", "ana", "subcontractor"]).stdout == "\"ana\" is subcontractor in project \"Tower B\"\n")
        #expect(try sandbox.run(["project", "grant", "Tower B", "bo", "manager"]).status == 0)
        #expect(try sandbox.run(["project", "members", "Tower B"]).stdout == "ana\tsubcontractor\nbo\tmanager\n")
        #expect(try sandbox.run(["project", "members", "Tower B", "--format", "json"]).stdout
                == #"{"members":[{"project":"Tower B","user":"ana","role":"subcontractor"},{"project":"Tower B","user":"bo","role":"manager"}]}"# + "\n")
        #expect(try sandbox.run(["project", "revoke", "Tower B", "ana"]).stdout == "\"ana\" is no longer subcontractor in project \"Tower B\"\n")

        // A drawing in the project says so, in text and JSON.
        #expect(try sandbox.run(["drawing", "add", try sandbox.png("b.png"), "--name", "B", "--project", "Tower B"]).status == 0)
        #expect(try sandbox.run(["drawing", "show", "B"]).stdout.contains("\nproject: Tower B\n"))
        #expect(try sandbox.run(["drawing", "show", "A", "--format", "json"]).stdout.contains(#""project":"default""#))

        #expect(try sandbox.run(["user", "revoke", "ana", "1"]).stdout == "revoked token 1 of user \"ana\"\n")
        #expect(try sandbox.run(["user", "tokens", "ana"]).stdout.isEmpty)
        #expect(try sandbox.run(["user", "remove", "bo"]).stdout == "removed user \"bo\"\n")
        #expect(try sandbox.run(["project", "members", "Tower B"]).stdout.isEmpty)
    }

    /// `--as USER` (or `$PLANMARK_USER`) records that user as the author of the CLI's changes; an unknown user, or an
    /// `--author` that says someone else, is refused and nothing is stored.
    @Test func asAUserTheirNameIsTheAuthor() throws {
        let sandbox = try Self.sandbox()
        let mark = try sandbox.run(["mark", "A", "150", "100", "--as", "ana"])
        #expect(mark.status == 0 && mark.stdout == "1\n", "\(mark.stderr)")
        let note = try sandbox.run(["note", "A", "1", "checked"], environment: ["PLANMARK_USER": "bo"])
        #expect(note.status == 0, "\(note.stderr)")
        #expect(try sandbox.run(["status", "A", "1", "in-progress", "--as", "ana", "--author", "ana"]).status == 0)
        let history = try sandbox.run(["history", "A", "1", "--format", "jsonl"]).stdout.split(separator: "\n").map {
            (try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["author"] as? String
        }
        #expect(history == ["ana", "bo", "ana"])
        let before = try sandbox.snapshot()
        let unknown = try sandbox.run(["mark", "A", "150", "110", "--as", "cy"])
        #expect(unknown.status == 66 && unknown.stderr == "planmark: user \"cy\": no such user\n")
        let contradicted = try sandbox.run(["mark", "A", "150", "110", "--as", "ana", "--author", "bo"])
        #expect(contradicted.status == 64)
        #expect(contradicted.stderr == "planmark: --author: \"bo\" is not the user \"ana\" of --as or $PLANMARK_USER; give one of them\n")
        #expect(try sandbox.snapshot() == before)
    }

    /// The first column of `sql`'s rows in the SQLite file `path`, one a line, by the sqlite3 shell.
    static func sqlite(_ path: String, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = ["-readonly", path, sql]
        let pipe = ChildProcess.pipe()
        process.standardOutput = pipe
        try ChildProcess.run(process)
        let data = pipe.fileHandleForReading.readBytesToEnd()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
