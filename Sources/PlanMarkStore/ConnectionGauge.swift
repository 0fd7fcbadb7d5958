import Synchronization

/// How many of a store's connections its calls use now, how many calls wait for one, and how many it may use at
/// once (`GET /metrics`: `planmark_store_connections_*`).
public struct ConnectionUsage: Sendable, Equatable {
    /// Calls holding a connection (SQLite: the writer or a reader; PostgreSQL: a pooled connection).
    public var inUse: Int
    /// Calls waiting for one.
    public var waiting: Int
    /// The most connections the store uses at once.
    public var maximum: Int

    public init(inUse: Int, waiting: Int, maximum: Int) {
        self.inUse = inUse
        self.waiting = waiting
        self.maximum = maximum
    }
}

/// Counts a store's calls as they wait for a connection, then hold one: each back end's transaction primitives take
/// a `Ticket` before they ask for a connection, `start` it once they have one, and `end` it when they are done.
package final class ConnectionGauge: Sendable {
    private let counts = Mutex((inUse: 0, waiting: 0))
    /// The most connections the store uses at once.
    package let maximum: Int

    package init(maximum: Int) { self.maximum = maximum }

    /// The counts now.
    package var usage: ConnectionUsage {
        counts.withLock { ConnectionUsage(inUse: $0.inUse, waiting: $0.waiting, maximum: maximum) }
    }

    /// A call that starts waiting for a connection.
    package func enter() -> Ticket {
        counts.withLock { $0.waiting += 1 }
        return Ticket(self)
    }

    /// One call's place in the counts: waiting, then (after `start`) in use, until `end`.
    package final class Ticket: Sendable {
        private let gauge: ConnectionGauge
        /// 0 waiting, 1 in use, 2 ended.
        private let state = Mutex(0)

        fileprivate init(_ gauge: ConnectionGauge) { self.gauge = gauge }

        /// The call has its connection.
        package func start() {
            guard state.withLock({ value -> Bool in
                guard value == 0 else { return false }
                value = 1
                return true
            }) else { return }
            gauge.counts.withLock { $0.waiting -= 1; $0.inUse += 1 }
        }

        /// The call is done (with or without a connection); later calls do nothing.
        package func end() {
            let was = state.withLock { value -> Int in
                defer { value = 2 }
                return value
            }
            switch was {
            case 0: gauge.counts.withLock { $0.waiting -= 1 }
            case 1: gauge.counts.withLock { $0.inUse -= 1 }
            default: break
            }
        }
    }
}
