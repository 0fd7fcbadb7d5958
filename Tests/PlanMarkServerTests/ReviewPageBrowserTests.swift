import Foundation
import PlanMarkTestSupport
import Testing

/// The review page end to end in headless Chromium: `Browser/review_page.py` (Selenium through Debian's
/// chromium-driver) drives the page of a real `planmark serve` on a loopback port over a temporary store,
/// without and with a token, once without Leaflet (the page says what to install), and once signed in as users of a
/// project (an inspector, and a subcontractor who sees only the markers assigned to their company), and once as a phone
/// (390 px wide, touch: the sheet fills the screen, the panel is a drawer). The tools are
/// Debian's `chromium`, `chromium-driver` and `python3-selenium` (Drawings/install-deps.sh installs them):
/// without them the test fails under `CI=true` and is skipped, saying why, anywhere else.
@Suite(.serialized) struct ReviewPageBrowserTests {
    static let python = "/usr/bin/python3"
    static let script = ServerFixture.repositoryRoot.appendingPathComponent("Tests/PlanMarkServerTests/Browser/review_page.py").path

    /// What is missing to drive Chromium, nil when nothing is.
    static let missingTools: String? = {
        var missing: [String] = []
        if !FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") { missing.append("chromium (/usr/bin/chromium)") }
        if !FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver") { missing.append("chromium-driver (/usr/bin/chromedriver)") }
        if (try? ProcessRunner.run(python, ["-c", "import selenium"]))?.status != 0 { missing.append("python3-selenium") }
        return missing.isEmpty ? nil : "missing " + missing.joined(separator: ", ") + " (bash Drawings/install-deps.sh installs them)"
    }()

    static let inCI = ProcessInfo.processInfo.environment["CI"] == "true"

    @Test(.enabled(if: missingTools == nil || inCI, "headless Chromium is not available: \(missingTools ?? "")"),
          .hangGuard, arguments: [Run.plain, .token, .withoutLeaflet, .signedIn, .phone])
    func reviewPageInHeadlessChromium(run mode: Run) async throws {
        if let missing = Self.missingTools {
            Issue.record("CI=true but the browser test cannot run: \(missing)")
            return
        }
        let folder = TestFolder.path("planmark-browser")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("store.sqlite").path
        let planmark = BuiltProducts.path("planmark")
        // Signed in, "plan" is in project Site, where the users have their roles ("flat" stays in "default").
        if mode == .signedIn { try Self.cli(planmark, ["project", "add", "Site", "--store", store]) }
        let added = try ProcessRunner.run(planmark, ["drawing", "add", ServerFixture.samplePlan, "--name", "plan",
                                                     "--regions", ServerFixture.sampleRegions, "--store", store]
                                                    + (mode == .signedIn ? ["--project", "Site"] : []))
        try #require(added.status == 0, "\(added.stderr)")
        // The same sheet in flutter_map's flavour: at zoom 0 its CrsSimple (256 * 2^z) is Leaflet's zoom 8.
        let flutter = try ProcessRunner.run(planmark, ["drawing", "add", ServerFixture.samplePlan, "--name", "flat", "--crs", "flutter",
                                                       "--zoom", "0", "--regions", ServerFixture.sampleRegions, "--store", store])
        try #require(flutter.status == 0, "\(flutter.stderr)")
        let token = mode == .token ? "browser-token-42" : nil
        let server = try await RunningServer(
            executable: planmark, arguments: ["serve", "--store", store, "--port", "0"] + (token.map { ["--token", $0] } ?? [])
                + (mode == .withoutLeaflet ? ["--leaflet-dir", folder.appendingPathComponent("no-leaflet").path] : []))
        defer { server.signal(SIGTERM) }
        var arguments = [Self.script, "--base", "http://127.0.0.1:\(server.port)", "--planmark", planmark, "--store", store,
                         "--flutter-drawing", "flat"]
        if let token { arguments += ["--token", token] }
        if mode == .signedIn { arguments += try Self.team(planmark, store: store) }
        if mode == .phone { arguments.append("--phone") }
        if mode == .withoutLeaflet {
            arguments.append("--without-leaflet")
            #expect(server.stderr.contains("Leaflet not found (install Debian's libjs-leaflet or give --leaflet-dir)"), "\(server.stderr)")
        }
        let run = await Self.runOffThePool(Self.python, arguments)
        #expect(run.status == 0, "\(run.stderr)\nserver:\n\(server.stderr.suffix(4000))")
        #expect(run.stderr.contains("every check held"), "\(run.stderr)")
        _ = await server.stop()
    }

    /// The signed-in run's team and markers, made with the CLI (as the operator): inspector ines and subcontractor sam
    /// of Acme in project Site; on "plan" marker 1 open and 2 in progress assigned to Acme (in two spellings), 3 open
    /// assigned to Tiles Ltd, 4 ready and unassigned. The script's arguments naming the two users and their tokens.
    static func team(_ planmark: String, store: String) throws -> [String] {
        try cli(planmark, ["user", "add", "ines", "--email", "ines@example.com", "--store", store])
        try cli(planmark, ["user", "add", "sam", "--email", "sam@acme.example", "--company", "Acme", "--store", store])
        try cli(planmark, ["project", "grant", "Site", "ines", "inspector", "--store", store])
        try cli(planmark, ["project", "grant", "Site", "sam", "subcontractor", "--store", store])
        for (x, y, assignee, status) in [("1000", "500", "Acme", "open"), ("1375", "1000", "acme", "in-progress"),
                                         ("900", "400", "Tiles Ltd", "open"), ("600", "900", nil, "ready")] {
            try cli(planmark, ["mark", "plan", x, y, "--status", status, "--store", store] + (assignee.map { ["--assignee", $0] } ?? []))
        }
        let ines = try cli(planmark, ["user", "token", "ines", "--store", store])
        let sam = try cli(planmark, ["user", "token", "sam", "--store", store])
        return ["--inspector", "ines:" + ines, "--subcontractor", "sam:" + sam]
    }

    /// Runs the CLI, requiring exit 0; its standard output without the last newline.
    @discardableResult
    static func cli(_ planmark: String, _ arguments: [String]) throws -> String {
        let run = try ProcessRunner.run(planmark, arguments)
        try #require(run.status == 0, "planmark \(arguments.joined(separator: " ")): \(run.stderr)")
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The five runs: no token; with `--token`; with a Leaflet folder that does not exist; users signed in with theirs; a
    /// phone (390 px wide, touch).
    enum Run: String, Sendable, CustomTestStringConvertible {
        case plain, token, withoutLeaflet, signedIn, phone
        var testDescription: String { rawValue }
    }

    /// `ProcessRunner.run` on a Dispatch thread, so the test's wait does not hold a cooperative thread.
    static func runOffThePool(_ path: String, _ arguments: [String]) async -> ProcessRunner.Output {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let output = (try? ProcessRunner.run(path, arguments)) ?? ProcessRunner.Output(status: -1, stdout: "", stderr: "\(path) did not start")
                continuation.resume(returning: output)
            }
        }
    }
}
