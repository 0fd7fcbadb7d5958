/// Lets at most `limit` tasks run a section at once; the others wait in arrival order.
actor AsyncGate {
    /// How many may run at once.
    let limit: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Creates a gate for `limit` (at least 1) tasks at once.
    init(limit: Int) { self.limit = max(1, limit) }

    /// Runs `body` once a place is free.
    nonisolated func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await enter()
        do {
            let result = try await body()
            await leave()
            return result
        } catch {
            await leave()
            throw error
        }
    }

    private func enter() async {
        if running < limit {
            running += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func leave() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
