import Logging
import Synchronization

/// The CPU-heavy jobs: review images, reports and tile pyramids.
///
/// - At most `limit` run at once, each on a thread of its own (never a cooperative one, nor one of `BlockingWork`'s, so
///   store calls and file reads never wait behind them); at most `queueLimit` more wait their turn, first come first served;
///   beyond that a request is refused at once with 503 `server-busy` and `Retry-After`.
/// - A job runs in its request's task (these threads are the task's executor), so it sees the task's
///   cancellation: when the client goes away or the server stops (`RequestCancellation`), a job that has
///   not started is not started, and one that runs stops at its next check of `Task.isCancelled` (between
///   a render's stages, between a pyramid's bands, whenever the report writer passes on bytes).
final class HeavyWork: Sendable {
    /// The most jobs running at once.
    let limit: Int
    /// The most jobs waiting for a place.
    let queueLimit: Int
    private let executor: LanesExecutor
    private let admitted = Mutex(0)
    private let running = Mutex(0)
    private let logger: Logger?

    /// `limit` (at least 1) jobs at once, `queueLimit` (at least 0) more waiting; `logger` gets a debug line
    /// as each job starts.
    init(limit: Int, queueLimit: Int, logger: Logger? = nil) {
        self.limit = max(1, limit)
        self.queueLimit = max(0, queueLimit)
        self.logger = logger
        executor = LanesExecutor(WorkLanes.shared(label: "planmark-heavy", width: self.limit))
    }

    /// Jobs running or waiting now.
    var inUse: Int { admitted.withLock { $0 } }

    /// Runs `body` (`what`, for the log: "report of drawing \"plan\"") on a heavy-work thread in the calling
    /// task, once a place is free.
    /// - Throws: 503 `server-busy` when `limit` jobs run and `queueLimit` wait; `CancellationError` when the
    ///   task is cancelled before the job starts; whatever `body` throws.
    func run<T: Sendable>(_ what: @autoclosure () -> String, _ body: () async throws -> T) async throws -> T {
        let admittedNow = admitted.withLock { count -> Bool in
            guard count < limit + queueLimit else { return false }
            count += 1
            return true
        }
        guard admittedNow else {
            throw APIError.unavailable(
                code: "server-busy",
                message: "the server is making as many images, reports and tiles as it may (\(limit) at once, \(queueLimit) waiting); retry shortly",
                retryAfter: 2)
        }
        defer { admitted.withLock { $0 -= 1 } }
        try Task.checkCancellation()
        return try await withTaskExecutorPreference(executor) {
            try Task.checkCancellation()
            let now = running.withLock { count -> Int in
                count += 1
                return count
            }
            defer { running.withLock { $0 -= 1 } }
            logger?.debug("heavy job started: \(what()) (\(now) running)")
            return try await body()
        }
    }
}
