import Foundation
import PlanMarkFormats
import PlanMarkPostgres
import PlanMarkStore
import PlanMarkStoreTestSupport
import PlanMarkTestSupport
import Testing

/// Changes reach the event streams of every server on one PostgreSQL store (issue 26, item 3): a viewer of one
/// `planmark-server` process sees a marker POSTed through another server and one added by the CLI, in cursor order,
/// each once. The servers learn of each other's commits only through the database (`LISTEN`/`NOTIFY`).
@Suite(.enabled(if: TestDatabases.required, "no PostgreSQL test cluster (PLANMARK_TEST_POSTGRES) and not CI"))
struct MultiServerEventTests {
    @Test(.hangGuard) func aStreamSeesChangesMadeThroughAnotherServerAndTheCLI() async throws {
        let url = try TestDatabases.fresh()
        let store = try await PostgresStore(url: url, create: true)
        let regions = try RegionsFile.read(path: ServerFixture.sampleRegions)
        _ = try await store.addDrawing(NewDrawing(name: "plan", imagePath: ServerFixture.samplePlan), regions: regions)
        var servers: [RunningServer] = []
        for _ in 0..<2 {
            servers.append(try await RunningServer(executable: BuiltProducts.path("planmark-server"),
                                                   arguments: ["--store", url.description, "--port", "0"]))
        }
        defer { for server in servers { server.signal(SIGTERM) } }
        let reader = try EventStreamTests.EventReader(port: servers[0].port, path: "/drawings/plan/events")
        #expect(try await reader.wait { _ in reader.text.contains("retry:") })
        let posted = try await EventStreamTests.post(servers[1].port, x: 450)
        #expect(try await reader.wait { $0.contains { $0.kind == "upsert" && $0.data.contains("\"number\":\(posted),") } },
                "\(reader.text)\n\(servers[0].stderr.suffix(2000))")
        let cli = try ProcessRunner.run(BuiltProducts.path("planmark"), ["mark", "plan", "500", "400", "--store", url.description])
        #expect(cli.status == 0, "\(cli.stderr)")
        let added = Int(cli.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        #expect(try await reader.wait { $0.contains { $0.kind == "upsert" && $0.data.contains("\"number\":\(added),") } }, "\(reader.text)")
        let ids = reader.events.map(\.id)
        #expect(ids == ids.sorted() && Set(ids).count == ids.count && reader.events.filter { $0.kind == "upsert" }.count == 2)
    }
}
