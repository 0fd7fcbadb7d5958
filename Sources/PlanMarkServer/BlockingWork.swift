import Dispatch

/// Runs blocking work (SQLite transactions that may wait for a lock, PNG decoding and encoding) on
/// Dispatch threads, so Swift concurrency's few cooperative threads keep serving requests.
enum BlockingWork {
    /// The queue the work runs on; concurrent, so reads proceed while a write waits for the lock.
    static let queue = DispatchQueue(label: "planmark.server.blocking", qos: .userInitiated, attributes: .concurrent)

    /// Runs `body` on `queue` and returns its result or rethrows its error.
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try body() })
            }
        }
    }
}
