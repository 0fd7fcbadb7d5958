import Foundation
import PlanMarkTestSupport
import PlanMarkStoreTestSupport
import Testing

/// A test run without a PostgreSQL cluster says so in its last line, and under CI=true it fails: this test bundle is
/// run again (the same executable, one PostgreSQL suite) with the cluster's variable removed.
@Suite struct PostgresSkipNoticeTests {
    /// The test bundle run on `PostgresStoreOpenTests` with `environment` (PLANMARK_TEST_POSTGRES and CI removed
    /// first): its exit status and its stdout's lines.
    static func runPostgresSuite(adding environment: [String: String]) throws -> (status: Int32, lines: [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--testing-library", "swift-testing", "--filter", "PostgresStoreOpenTests"]
        var env = ProcessInfo.processInfo.environment
        env["PLANMARK_TEST_POSTGRES"] = nil
        env["CI"] = nil
        env.merge(environment) { $1 }
        process.environment = env
        let output = ChildProcess.pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try ChildProcess.run(process)
        let data = output.fileHandleForReading.readBytesToEnd()
        process.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        return (process.terminationStatus, lines)
    }

    /// Without a cluster and without CI: the run passes (the suites are skipped) and its last line is the notice.
    @Test func aRunWithoutPostgreSQLEndsWithOneLineSayingSo() async throws {
        let run = try Self.runPostgresSuite(adding: [:])
        #expect(run.status == 0, "\(run.lines.suffix(5))")
        #expect(run.lines.last == TestDatabases.untestedNotice, "\(run.lines.suffix(5))")
        #expect(run.lines.filter { $0 == TestDatabases.untestedNotice }.count == 1)
        #expect(run.lines.last?.hasPrefix("PostgreSQL back end NOT tested") == true)
    }

    /// Under CI=true without a cluster: the PostgreSQL tests run, fail, and so does the run; no notice (it failed).
    @Test func underCIAMissingClusterFailsTheRun() async throws {
        let run = try Self.runPostgresSuite(adding: ["CI": "true"])
        #expect(run.status != 0, "\(run.lines.suffix(5))")
        #expect(!run.lines.contains(TestDatabases.untestedNotice))
    }
}
