import Foundation
import PlanMarkPostgres
import PlanMarkStoreTestSupport
import Testing

/// `planmark import` into a PostgreSQL store whose connection dies in the middle of the COPY: the command ends with
/// exit 74 within the store's bound instead of waiting for ever, and nothing is stored.
@Suite(.enabled(if: TestDatabases.required, "no PostgreSQL test cluster (PLANMARK_TEST_POSTGRES) and not CI"))
struct PostgresOutageCommandTests {
    /// A uuid another transaction holds (uncommitted) in the tests below.
    static let heldUUID = "6f1c1d9e-1b7a-4c53-9a43-2f1e6c1d0a77"

    /// A store on a fresh database with drawings A and B (a marker in B), and a CSV for A of `rows` rows whose first row
    /// has `heldUUID`: a COPY of it waits at the uuid index for `holder`, which has given B's marker that uuid without
    /// committing, so the server stops reading while `planmark import` goes on sending.
    static func blockedImport(rows: Int) throws -> (sandbox: StoreSandbox, url: PostgresURL, store: String, csv: String, holder: HeldSession) {
        let url = try TestDatabases.fresh()
        let store = url.description + "?connect_timeout=2"
        let sandbox = try StoreSandbox()
        let regions = try sandbox.file("regions.geojson", StoreSandbox.regions)
        for name in ["A", "B"] {
            let added = try CLIRunner.run(["drawing", "add", try sandbox.png(), "--name", name, "--regions", regions, "--store", store], in: sandbox.folder)
            #expect(added.status == 0, "\(added.stderr)")
        }
        let one = try CLIRunner.run(["import", "B", try sandbox.file("one.csv", "x,y\n100,100\n"), "--store", store], in: sandbox.folder)
        #expect(one.status == 0, "\(one.stderr)")
        let holder = try HeldSession(url)
        try holder.query("BEGIN")
        try holder.query("UPDATE marker SET uuid = '\(heldUUID)' WHERE drawingId = (SELECT id FROM drawing WHERE name = 'B')")
        var text = "x,y,uuid\n20,20,\(heldUUID)\n"
        text.reserveCapacity(rows * 12)
        for k in 0..<rows { text += "\(20 + k % 300),\(20 + (k / 300) % 260),\n" }
        return (sandbox, url, store, try sandbox.file("many.csv", text), holder)
    }

    /// What `planmark` says on stderr (with `PLANMARK_LOG_LEVEL=debug`) once a COPY write has to wait because the
    /// database stopped reading: its socket and postgres-nio's buffer are full.
    static let copyWaits = "COPY waits for the database to read"

    /// The backend running `planmark`'s COPY: its pid and whether it waits on a lock. `watcher` must not be in a
    /// transaction (which would see one snapshot of pg_stat_activity).
    static func copyBackend(_ watcher: HeldSession) throws -> (pid: String, waitsOnLock: Bool)? {
        let rows = try watcher.query("""
            SELECT pid || ' ' || coalesce(wait_event_type, '-') FROM pg_stat_activity
            WHERE datname = current_database() AND application_name = 'planmark' AND query LIKE 'COPY%'
            """)
        guard rows.count == 1, let row = rows[0] else { return nil }
        let parts = row.split(separator: " ")
        return (String(parts[0]), parts.count == 2 && parts[1] == "Lock")
    }

    @Test(.hangGuard)
    func importExits74WhenItsConnectionIsEndedMidCopy() async throws {
        let (sandbox, url, store, csv, holder) = try Self.blockedImport(rows: 400_000)
        defer { holder.close() }
        let watcher = try HeldSession(url)
        defer { watcher.close() }
        // The store's deadline (60 s without progress, then "did not answer") is longer here than the test's waits
        // for the COPY to block and the socket to fill, which on a loaded machine took more than 60 s: the end under
        // test is the connection's (PostgresOutageTests covers the deadline).
        let process = try BoundedProcess(CLIRunner.binary.path, ["import", "A", csv, "--store", store + "&statement_timeout=3600"],
                                         environment: ["PLANMARK_LOG_LEVEL": "debug"])
        // The COPY's first row waits on the held uuid, so the server stops reading; planmark says when its write has
        // to wait for the socket to drain (where the connection's end used to be lost).
        let waiting = process.waitForError(containing: Self.copyWaits, seconds: 300)
        #expect(waiting, "planmark's COPY never had to wait")
        guard waiting, let copy = try Self.copyBackend(watcher) else {
            let activity = try watcher.query("SELECT application_name || ' ' || state || ' ' || coalesce(wait_event_type, '-') || ' ' || left(query, 40) FROM pg_stat_activity WHERE datname = current_database()")
            Issue.record("\(activity) \(String(describing: process.wait(seconds: 0)))")
            return
        }
        #expect(copy.waitsOnLock, "the COPY's backend does not wait on the held uuid")
        let ended = Date()
        try watcher.query("SELECT pg_terminate_backend(\(copy.pid))::text")
        let result = process.wait(seconds: 2 + 20)
        let elapsed = Date().timeIntervalSince(ended)
        guard let result else {
            Issue.record("planmark import was still running 22 s after its connection was ended (connect_timeout=2)")
            return
        }
        #expect(result.status == 74, "\(result.stderr)")
        // Beside the debug log's lines (each begins with its time), one line says what went wrong.
        let said = result.stderr.split(separator: "\n").filter { $0.first?.isNumber != true }
        #expect(said.first?.hasPrefix("planmark: postgres://") == true, "\(result.stderr)")
        #expect(said.first?.contains("the connection was lost") == true, "\(result.stderr)")
        #expect(said.count == 1, "\(result.stderr)")
        #expect(elapsed < 2 + 20)
        try holder.query("ROLLBACK")
        #expect(try holder.query("SELECT count(*)::text FROM marker m JOIN drawing d ON d.id = m.drawingId WHERE d.name = 'A'") == ["0"])
        _ = sandbox
    }
}
