/// Runs short blocking work (tile file reads and writes, a validate request's parse) on
/// threads of its own, so Swift concurrency's few cooperative threads keep serving requests, and so that
/// it never waits behind CPU-heavy jobs (renders, reports, tile pyramids), which run on `HeavyWork`'s.
enum BlockingWork {
    /// The most file operations at once; more wait their turn.
    static let width = 32

    /// The lanes the work runs on.
    static let lanes = WorkLanes.shared(label: "planmark-files", width: width)

    /// Runs `body` on a lane and returns its result or rethrows its error.
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await lanes.run(body)
    }
}
