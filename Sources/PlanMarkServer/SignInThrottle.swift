import Synchronization

/// Failed sign-ins by client address (OWASP ASVS V2.4.1, anti-automation on credentials): after `limit` failures from
/// one address within `window`, that address is refused (429) until the window that began with its first failure is
/// over.
///
/// Memory is bounded: at most `capacity` addresses are kept; when full, windows that are over are dropped, and if none
/// is, the oldest window goes.
final class SignInThrottle: Sendable {
    struct Entry {
        var start: ContinuousClock.Instant
        var failures: Int
    }

    let limit: Int
    let window: Duration
    let capacity: Int
    private let now: @Sendable () -> ContinuousClock.Instant
    private let entries = Mutex<[String: Entry]>([:])

    init(limit: Int = 10, window: Duration = .seconds(60), capacity: Int = 10_000,
         now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        self.limit = limit
        self.window = window
        self.capacity = capacity
        self.now = now
    }

    /// The whole seconds until `address` may try again, or nil when it may now.
    /// - Complexity: O(1).
    func retryAfter(_ address: String) -> Int? {
        let now = self.now()
        return entries.withLock { entries -> Int? in
            guard let entry = entries[address] else { return nil }
            let end = entry.start + window
            if end <= now {
                entries[address] = nil
                return nil
            }
            guard entry.failures >= limit else { return nil }
            let left = end - now
            return max(1, Int(left.components.seconds) + (left.components.attoseconds > 0 ? 1 : 0))
        }
    }

    /// Counts a failed sign-in from `address`.
    /// - Complexity: O(1), or O(capacity) when the table is full.
    func failed(_ address: String) {
        let now = self.now()
        entries.withLock { entries in
            if var entry = entries[address], entry.start + window > now {
                entry.failures += 1
                entries[address] = entry
                return
            }
            if entries.count >= capacity {
                entries = entries.filter { $0.value.start + window > now }
                if entries.count >= capacity, let oldest = entries.min(by: { $0.value.start < $1.value.start })?.key {
                    entries[oldest] = nil
                }
            }
            entries[address] = Entry(start: now, failures: 1)
        }
    }
}
