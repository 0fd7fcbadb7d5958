import NIOPosix
import Synchronization

/// Runs blocking jobs on `width` threads of its own, first come first served.
///
/// The threads are plain threads (NIO's thread pool), not Dispatch's: the threads of Dispatch's concurrent
/// queues are shared by every concurrent queue of the process and capped at the number of cores, so that with
/// one concurrent queue for everything two reports held both threads of a 2-core machine and every store call
/// waited behind them (a marker GET took 57 s); and Dispatch's overcommitting serial queues, busy, keep the
/// process's other Dispatch work from getting threads. Separate `WorkLanes` (store calls, heavy jobs) never wait
/// for each other's threads; they share only the cores, as any two threads do.
///
/// Lanes live as long as the process: `shared(label:width:)` keeps one per label and width (servers in one
/// process with the same heavy-job limit share its threads; each keeps its own count of jobs).
final class WorkLanes: Sendable {
    typealias Job = @Sendable () -> Void

    /// The most jobs running at once.
    let width: Int
    private let pool: NIOThreadPool

    private init(label: String, width: Int) {
        self.width = max(1, width)
        pool = NIOThreadPool(numberOfThreads: self.width)
        pool.start()
    }

    private static let made = Mutex<[String: WorkLanes]>([:])

    /// The process's lanes named `label` with `width` (at least 1) threads, made on first use.
    /// - Complexity: O(1) amortised.
    static func shared(label: String, width: Int) -> WorkLanes {
        made.withLock { made in
            let key = "\(label)/\(max(1, width))"
            if let lanes = made[key] { return lanes }
            let lanes = WorkLanes(label: label, width: width)
            made[key] = lanes
            return lanes
        }
    }

    /// Queues `job`; it runs as soon as a thread is free.
    /// - Complexity: O(1) amortised.
    func submit(_ job: @escaping Job) {
        pool.submit { _ in job() }  // (the pool is never shut down, so every job runs)
    }

    /// Runs `body` on a lane and returns its result or rethrows its error.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            submit { continuation.resume(with: Result { try body() }) }
        }
    }
}

/// An executor that runs a task's jobs on `lanes`: work inside `withTaskExecutorPreference(executor)` runs
/// there, still in its task (so `Task.isCancelled` and task-local values hold in synchronous code).
final class LanesExecutor: TaskExecutor {
    let lanes: WorkLanes

    init(_ lanes: WorkLanes) { self.lanes = lanes }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        lanes.submit { job.runSynchronously(on: executor) }
    }
}
