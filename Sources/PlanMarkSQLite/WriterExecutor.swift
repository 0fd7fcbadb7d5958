import PlanMarkStore
import GRDB
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the jobs of one SQLite write transaction's task on GRDB's writer: each job is one access to the writer
/// (`asyncWriteWithoutTransaction`), and while it runs, `database` is the writer's connection.
///
/// `SQLiteStore.writeOrRollBack(drawing:)` runs its body with this executor as the task's preference
/// (`withTaskExecutorPreference`), so the use case written once over `StoreTransaction` runs on the writer's queue
/// itself, and its primitives, which never suspend there, call SQLite directly: a marker POST is one access to the
/// writer, as a hand-written synchronous transaction would be. Measured (Benchmarks/server/posts-ab.sh): one access
/// per primitive that reads, with the task resumed on Swift's shared pool between them, made POSTs 45% slower.
final class WriterExecutor: TaskExecutor, Sendable {
    private let pool: DatabasePool
    /// The writer's connection and its thread while a job of this executor runs, else nil.
    private let running = Mutex<(database: Suspended<Database>, thread: pthread_t)?>(nil)

    init(pool: DatabasePool) { self.pool = pool }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        pool.asyncWriteWithoutTransaction { db in
            self.running.withLock { $0 = (Suspended(db), pthread_self()) }
            job.runSynchronously(on: self.asUnownedTaskExecutor())
            self.running.withLock { $0 = nil }
        }
    }

    /// The writer's connection when called from a job of this executor (on the writer's thread), else nil.
    /// - Complexity: O(1).
    var database: Database? {
        running.withLock { running in
            guard let running, pthread_equal(running.thread, pthread_self()) != 0 else { return nil }
            return running.database.value
        }
    }
}
