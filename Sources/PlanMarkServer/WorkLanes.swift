import Dispatch
import Synchronization

/// Runs blocking jobs on at most `width` threads at once, first come first served.
///
/// Each lane is a serial Dispatch queue. libdispatch gives a serial queue that has work a thread of its
/// own ("overcommit"), whereas the threads of concurrent queues are shared by every concurrent queue of the
/// process and capped at the number of cores: with one concurrent queue for everything, two reports held
/// both threads of a 2-core machine and every store call waited behind them (a marker GET took 57 s).
/// Separate `WorkLanes` (store calls, heavy jobs) therefore never wait for each other's threads; they
/// share only the cores, as any two threads do.
final class WorkLanes: Sendable {
    typealias Job = @Sendable () -> Void

    /// The most jobs running at once.
    let width: Int
    private let lanes: [DispatchQueue]
    private let state: Mutex<State>

    private struct State {
        var jobs = JobQueue()
        var idle: [Int]
    }

    /// `width` (at least 1) lanes named `label.N`.
    init(label: String, width: Int, qos: DispatchQoS = .userInitiated) {
        self.width = max(1, width)
        lanes = (0..<self.width).map { DispatchQueue(label: "\(label).\($0)", qos: qos) }
        state = Mutex(State(idle: Array((0..<self.width).reversed())))
    }

    /// Queues `job`; it runs as soon as a lane is free.
    /// - Complexity: O(1) amortised.
    func submit(_ job: @escaping Job) {
        let lane = state.withLock { state -> Int? in
            state.jobs.append(job)
            return state.idle.popLast()
        }
        if let lane { lanes[lane].async { self.drain(lane) } }
    }

    /// Runs `body` on a lane and returns its result or rethrows its error.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            submit { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Jobs queued and not started.
    var waiting: Int { state.withLock { $0.jobs.count } }

    /// Runs queued jobs until there are none; the lane is then idle (decided under the lock, so a job
    /// queued meanwhile either finds this lane idle or is taken by this loop).
    private func drain(_ lane: Int) {
        while let job = state.withLock({ state -> Job? in
            if let job = state.jobs.popFirst() { return job }
            state.idle.append(lane)
            return nil
        }) {
            job()
        }
    }
}

/// A first-in first-out queue of jobs.
private struct JobQueue {
    private var items: [WorkLanes.Job?] = []
    private var head = 0

    var count: Int { items.count - head }

    /// - Complexity: O(1) amortised.
    mutating func append(_ job: @escaping WorkLanes.Job) { items.append(job) }

    /// - Complexity: O(1) amortised (the taken front is dropped once it is half the storage).
    mutating func popFirst() -> WorkLanes.Job? {
        guard head < items.count else { return nil }
        let job = items[head]
        items[head] = nil
        head += 1
        if head >= 32 && head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        return job
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
