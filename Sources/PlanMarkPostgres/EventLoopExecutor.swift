import Dispatch
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// Runs a task's jobs on one NIO event loop: the store's postgres-nio work runs on the loop that serves its
/// connection (no hop to Swift concurrency's cooperative pool between a query's rows), and a COPY ends on its
/// connection's loop.
package final class EventLoopExecutor: TaskExecutor, @unchecked Sendable {
    package let loop: any EventLoop

    package init(_ loop: any EventLoop) { self.loop = loop }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// A value handed from the event loop back to the task that awaits it.
struct Handoff<T>: @unchecked Sendable {
    var value: T
}

