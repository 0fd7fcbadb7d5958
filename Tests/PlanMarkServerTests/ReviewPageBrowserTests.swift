import Foundation
import PlanMarkTestSupport
import Testing

/// The review page end to end in headless Chromium: `Browser/review_page.py` (Selenium through Debian's
/// chromium-driver) drives the page of a real `planmark serve` on a loopback port over a temporary store,
/// without and with a token, and once without Leaflet (the page says what to install). The tools are
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
          .hangGuard, arguments: [Run.plain, .token, .withoutLeaflet])
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
        let added = try ProcessRunner.run(planmark, ["drawing", "add", ServerFixture.samplePlan, "--name", "plan",
                                                     "--regions", ServerFixture.sampleRegions, "--store", store])
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
        if mode == .withoutLeaflet {
            arguments.append("--without-leaflet")
            #expect(server.stderr.contains("Leaflet not found (install Debian's libjs-leaflet or give --leaflet-dir)"), "\(server.stderr)")
        }
        let run = await Self.runOffThePool(Self.python, arguments)
        #expect(run.status == 0, "\(run.stderr)\nserver:\n\(server.stderr.suffix(4000))")
        #expect(run.stderr.contains("every check held"), "\(run.stderr)")
        _ = await server.stop()
    }

    /// The three runs: no token; with `--token`; with a Leaflet folder that does not exist.
    enum Run: String, Sendable, CustomTestStringConvertible {
        case plain, token, withoutLeaflet
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
