import Synchronization

/// Admits at most `limit` holders at once and refuses the rest at once (no queue): for work where
/// waiting would only pile up requests, and the client should be told to come back (503).
final class ConcurrencyLimiter: Sendable {
    /// How many may hold a place at once.
    let limit: Int
    private let held = Mutex(0)

    /// Creates a limiter for `limit` (at least 1) holders.
    init(limit: Int) { self.limit = max(1, limit) }

    /// Takes a place; false when all are taken.
    func tryAcquire() -> Bool {
        held.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    /// Gives back a place taken with `tryAcquire`.
    func release() {
        held.withLock { $0 -= 1 }
    }

    /// The places taken now.
    var inUse: Int { held.withLock { $0 } }
}
