import Dispatch
import NIOConcurrencyHelpers
import NIOCore
import PlanMarkPostgres

/// For the tests' own PostgreSQL sessions (`HeldSession`, `TestDatabases`), which a test calls from wherever it is, as a
/// plain function. The store itself never waits like this: its API is async.
public enum Blocking {
    /// How long `run` waits before it calls `onOverdue` (and then again after each further `patience`), unless told.
    public static let defaultPatience: Duration = .seconds(60)

    /// Runs `body` as a task on an event loop of `group` and blocks the calling thread until it finishes.
    ///
    /// The wait has a deadline: after each `patience` without an end, `onOverdue` runs on this thread (the store
    /// closes the operation's connection there when it has made no progress, which fails whatever postgres-nio work
    /// `body` waits for), and the wait goes on for the task to unwind. `body` need not be `Sendable` or escaping: the calling
    /// thread is parked until the task has let go of it, so nothing else touches what it captures. Must not be called
    /// on an event loop thread (the wait would block that loop).
    public static func run<T>(on group: any EventLoopGroup, patience: Duration = Blocking.defaultPatience,
                               onOverdue: () -> Void = {}, _ body: () async throws -> T) throws -> T {
        try withoutActuallyEscaping(body) { body in
            // The task drops its reference to `body` before it completes the promise, so that `body` has not escaped
            // when this thread wakes up (withoutActuallyEscaping checks).
            let box = ClosureBox(body)
            let loop = group.next()
            let promise = loop.makePromise(of: BlockingHandoff<T>.self)
            Task(executorPreference: EventLoopExecutor(loop)) {
                var body = box.take()
                let result: Result<BlockingHandoff<T>, any Error>
                do {
                    result = .success(BlockingHandoff(value: try await body!()))
                } catch {
                    result = .failure(error)
                }
                body = nil
                promise.completeWith(result)
            }
            let ended = DispatchSemaphore(value: 0)
            let outcome = NIOLockedValueBox<Result<BlockingHandoff<T>, any Error>?>(nil)
            promise.futureResult.whenComplete { result in
                outcome.withLockedValue { $0 = result }
                ended.signal()
            }
            let (seconds, attoseconds) = patience.components
            let nanoseconds = Int(clamping: seconds.multipliedReportingOverflow(by: 1_000_000_000).partialValue + attoseconds / 1_000_000_000)
            while ended.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .timedOut {
                onOverdue()
            }
            return try outcome.withLockedValue { $0! }.get().value
        }
    }
}

/// Holds a closure until a task takes it.
private final class ClosureBox<T>: @unchecked Sendable {
    private var body: (() async throws -> T)?
    init(_ body: @escaping () async throws -> T) { self.body = body }
    func take() -> (() async throws -> T)? {
        defer { body = nil }
        return body
    }
}

/// A value handed from the event loop back to the thread that waits for it.
struct BlockingHandoff<T>: @unchecked Sendable {
    var value: T
}
