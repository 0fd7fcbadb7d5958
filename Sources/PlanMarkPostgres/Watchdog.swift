import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

/// The deadline of one store operation on a leased connection: when the database has shown no progress for `timeout`
/// (no answer, no COPY buffer taken), `onExpiry` runs once; the store's closes the connection, which fails every
/// postgres-nio operation waiting on it, so that the operation ends with `unavailable` instead of waiting for ever.
///
/// Progress is `touch()`: a long operation (an import's COPY) touches it for each buffer the server takes, so its
/// deadline is per step, not for the whole operation. A timer on the event loop checks the deadline; `checkOverdue()`
/// is the same check made on demand (a COPY's guarded write makes it every 50 ms while it waits).
final class Watchdog: @unchecked Sendable {
    /// The watchdog of the operation the current task runs, if any (what `guardedWrite` touches).
    @TaskLocal static var current: Watchdog?

    let timeout: TimeAmount
    /// The event loop the operation runs on (its timer's).
    let loop: any EventLoop
    private let lock = NIOLock()
    private var last: NIODeadline
    private var expired = false
    /// COPYs under way (`copying`): the connection is not closed during one, see there.
    private var copies = 0
    /// The deadline passed during a COPY: `onExpiry` runs when it ends.
    private var expiryDeferred = false
    private var onExpiry: (@Sendable () -> Void)?
    private var timer: Scheduled<Void>?

    init(timeout: Duration, loop: any EventLoop) {
        self.timeout = .nanoseconds(Watchdog.nanoseconds(timeout))
        self.loop = loop
        last = .now()
    }

    /// `duration` in nanoseconds (saturating).
    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : product &+ attoseconds / 1_000_000_000
    }

    /// Starts the deadline (`timeout` from now); `onExpiry` runs at most once, on the event loop or on the thread
    /// calling `checkOverdue`.
    func arm(_ onExpiry: @escaping @Sendable () -> Void) {
        lock.withLock {
            last = .now()
            self.onExpiry = onExpiry
        }
        schedule(at: NIODeadline.now() + timeout)
    }

    /// Progress: the deadline moves to `timeout` from now.
    func touch() {
        lock.withLock { last = .now() }
    }

    /// Stops the deadline (the operation ended).
    func disarm() {
        let timer = lock.withLock { () -> Scheduled<Void>? in
            onExpiry = nil
            defer { self.timer = nil }
            return self.timer
        }
        timer?.cancel()
    }

    /// Whether the deadline passed (and `onExpiry` ran).
    var hasExpired: Bool { lock.withLock { expired } }

    /// Expires now if the deadline has passed; whether it has expired.
    @discardableResult
    func checkOverdue() -> Bool {
        var action: (@Sendable () -> Void)?
        let result = lock.withLock { () -> Bool in
            if expired { return true }
            guard onExpiry != nil, NIODeadline.now() >= last + timeout else { return false }
            expired = true
            if copies > 0 {
                expiryDeferred = true
            } else {
                action = onExpiry
                onExpiry = nil
            }
            return true
        }
        action?()
        return result
    }

    /// Runs `body`, a COPY (`PostgresConnection.copyFrom`), without `onExpiry` closing the connection under it: a
    /// deadline that passes meanwhile only ends the COPY's buffer writes (`guardedWrite`), and the connection is closed
    /// once `body` is over.
    ///
    /// Why: postgres-nio 1.33 traps (`preconditionFailure`, "Invalid query state machine action") when the client
    /// closes a connection whose COPY is sending data. A COPY ended by a failed write instead sends `CopyFail` first.
    func copying<T>(_ body: () async throws -> T) async throws -> T {
        lock.withLock { copies += 1 }
        defer {
            var action: (@Sendable () -> Void)?
            lock.withLock {
                copies -= 1
                if copies == 0, expiryDeferred {
                    expiryDeferred = false
                    action = onExpiry
                    onExpiry = nil
                }
            }
            action?()
        }
        return try await body()
    }

    private func schedule(at deadline: NIODeadline) {
        let scheduled = loop.scheduleTask(deadline: deadline) { [self] in
            if checkOverdue() { return }
            let next = lock.withLock { () -> NIODeadline? in onExpiry == nil ? nil : last + timeout }
            if let next { schedule(at: next) }
        }
        lock.withLock {
            if onExpiry == nil { scheduled.cancel() } else { timer = scheduled }
        }
    }
}

/// The operation's connection went away during a COPY (detected by `guardedWrite`).
struct CopyConnectionLost: Error {}

extension PostgresCopyFromWriter {
    /// `write(buffer)`, but never waiting longer than the connection lives or the operation's watchdog allows.
    ///
    /// Why: postgres-nio 1.33's writer waits for the channel to become writable again on a promise that is dropped,
    /// never completed, when the connection is lost in the meantime (`ExtendedQueryStateMachine.setAndFireError` in
    /// `.copyingData(.pendingBackpressureRelieve)`): a database that died under a large import left `write` waiting for
    /// ever. Here the write runs in a task of its own, and this waits for the first of: the write's end, the connection's
    /// close (checked every 50 ms while the write waits), or the watchdog's expiry. A write abandoned that way keeps its
    /// task (and its buffer) until postgres-nio lets it go, which for the bug above is never: one buffer per lost
    /// connection.
    ///
    /// A write still waiting at the first check (the database has stopped reading: the socket and postgres-nio's
    /// buffer are full) says so once at debug level on `logger`: "COPY waits for the database to read".
    func guardedWrite(_ buffer: ByteBuffer, connection: PostgresConnection, logger: Logger) async throws {
        let watchdog = Watchdog.current
        watchdog?.touch()
        if connection.isClosed || watchdog?.hasExpired == true { throw CopyConnectionLost() }
        let loop = connection.eventLoop
        let writer = self
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let resumed = NIOLockedValueBox(false)
            let check = NIOLockedValueBox<RepeatedTask?>(nil)
            @Sendable func finish(_ result: Result<Void, any Error>) {
                guard resumed.withLockedValue({ done in defer { done = true }; return !done }) else { return }
                check.withLockedValue { $0 }?.cancel()
                continuation.resume(with: result)
            }
            Task(executorPreference: EventLoopExecutor(loop)) {
                // Checked again here, on the connection's event loop, in the same turn of the loop as postgres-nio's
                // own look at its state when `write` starts: a connection that ended since the check above (its
                // backend terminated) is never written to. postgres-nio 1.33 traps on that write ("Copy mode is only
                // supported for extended queries"); the channel goes inactive in the turn the state machine leaves the
                // COPY, so the two can never disagree here.
                guard !connection.isClosed else {
                    finish(.failure(CopyConnectionLost()))
                    return
                }
                do {
                    try await writer.write(buffer)
                    finish(.success(()))
                } catch {
                    finish(.failure(error))
                }
            }
            // Ending this wait never closes the connection (see `Watchdog.copying`): the COPY then ends with CopyFail.
            let announced = NIOLockedValueBox(false)
            let repeated = loop.scheduleRepeatedTask(initialDelay: .milliseconds(50), delay: .milliseconds(50)) { _ in
                if connection.isClosed { finish(.failure(CopyConnectionLost())) }
                else if watchdog?.checkOverdue() == true { finish(.failure(CopyConnectionLost())) }
                else if !resumed.withLockedValue({ $0 }), announced.withLockedValue({ seen in defer { seen = true }; return !seen }) {
                    logger.debug("COPY waits for the database to read")
                }
            }
            check.withLockedValue { $0 = repeated }
            if resumed.withLockedValue({ $0 }) { repeated.cancel() }
        }
        watchdog?.touch()
    }
}
