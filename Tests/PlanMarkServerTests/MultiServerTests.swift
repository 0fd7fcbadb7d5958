import Foundation
import PlanMarkFormats
import PlanMarkPostgres
import PlanMarkStore
import PlanMarkStoreTestSupport
import PlanMarkTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Several `planmark-server` processes on one PostgreSQL database, as a company behind a load balancer runs them:
/// 16 clients spread over 3 servers post 3000 markers while the CLI imports 10,000 into the same drawing. Numbers
/// must come out unique and contiguous (1...13000), nothing lost, every marker with its history entry. Then the same
/// with one server killed (SIGKILL) in the middle: the others go on, and every marker a server acknowledged is stored.
@Suite(.enabled(if: TestDatabases.required, "no PostgreSQL test cluster (PLANMARK_TEST_POSTGRES) and not CI"), .serialized)
struct MultiServerTests {
    static let servers = 3
    static let clients = 16
    static let posts = 3000
    static let imported = 10_000
    /// Points inside rooms and the allowed area of the sample sheet (Drawings/sample/expected-validate.jsonl: valid).
    static let points: [(Double, Double)] = [(450, 400), (900.5, 300.25), (1300, 500), (1400, 400)]

    /// A fresh database holding the sample drawing `plan`, and a CSV of `imported` rows for it.
    static func setUp() async throws -> (url: PostgresURL, store: PostgresStore, csv: String, folder: URL) {
        let url = try TestDatabases.fresh()
        let store = try await PostgresStore(url: url, create: true)
        let regions = try RegionsFile.read(path: ServerFixture.sampleRegions)
        _ = try await store.addDrawing(NewDrawing(name: "plan", imagePath: ServerFixture.samplePlan), regions: regions)
        let folder = TestFolder.path("planmark-multi")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var csv = "x,y,note\n"
        for row in 0..<imported {
            let (x, y) = points[row % points.count]
            csv += "\(x),\(y),imported \(row)\n"
        }
        let path = folder.appendingPathComponent("import.csv").path
        try csv.write(toFile: path, atomically: true, encoding: .utf8)
        return (url, store, path, folder)
    }

    /// `servers` `planmark-server` processes on the database `url`, each listening on its own loopback port.
    static func startServers(_ url: PostgresURL) async throws -> [RunningServer] {
        var running: [RunningServer] = []
        for _ in 0..<servers {
            running.append(try await RunningServer(executable: BuiltProducts.path("planmark-server"),
                                                   arguments: ["--store", url.description, "--port", "0"]))
        }
        return running
    }

    /// What the servers acknowledged: uuid -> number.
    final class Acknowledged: @unchecked Sendable {
        private let lock = NSLock()
        private var numbers: [String: Int] = [:]
        private var failures: [String] = []
        /// Records an acknowledgement; returns how many there are now.
        func add(uuid: String, number: Int) -> Int { lock.withLock { numbers[uuid] = number; return numbers.count } }
        func fail(_ text: String) { lock.withLock { failures.append(text) } }
        var all: [String: Int] { lock.withLock { numbers } }
        var problems: [String] { lock.withLock { failures } }
    }

    /// Posts marker `index` (with its own uuid) to `port`; the number the server gave, or nil when the connection failed
    /// (the server is gone). Any other answer than 201/200 is recorded as a failure.
    static func post(index: Int, uuid: String, port: Int, acknowledged: Acknowledged) async -> Int? {
        let (x, y) = points[index % points.count]
        let body = #"{"x":\#(x),"y":\#(y),"note":"posted \#(index)","uuid":"\#(uuid)"}"#
        do {
            let connection = try RawHTTPConnection(port: port)
            try connection.send("POST /drawings/plan/markers HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
                                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
            let answer = try await connection.readAnswer()
            guard answer.status == 201 || answer.status == 200,
                  let object = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any],
                  let number = object["number"] as? Int else {
                if answer.status == 503 { return nil }
                acknowledged.fail("marker \(index) on port \(port): \(answer.status) \(answer.text)")
                return -1
            }
            return number
        } catch {
            return nil
        }
    }

    /// Runs the CLI import of `csv` into `url` on a Dispatch thread.
    static func importCSV(_ csv: String, url: PostgresURL) async throws -> ProcessRunner.Output {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result {
                    try ProcessRunner.run(BuiltProducts.path("planmark"), ["import", "plan", csv, "--store", url.description])
                })
            }
        }
    }

    /// Checks the store after a run: numbers 1...count, the acknowledged markers stored as acknowledged, one `created`
    /// history entry (or import range) per marker.
    static func check(_ store: PostgresStore, acknowledged: [String: Int], expectedCount: Int?) async throws {
        var numbers: [Int] = []
        var uuids: [Int: String] = [:]
        try await store.forEachMarker(in: "plan", filter: MarkerFilter()) { marker in
            numbers.append(marker.number)
            uuids[marker.number] = marker.uuid.text
            return true
        }
        if let expectedCount { #expect(numbers.count == expectedCount) }
        #expect(numbers == Array(1...max(1, numbers.count)), "numbers are not 1...\(numbers.count)")
        #expect(try await store.drawingRecord(named: "plan").nextNumber == numbers.count + 1)
        for (uuid, number) in acknowledged {
            #expect(uuids[number] == uuid, "acknowledged marker \(uuid) as number \(number) is not stored as such")
        }
        // Every stored number has exactly one `created` history entry (single, or inside an import's range).
        let covered = try await store.texts("SELECT CAST(coalesce(sum(coalesce(lastNumber, number) - number + 1), 0) AS bigint) FROM history WHERE action = 'created'")
        #expect(covered.first.flatMap { $0 }.flatMap { Int($0) } == numbers.count)
    }

    @Test(.hangGuard)
    func threeServersSixteenClientsAndAnImportGiveEveryNumberOnce() async throws {
        let (url, store, csv, folder) = try await Self.setUp()
        defer { try? FileManager.default.removeItem(at: folder) }
        let running = try await Self.startServers(url)
        let ports = running.map(\.port)
        let acknowledged = Acknowledged()
        async let imported = Self.importCSV(csv, url: url)
        await withTaskGroup(of: Void.self) { group in
            for client in 0..<Self.clients {
                group.addTask {
                    for index in stride(from: client, to: Self.posts, by: Self.clients) {
                        let uuid = UUID().uuidString.lowercased()
                        let port = ports[index % ports.count]
                        if let number = await Self.post(index: index, uuid: uuid, port: port, acknowledged: acknowledged) {
                            if number > 0 { _ = acknowledged.add(uuid: uuid, number: number) }
                        } else {
                            acknowledged.fail("marker \(index): no answer from port \(port)")
                        }
                    }
                }
            }
        }
        let result = try await imported
        #expect(result.status == 0, "\(result.stderr)")
        #expect(acknowledged.problems.isEmpty, "\(acknowledged.problems.prefix(5))")
        #expect(acknowledged.all.count == Self.posts)
        try await Self.check(store, acknowledged: acknowledged.all, expectedCount: Self.posts + Self.imported)
        for server in running { #expect(await server.stop() == 0) }
    }

    @Test(.hangGuard)
    func killingOneServerMidRunLosesNoAcknowledgedMarker() async throws {
        let (url, store, csv, folder) = try await Self.setUp()
        defer { try? FileManager.default.removeItem(at: folder) }
        let running = try await Self.startServers(url)
        let ports = running.map(\.port)
        let victim = running[1]
        let killed = Killed()
        let acknowledged = Acknowledged()
        async let imported = Self.importCSV(csv, url: url)
        await withTaskGroup(of: Void.self) { group in
            for client in 0..<Self.clients {
                group.addTask {
                    for index in stride(from: client, to: Self.posts, by: Self.clients) {
                        let uuid = UUID().uuidString.lowercased()
                        // A client whose server went away tries the next one, with the same uuid (an idempotent retry).
                        var target = index % ports.count
                        for _ in 0..<ports.count {
                            if target == 1 && killed.done { target = 2 }
                            if let number = await Self.post(index: index, uuid: uuid, port: ports[target], acknowledged: acknowledged) {
                                if number > 0, acknowledged.add(uuid: uuid, number: number) == Self.posts / 3, killed.claim() {
                                    // A third of the way through: kill -9 the second server, whatever it is doing.
                                    victim.signal(SIGKILL)
                                }
                                break
                            }
                            target = (target + 1) % ports.count
                        }
                    }
                }
            }
        }
        let result = try await imported
        #expect(result.status == 0, "\(result.stderr)")
        #expect(killed.done)
        #expect(acknowledged.problems.isEmpty, "\(acknowledged.problems.prefix(5))")
        // Every marker was acknowledged by some server (the others took over), and each is stored.
        #expect(acknowledged.all.count == Self.posts)
        try await Self.check(store, acknowledged: acknowledged.all, expectedCount: Self.posts + Self.imported)
        #expect(await victim.waitForExit() != 0)
        for server in [running[0], running[2]] { #expect(await server.stop() == 0) }
    }

    /// Whether the victim has been killed (claimed once).
    final class Killed: @unchecked Sendable {
        private let lock = NSLock()
        private var claimed = false
        func claim() -> Bool { lock.withLock { if claimed { return false }; claimed = true; return true } }
        var done: Bool { lock.withLock { claimed } }
    }
}
