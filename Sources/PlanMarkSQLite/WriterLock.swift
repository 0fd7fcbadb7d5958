import PlanMarkStore
import Synchronization

/// A lock that tasks await (first come, first served) rather than block on: SQLite's write transactions hold it from
/// `BEGIN IMMEDIATE` to `COMMIT` across several accesses to GRDB's writer (`SQLiteTransaction`), so that no other
/// write of this process runs inside one of them.
///
/// Hand-written: the standard library's `Mutex` blocks a thread, and no package on this machine has an async lock.
/// A waiter is not cancellable: a write that waits for the lock runs once it gets it (it is short).
final class WriterLock: Sendable {
    private struct State {
        var held = false
        var waiting: [CheckedContinuation<Void, Never>] = []
        var next = 0
    }
    private let state = Mutex(State())
    /// Test hook: the number of waiting tasks, each time a task starts to wait.
    package let waits: AsyncStream<Int>
    private let waitsContinuation: AsyncStream<Int>.Continuation

    init() {
        (waits, waitsContinuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(16))
    }

    /// Waits until the lock is free and takes it.
    /// - Complexity: O(1) amortised.
    func lock() async {
        let free = state.withLock { state -> Bool in
            if state.held { return false }
            state.held = true
            return true
        }
        if free { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waiting = state.withLock { state -> Int? in
                // Freed between the first look and now: take it.
                if !state.held { state.held = true; return nil }
                state.waiting.append(continuation)
                return state.waiting.count - state.next
            }
            if let waiting { waitsContinuation.yield(waiting) } else { continuation.resume() }
        }
    }

    /// Hands the lock to the first waiter, or frees it.
    /// - Complexity: O(1) amortised.
    func unlock() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            precondition(state.held, "WriterLock.unlock: not locked")
            guard state.next < state.waiting.count else {
                state.waiting.removeAll(keepingCapacity: true)
                state.next = 0
                state.held = false
                return nil
            }
            let waiter = state.waiting[state.next]   // the lock stays held: it passes to this waiter
            state.next += 1
            if state.next >= 64 && state.next * 2 >= state.waiting.count {
                state.waiting.removeFirst(state.next)   // the handed-over ones, at most twice the ones left
                state.next = 0
            }
            return waiter
        }
        waiter?.resume()
    }
}
