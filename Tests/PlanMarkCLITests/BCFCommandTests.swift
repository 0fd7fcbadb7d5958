import Foundation
import Testing

/// `planmark export NAME --format bcf` and `planmark import NAME FILE.bcf` as a user runs them: results, lines, exit
/// codes, and nothing stored from a file that is refused.
@Suite struct BCFCommandTests {
    /// A sandbox with drawing A and two markers: one with every field and a comment, one plain.
    static func sandboxWithMarkers() throws -> StoreSandbox {
        let sandbox = try StoreSandbox.withDrawing()
        #expect(try sandbox.run(["mark", "A", "100", "80", "--note", "Cracked tile\nby the door", "--category", "Tiling", "--priority", "high",
                                 "--assignee", "Acme", "--due", "2026-12-24", "--author", "ann"]).status == 0)
        #expect(try sandbox.run(["mark", "A", "300", "200", "--author", "ann"]).status == 0)
        #expect(try sandbox.run(["comment", "A", "1", "Grout missing", "--author", "ben"]).status == 0)
        return sandbox
    }

    @Test func anExportImportsIntoAnotherStoreOnceAndOnlyOnce() throws {
        let source = try Self.sandboxWithMarkers()
        for version in ["2.1", "3.0"] {
            let file = source.folder.appendingPathComponent("out-\(version).bcf").path
            let export = try source.run(["export", "A", "--format", "bcf", "--bcf-version", version, "-o", file])
            #expect(export.status == 0, "\(export.stderr)")
            #expect(export.stdout.isEmpty)
            #expect(export.stderr == "planmark: export: wrote 2 topics (BCF \(version)) to \(file)\n")
            let target = try StoreSandbox.withDrawing()
            let first = try target.run(["import", "A", file])
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stdout == "2\n")
            #expect(first.stderr == "planmark: stored markers 1...2 in \"A\" (stored 2, already stored 0), 1 comment\n")
            let fields = ["uuid", "number", "x", "y", "status", "note", "category", "priority", "assignee", "due", "author", "rooms"]
            let before = try source.markers(), after = try target.markers()
            for (a, b) in zip(before, after) {
                for field in fields { #expect("\(a[field] ?? "nil")" == "\(b[field] ?? "nil")", "\(field), BCF \(version)") }
            }
            #expect(after.count == 2)
            #expect(try target.run(["comments", "A", "1"]).stdout.hasSuffix("ben: Grout missing\n"))
            let second = try target.run(["import", "A", file])
            #expect(second.status == 0 && second.stdout == "0\n")
            #expect(second.stderr == "planmark: nothing new stored in \"A\" (stored 0, already stored 2)\n")
        }
    }

    /// Every hostile file: exit 65, one line naming the file, and the store as it was.
    @Test func aRefusedFileIsOneLineExit65AndNothingStored() throws {
        let sandbox = try Self.sandboxWithMarkers()
        let hostile = sandbox.folder.appendingPathComponent("hostile")
        let script = CLIRunner.repositoryRoot.appendingPathComponent("Tests/PlanMarkBCFTests/bcf_oracle.py")
        let made = try CLIRunner.run([script.path, "hostile", hostile.path], executable: URL(fileURLWithPath: "/usr/bin/python3"))
        #expect(made.status == 0, "\(made.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: hostile.path).sorted()
        #expect(files.count == 9)
        let before = try sandbox.snapshot()
        for file in files {
            let path = hostile.appendingPathComponent(file).path
            let result = try sandbox.run(["import", "A", path])
            #expect(result.status == 65, "\(file): \(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("planmark: \(path): ") && result.stderr.filter { $0 == "\n" }.count == 1, "\(result.stderr)")
        }
        #expect(try sandbox.snapshot() == before)
    }

    @Test func usageAndMissingThingsHaveTheirExitCodes() throws {
        let sandbox = try Self.sandboxWithMarkers()
        let out = sandbox.folder.appendingPathComponent("x.bcf").path
        #expect(try sandbox.run(["export", "A", "-o", out]).status == 64)
        #expect(try sandbox.run(["export", "A", "--format", "csv", "-o", out]).status == 64)
        #expect(try sandbox.run(["export", "A", "--format", "bcf", "--bcf-version", "2.0", "-o", out]).status == 64)
        #expect(try sandbox.run(["export", "A", "--format", "bcf", "--base-url", "ftp://x", "-o", out]).status == 64)
        #expect(try sandbox.run(["export", "Nope", "--format", "bcf", "-o", out]).status == 66)
        #expect(try sandbox.run(["export", "A", "--format", "bcf", "-o", sandbox.folder.appendingPathComponent("no/such/x.bcf").path]).status == 73)
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try sandbox.run(["import", "A", sandbox.folder.appendingPathComponent("missing.bcf").path]).status == 66)
    }
}
