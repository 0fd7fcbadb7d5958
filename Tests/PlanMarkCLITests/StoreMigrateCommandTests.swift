import Foundation
import PlanMarkSQLite
import PlanMarkStore
import PlanMarkTestSupport
import PlanMarkStoreTestSupport
import Testing

/// `planmark store migrate`: whole stores copied SQLite -> SQLite, SQLite -> PostgreSQL -> SQLite, byte for byte.
@Suite struct StoreMigrateCommandTests {
    /// The tables `store migrate` copies, each as `sqlite3 -json` prints it in key order (blobs as hex).
    static let tableQueries = [
        "SELECT * FROM drawing ORDER BY id",
        "SELECT sha256, hex(bytes) AS bytes FROM image ORDER BY sha256",
        "SELECT sha256, hex(bytes) AS bytes FROM attachmentBlob ORDER BY sha256",
        "SELECT * FROM region ORDER BY drawingId, regionId",
        "SELECT * FROM revision ORDER BY drawingId, number",
        "SELECT * FROM marker ORDER BY drawingId, number",
        "SELECT * FROM history ORDER BY id",
        "SELECT * FROM project ORDER BY id",
        "SELECT * FROM account ORDER BY id",
        "SELECT * FROM member ORDER BY projectId, accountId",
        "SELECT * FROM token ORDER BY id",
        "SELECT * FROM attachment ORDER BY id",
        "SELECT name, seq FROM sqlite_sequence ORDER BY name",
    ]

    /// Every copied table of the SQLite store at `path`, as `sqlite3 -json` prints it.
    static func dump(_ path: String) throws -> String {
        var text = ""
        for query in tableQueries {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            process.arguments = ["-json", "-readonly", path, query]
            let pipe = ChildProcess.pipe()
            process.standardOutput = pipe
            try ChildProcess.run(process)
            let data = pipe.fileHandleForReading.readBytesToEnd()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "sqlite3 \(query)")
            text += query + "\n" + String(decoding: data, as: UTF8.self) + "\n"
        }
        return text
    }

    /// What the CLI shows of a store: drawings, markers, history, attachments (with their bytes' digests), regions.
    static func exports(_ store: String, in folder: URL) throws -> String {
        var text = ""
        func run(_ arguments: [String]) throws {
            let result = try CLIRunner.run(arguments + ["--store", store], in: folder)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            text += arguments.joined(separator: " ") + "\n" + result.stdout + "\n"
        }
        try run(["drawing", "list", "--format", "json"])
        try run(["drawing", "show", "A", "--format", "json"])
        try run(["drawing", "show", "B", "--format", "json"])
        try run(["markers", "A", "--format", "json"])
        try run(["history", "A", "--format", "jsonl"])
        try run(["attachments", "A", "1"])
        try run(["regions", "export", "A"])
        try run(["user", "list", "--format", "json"])
        try run(["user", "tokens", "ana", "--format", "json"])
        try run(["project", "list", "--format", "json"])
        try run(["project", "members", "Tower B", "--format", "json"])
        return text
    }

    /// A store with everything a drawing can have: regions, markers (one moved, one with a status change, one with
    /// an attachment), a calibration and a second revision; and a second drawing, revised to a page of a PDF.
    static func richStore() async throws -> StoreSandbox {
        let sandbox = try StoreSandbox.withDrawing()
        func ok(_ arguments: [String]) throws {
            let result = try sandbox.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        try ok(["mark", "A", "150", "100", "--note", "crack"])
        try ok(["mark", "A", "250", "120"])
        try ok(["mark", "A", "300", "200", "--note", "to remove"])
        try ok(["move", "A", "1", "160", "110"])
        try ok(["status", "A", "2", "in-progress", "--reason", "checked on site"])
        try ok(["remove", "A", "3"])
        try ok(["attach", "A", "1", try sandbox.png("photo.png", width: 20, height: 10), "--caption", "north wall"])
        try ok(["drawing", "calibrate", "A", "--from", "10,10", "--to", "390,10", "--distance", "3.8"])
        try ok(["drawing", "revise", "A", try sandbox.png("plan-b.png", width: 800, height: 600), "--align", "0,0=0,0;400,300=800,600"])
        // The team: users with tokens (the first revoked), a project with roles, drawing B in it.
        try ok(["user", "add", "ana", "--email", "ana@example.com", "--company", "Tiles Ltd"])
        try ok(["user", "add", "bo", "--email", "bo@example.org"])
        try ok(["user", "token", "ana", "--label", "old phone"])
        try ok(["user", "token", "ana", "--label", "phone", "--expires", "2999-12-31"])
        try ok(["user", "revoke", "ana", "1"])
        try ok(["project", "add", "Tower B"])
        try ok(["project", "grant", "Tower B", "ana", "subcontractor"])
        try ok(["project", "grant", "Tower B", "bo", "manager"])
        try ok(["project", "grant", "default", "bo", "viewer"])
        try ok(["drawing", "add", try sandbox.png("other.png", width: 200, height: 100), "--name", "B", "--project", "Tower B"])
        try ok(["mark", "B", "50", "50"])
        // B's revision 2 is page 1 of a PDF at 18 dpi (A4: 595 * 18 / 72 = 148.75 -> 149, 842 * 18 / 72 = 210.5 -> 211),
        // through the store (the CLI takes PDFs with the PDF renderer): its bytes, page and dpi are copied too.
        let pdf = sandbox.folder.appendingPathComponent("b.pdf")
        try Data("%PDF-1.4\n%%EOF\n".utf8).write(to: pdf)
        let store = try SQLiteStore(path: sandbox.store, create: false)
        _ = try await store.reviseDrawing("B", NewRevision(imagePath: pdf.path, pdf: PDFPageImage(page: 1, dpi: 18, width: 149, height: 211)),
                                          dryRun: false, author: nil)
        return sandbox
    }

    @Test func sqliteToSQLiteCopiesEveryTableExactly() async throws {
        let sandbox = try await Self.richStore()
        let copy = sandbox.folder.appendingPathComponent("copy.sqlite").path
        let result = try CLIRunner.run(["store", "migrate", "--from", sandbox.store, "--to", copy], in: sandbox.folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("copied \(sandbox.store) to \(copy): 2 project, 2 account, 2 drawing, "))
        #expect(try Self.dump(copy) == (try Self.dump(sandbox.store)))
        #expect(try Self.exports(copy, in: sandbox.folder) == (try Self.exports(sandbox.store, in: sandbox.folder)))
        // No temporary file is left beside the new store.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).filter { $0.contains(".migrating-") }
        #expect(leftovers.isEmpty)
        // The copy goes on numbering where the original stopped (3 was removed: the next is 4).
        let next = try CLIRunner.run(["mark", "A", "300", "300", "--store", copy], in: sandbox.folder)
        #expect(next.stdout == "4\n", "\(next.stderr)")
    }

    @Test func refusesADestinationWithDrawingsAndLeavesItUnchanged() async throws {
        let source = try await Self.richStore()
        let destination = try StoreSandbox.withDrawing()
        let before = try Self.dump(destination.store)
        let result = try CLIRunner.run(["store", "migrate", "--from", source.store, "--to", destination.store], in: source.folder)
        #expect(result.status == 1)
        #expect(result.stderr == "planmark: \(destination.store): the destination has 1 drawing; migrate only into an empty store\n")
        #expect(try Self.dump(destination.store) == before)
    }

    @Test func missingSourceIs66AndNothingIsCreated() async throws {
        let folder = try CLIRunner.temporaryFolder()
        let missing = folder.appendingPathComponent("none.sqlite").path
        let target = folder.appendingPathComponent("new.sqlite").path
        let result = try CLIRunner.run(["store", "migrate", "--from", missing, "--to", target], in: folder)
        #expect(result.status == 66)
        #expect(result.stderr == "planmark: \(missing): no such store (create one with 'planmark drawing add')\n")
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test func badURLIsAUsageErrorNamingThePartWithoutThePassword() async throws {
        let folder = try CLIRunner.temporaryFolder()
        let result = try CLIRunner.run(["store", "migrate", "--from", "postgres://u:Secret%41pw@127.0.0.1:99999/db", "--to", "x.sqlite"], in: folder)
        #expect(result.status == 64)
        #expect(result.stderr == "planmark: --from: the port \"99999\" is not a number in 1...65535\n")
        let list = try CLIRunner.run(["drawing", "list", "--store", "postgresql://u:SecretApw@/db?sslmode=sometimes"], in: folder)
        #expect(list.status == 64)
        #expect(list.stderr.hasPrefix("planmark: --store: sslmode: "))
        #expect(!list.stderr.contains("Secret"))
        let fromEnvironment = try CLIRunner.run(["drawing", "list"], in: folder, environment: ["PLANMARK_STORE": "postgres://u:SecretApw@h:0/db"])
        #expect(fromEnvironment.status == 64)
        #expect(fromEnvironment.stderr.hasPrefix("planmark: $PLANMARK_STORE: the port"))
        #expect(!fromEnvironment.stderr.contains("Secret"))
    }

    @Test func unreachableDatabaseIs74AndThePasswordIsNeverPrinted() async throws {
        let folder = try CLIRunner.temporaryFolder()
        // Port 1 on loopback: nothing listens there, the connection is refused.
        let url = "postgres://planmark:Hunter2Secret@127.0.0.1:1/planmark"
        for arguments in [["drawing", "list", "--store", url], ["markers", "A", "--store", url],
                          ["store", "migrate", "--from", url, "--to", "copy.sqlite"]] {
            let result = try CLIRunner.run(arguments, in: folder)
            #expect(result.status == 74, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("planmark: postgres://planmark@127.0.0.1:1/planmark: "), "\(result.stderr)")
            #expect(!result.stderr.contains("Hunter2"), "\(result.stderr)")
            #expect(!result.stdout.contains("Hunter2"))
        }
        let help = try CLIRunner.run(["drawing", "list", "--help", "--store", url], in: folder)
        #expect(!help.stdout.contains("Hunter2") && !help.stderr.contains("Hunter2"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("copy.sqlite").path))
    }
}

/// The same through PostgreSQL: SQLite -> PostgreSQL -> SQLite gives back the same store.
@Suite(.enabled(if: TestDatabases.required, "no PostgreSQL test cluster (PLANMARK_TEST_POSTGRES) and not CI"))
struct StoreMigratePostgresTests {
    @Test func sqliteToPostgresAndBackIsExact() async throws {
        let sandbox = try await StoreMigrateCommandTests.richStore()
        let database = try TestDatabases.fresh().description
        let there = try CLIRunner.run(["store", "migrate", "--from", sandbox.store, "--to", database], in: sandbox.folder)
        #expect(there.status == 0, "\(there.stderr)")
        // The PostgreSQL store shows what the SQLite one does.
        #expect(try StoreMigrateCommandTests.exports(database, in: sandbox.folder)
                == (try StoreMigrateCommandTests.exports(sandbox.store, in: sandbox.folder)).replacingOccurrences(of: sandbox.store, with: database))
        let back = sandbox.folder.appendingPathComponent("back.sqlite").path
        let again = try CLIRunner.run(["store", "migrate", "--from", database, "--to", back], in: sandbox.folder)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try StoreMigrateCommandTests.dump(back) == (try StoreMigrateCommandTests.dump(sandbox.store)))
        // B's PDF page came back, on the drawing and on its revision 2 (sqlite3 -json's rows).
        let dump = try StoreMigrateCommandTests.dump(back)
        #expect(dump.components(separatedBy: "\"pdfPage\":1,\"pdfDPI\":18}").count == 3)
        // The identity sequences were set past the copied ids: a new drawing gets id 3, the next marker of A 4.
        let add = try CLIRunner.run(["drawing", "add", try sandbox.png("c.png"), "--name", "C", "--store", database], in: sandbox.folder)
        #expect(add.status == 0, "\(add.stderr)")
        let next = try CLIRunner.run(["mark", "A", "300", "300", "--store", database], in: sandbox.folder)
        #expect(next.stdout == "4\n", "\(next.stderr)")
    }

    @Test func refusesAPostgresDestinationWithDrawings() async throws {
        let source = try await StoreMigrateCommandTests.richStore()
        let database = try TestDatabases.fresh().description
        let add = try CLIRunner.run(["drawing", "add", try source.png("c.png"), "--name", "C", "--store", database], in: source.folder)
        #expect(add.status == 0, "\(add.stderr)")
        let before = try CLIRunner.run(["drawing", "list", "--format", "json", "--store", database], in: source.folder)
        let result = try CLIRunner.run(["store", "migrate", "--from", source.store, "--to", database], in: source.folder)
        #expect(result.status == 1)
        #expect(result.stderr == "planmark: \(database): the destination has 1 drawing; migrate only into an empty store\n")
        let after = try CLIRunner.run(["drawing", "list", "--format", "json", "--store", database], in: source.folder)
        #expect(after.stdout == before.stdout && after.status == 0)
    }
}
