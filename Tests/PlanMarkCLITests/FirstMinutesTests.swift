import Foundation
import PlanMarkTestSupport
import Testing

/// A new user's first minutes, run as they are written: `Drawings/demo.sh` with the binaries this build made
/// (`PLANMARK_DEMO_BIN`: nothing installed or built, so the demo's own `swift build` lines are not run here; the
/// documentation tests check what they build and the estimate printed before them), then every `planmark` line
/// of the README's shell blocks against the store the demo made.
@Suite struct FirstMinutesTests {
    /// What one run of the demo left: its output, its wall time as measured here, and its folder.
    struct DemoRun: Sendable {
        var output: CLIRunner.Output
        var seconds: Double
        /// The folder the README's lines run in: `demo-out/` (the demo's output) and `Drawings` (a link to the
        /// repository's), nothing else, so `$PWD/.build-demo/debug` in the README's PATH names nothing here and
        /// `planmark` is the binary under test.
        var folder: URL
        /// The folder of the `planmark` under test.
        var bin: URL
    }

    /// The demo, run once for the suite (about a minute in a debug build).
    static let demo: Result<DemoRun, any Error> = Result {
        let bin = CLIRunner.binary.deletingLastPathComponent()
        let folder = try CLIRunner.temporaryFolder()
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("Drawings"),
                                                   withDestinationURL: CLIRunner.repositoryRoot.appendingPathComponent("Drawings"))
        let started = Date()
        let output = try CLIRunner.run(
            [CLIRunner.repositoryRoot.appendingPathComponent("Drawings/demo.sh").path], in: folder,
            environment: ["PLANMARK_DEMO_BIN": bin.path, "PLANMARK_DEMO_OUT": folder.appendingPathComponent("demo-out").path],
            executable: URL(fileURLWithPath: "/bin/bash"))
        return DemoRun(output: output, seconds: Date().timeIntervalSince(started), folder: folder, bin: bin)
    }

    /// planmark serve runs planmark-server from the same folder: the demo needs both.
    static let serverBuilt = FileManager.default.isExecutableFile(
        atPath: CLIRunner.binary.deletingLastPathComponent().appendingPathComponent("planmark-server").path)

    /// The demo's first line on stderr says what it runs and about how long; its last, `demo done in N s`, with N
    /// at most the wall time this test measured around it.
    @Test(.enabled(if: serverBuilt, "planmark-server is not built (swift build --build-tests builds it)"))
    func demoSaysItsTime() async throws {
        let run = try Self.demo.get()
        try #require(run.output.status == 0, "demo.sh: \(run.output.stderr)")
        let lines = run.output.stderr.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        #expect(lines.first == "demo: runs the planmark, planmark-pdf and planmark-server in \(run.bin.path) (nothing to build): about a minute")
        let last = try #require(lines.last)
        #expect(last.hasPrefix("demo done in ") && last.hasSuffix(" s"), "\(last)")
        let seconds = try #require(Int(last.dropFirst("demo done in ".count).dropLast(2)), "\(last)")
        #expect(seconds >= 0 && Double(seconds) <= run.seconds + 1, "demo said \(seconds) s, measured \(run.seconds) s")
        // The report says what it wrote, and the PDF is there.
        #expect(lines.contains { $0.hasPrefix("planmark: report: wrote ") && $0.hasSuffix(" to \(run.folder.path)/demo-out/punch-list.pdf") })
        #expect(FileManager.default.fileExists(atPath: run.folder.appendingPathComponent("demo-out/punch-list.pdf").path))
        // The punch list as a BCF file: a topic for each of the 18 markers.
        #expect(lines.contains("planmark: export: wrote 18 topics (BCF 2.1) to \(run.folder.path)/demo-out/level2.bcf"), "\(lines)")
        // The same plan as a PDF: a drawing of the PNG's size at 150 dpi, whose imported markers are the PNG drawing's
        // (the demo diffs them and stops on a difference).
        #expect(run.output.stdout.contains("added drawing \"Level 2 (PDF)\" (2400x1600 px, pdf page 1 at 150 dpi, zoom 8.0, leaflet, 9 regions)\n"))
        #expect(lines.contains("markers 1 to 17: the same positions and rooms on the PNG drawing and on the PDF drawing"))
        // Its pyramid was drawn from the page, keyed by the PDF's SHA-256 (sha256sum's), the page and the dpi, where a
        // server on the store looks (STORE.tiles), with the PDF beside it for the deeper tiles.
        let pdf = try Data(contentsOf: CLIRunner.repositoryRoot.appendingPathComponent("Drawings/sample/plan.pdf"))
        let key = sha256sum([UInt8](pdf)) + "-p1-150"
        let tiles = run.folder.appendingPathComponent("demo-out/planmark.sqlite.tiles")
        #expect(lines.contains { $0.hasPrefix("planmark: tiles: wrote ") && $0.hasSuffix(" to \(tiles.path)/\(key)") }, "\(lines)")
        #expect(FileManager.default.fileExists(atPath: tiles.appendingPathComponent(key).path))
    }

    /// Every `planmark` line of README.md's shell blocks (`planmark serve` aside: it runs until stopped), in order,
    /// on a copy of the demo's store, each in a shell with the `export` lines above it: each exits 0, or the
    /// status its comment gives (`exit 1: ...`).
    @Test(.enabled(if: serverBuilt, "planmark-server is not built (swift build --build-tests builds it)"))
    func readmeCommandsRunOnTheDemoStore() async throws {
        let run = try Self.demo.get()
        try #require(run.output.status == 0, "demo.sh: \(run.output.stderr)")
        let readme = try String(contentsOf: CLIRunner.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let commands = ReadmeShell.commands(in: readme)
        // The tour (8), the team (9): a scanner that finds fewer is broken.
        #expect(commands.filter { $0.command.hasPrefix("planmark ") }.count >= 17, "\(commands.map(\.command))")
        #expect(commands.first?.exports.contains { $0.contains("PLANMARK_STORE=demo-out/planmark.sqlite") } == true)
        // A copy of the demo's folder, so that the README's writes (mark, status, user add...) change only it.
        let folder = try CLIRunner.temporaryFolder()
        try FileManager.default.copyItem(at: run.folder.appendingPathComponent("demo-out"), to: folder.appendingPathComponent("demo-out"))
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("Drawings"),
                                                   withDestinationURL: CLIRunner.repositoryRoot.appendingPathComponent("Drawings"))
        let path = run.bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        for example in commands {
            let script = (example.exports + [example.command]).joined(separator: "\n")
            let result = try CLIRunner.run(["-c", script], in: folder, environment: ["PATH": path, "PLANMARK_STORE": ""],
                                           executable: URL(fileURLWithPath: "/bin/bash"))
            #expect(result.status == example.status, "README.md:\(example.line): \(example.command)\n\(result.stderr)")
            // The count the README's comment gives is the one `history verify` says at that point.
            if example.command.hasPrefix("planmark history verify") {
                let said = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                #expect(said.hasPrefix("history: ") && example.command.contains("# " + said), "README.md:\(example.line): says \(said)")
            }
        }
    }

    /// The drawings the README's HTTP examples address (`/drawings/NAME`, `#/NAME`) are in the demo's store.
    @Test(.enabled(if: serverBuilt, "planmark-server is not built (swift build --build-tests builds it)"))
    func readmeAddressesTheDemoDrawings() async throws {
        let run = try Self.demo.get()
        try #require(run.output.status == 0, "demo.sh: \(run.output.stderr)")
        // On a copy: opening the demo's own store makes and removes its -wal file, which another test may be copying.
        let folder = try CLIRunner.temporaryFolder()
        try FileManager.default.copyItem(at: run.folder.appendingPathComponent("demo-out/planmark.sqlite"), to: folder.appendingPathComponent("planmark.sqlite"))
        let listed = try CLIRunner.run(["drawing", "list", "--store", folder.appendingPathComponent("planmark.sqlite").path])
        try #require(listed.status == 0, "\(listed.stderr)")
        let stored = Set(listed.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) })
        // The sample as a PNG and, the same plan, as a PDF (Drawings/sample/plan.pdf).
        #expect(stored == ["Level 2", "Level 2 (PDF)"])
        let readme = try String(contentsOf: CLIRunner.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let named = ReadmeShell.drawingsAddressed(in: readme)
        #expect(named.count >= 7, "found \(named.count) addresses: the scanner is broken")
        for (line, name) in named {
            #expect(stored.contains(name), "README.md:\(line): no drawing \"\(name)\" in the demo's store")
        }
    }
}

/// What the README's shell blocks (```sh ... ```) hold: `planmark` lines and the drawings its addresses name.
enum ReadmeShell {
    /// A `planmark` line: where it is, the `export` lines before it (in this block or an earlier one: a user runs
    /// them in one terminal), the line with its continuations joined, and the exit status its comment promises.
    struct Command {
        var line: Int
        var exports: [String]
        var command: String
        var status: Int32
    }

    /// The lines of the shell blocks, continuations (`\` at the end) joined, each with its first line's number.
    /// - Complexity: O(length of the text).
    static func shellLines(in text: String) -> [(line: Int, text: String)] {
        var found: [(line: Int, text: String)] = []
        var inBlock = false
        var pending: (Int, String)?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw)
            if line.hasPrefix("```") {
                inBlock = !inBlock && line.hasPrefix("```sh")
                continue
            }
            guard inBlock else { continue }
            var joined = pending.map { ($0.0, $0.1 + " " + line.trimmingCharacters(in: .whitespaces)) } ?? (index + 1, line)
            if joined.1.hasSuffix("\\") {
                joined.1.removeLast()
                pending = joined
            } else {
                pending = nil
                found.append((line: joined.0, text: joined.1))
            }
        }
        return found
    }

    /// The `planmark` lines of the shell blocks, but `planmark serve`.
    /// - Complexity: O(length of the text + commands x exports).
    static func commands(in text: String) -> [Command] {
        var exports: [String] = []
        var commands: [Command] = []
        for (line, shell) in shellLines(in: text) {
            let trimmed = shell.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("export ") { exports.append(trimmed) }
            guard trimmed.hasPrefix("planmark "), !trimmed.hasPrefix("planmark serve") else { continue }
            commands.append(Command(line: line, exports: exports, command: trimmed, status: promisedStatus(trimmed)))
        }
        return commands
    }

    /// `exit N:` in the line's comment, else 0.
    static func promisedStatus(_ line: String) -> Int32 {
        guard let hash = line.range(of: " # "), let exit = line[hash.upperBound...].range(of: "exit ") else { return 0 }
        let digits = line[exit.upperBound...].prefix { $0.isNumber }
        guard line[exit.upperBound...].dropFirst(digits.count).hasPrefix(":") else { return 0 }
        return Int32(digits) ?? 0
    }

    /// Every drawing an address in the shell blocks names (`/drawings/NAME`, `#/NAME`), percent-decoded.
    /// - Complexity: O(length of the text).
    static func drawingsAddressed(in text: String) -> [(line: Int, name: String)] {
        var named: [(line: Int, name: String)] = []
        for (line, shell) in shellLines(in: text) {
            for marker in ["/drawings/", "#/"] {
                var rest = Substring(shell)
                while let found = rest.range(of: marker) {
                    let name = rest[found.upperBound...].prefix { !"/?'\" #".contains($0) }
                    rest = rest[found.upperBound...]
                    // `/drawings` alone (the list) names none.
                    if !name.isEmpty { named.append((line: line, name: name.removingPercentEncoding ?? String(name))) }
                }
            }
        }
        return named
    }
}
