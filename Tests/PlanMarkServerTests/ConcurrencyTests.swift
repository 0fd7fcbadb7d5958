import Foundation
import Hummingbird
import PlanMarkStore
import Testing
@testable import PlanMarkServer

/// 16 HTTP clients post 2000 markers to one drawing while `planmark mark` processes add 200 more.
@Suite struct ConcurrencyTests {
    @Test(.hangGuard)
    func sixteenClientsAndTheCLILoseNothing() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let storePath = fixture.storePath
        let planmark = BuiltProducts.path("planmark")
        try await fixture.application().test(.live) { client in
            let port = try #require(client.port)
            // The CLI: 4 processes at a time, 50 `mark` calls each.
            let cliTask = Task.detached { () throws -> [Int] in
                try await withThrowingTaskGroup(of: [Int].self) { group in
                    for worker in 0..<4 {
                        group.addTask {
                            var numbers: [Int] = []
                            for k in 0..<50 {
                                let x = 300 + Double(worker * 50 + k), y = 500.5
                                let out = try ProcessRunner.run(planmark, ["mark", "plan", String(x), String(y), "--store", storePath, "--author", "cli"])
                                guard out.status == 0, let number = Int(out.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                                    throw CLIFailure(message: "mark exited \(out.status): \(out.stderr)")
                                }
                                numbers.append(number)
                            }
                            return numbers
                        }
                    }
                    return try await group.reduce(into: []) { $0 += $1 }
                }
            }
            // 16 clients, each on its own connection, 125 POSTs each.
            let httpNumbers = try await withThrowingTaskGroup(of: [Int].self) { group in
                for worker in 0..<16 {
                    group.addTask {
                        try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: .init(timeout: liveReadTimeout)) { connection in
                            var numbers: [Int] = []
                            for k in 0..<125 {
                                let body = "{\"x\":\(250 + worker * 25),\"y\":\(200 + k * 3),\"author\":\"http-\(worker)\"}"
                                let response = try await connection.execute(TestClient.Request(
                                    "/drawings/plan/markers", method: .post, authority: "127.0.0.1:\(port)",
                                    headers: [.contentType: "application/json"], body: ByteBuffer(string: body)))
                                guard response.status == .created, let buffer = response.body,
                                      let object = try JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)) as? [String: Any],
                                      let number = object["number"] as? Int
                                else { throw CLIFailure(message: "POST answered \(response.status)") }
                                numbers.append(number)
                            }
                            return numbers
                        }
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            let cliNumbers = try await cliTask.value
            #expect(httpNumbers.count == 2000)
            #expect(cliNumbers.count == 200)
            #expect(Set(httpNumbers).count == 2000)
            #expect(Set(cliNumbers).count == 200)
            #expect(Set(httpNumbers).isDisjoint(with: cliNumbers))
            #expect(Set(httpNumbers + cliNumbers) == Set(1...2200))
        }
        #expect(try await fixture.store.drawing(named: "plan").markerCount == 2200)
        var stored: [Int] = []
        try await fixture.store.forEachMarker(in: "plan", status: nil) { stored.append($0.number); return true }
        #expect(stored == Array(1...2200))
    }
}

struct CLIFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
