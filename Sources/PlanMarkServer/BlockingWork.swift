/// Runs short blocking work (store calls, which may wait for a lock; tile file reads and writes) on
/// threads of its own, so Swift concurrency's few cooperative threads keep serving requests, and so that
/// it never waits behind CPU-heavy jobs (renders, reports, tile pyramids), which run on `HeavyWork`'s.
enum BlockingWork {
    /// The most store calls and file operations at once; more wait their turn. A write that waits for
    /// another process's lock holds its lane for up to the busy timeout, so there are more lanes than
    /// SQLite readers (GRDB's pool has 5) and PostgreSQL connections.
    static let width = 32

    /// The lanes the work runs on.
    static let lanes = WorkLanes.shared(label: "planmark-store", width: width)

    /// Runs `body` on a lane and returns its result or rethrows its error.
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await lanes.run(body)
    }
}
