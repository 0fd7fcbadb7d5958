import Dispatch
import Foundation
import PlanMarkFormats
import PlanMarkGeometry

/// Encodes bands' tiles on worker threads of its own while the bands are being made. At most two jobs per
/// worker wait; when that many are waiting, the thread that submits runs one itself rather than wait.
final class EncodePipeline: @unchecked Sendable {
    /// One worker a core. (Four a core made no difference on the 2-core machine at load average 10:
    /// the serial part, inflating the PNG, sets the pace; Benchmarks/tiles/README.md.)
    static let workerCount = processorCount

    private struct Job {
        let batch: TileBatch
        let columns: Range<Int>
    }

    private let encoder: PNGEncoder
    private let emit: @Sendable (TileCoordinate, [UInt8]) throws -> Void
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var head = 0
    private var closing = false
    private var failure: (any Error)?
    private let workers = DispatchGroup()
    private let maxWaiting: Int
    /// Tiles per job: small enough to keep every core busy to the end, large enough to be cheap to queue.
    private let tilesPerJob = 8

    init(encoder: PNGEncoder, emit: @escaping @Sendable (TileCoordinate, [UInt8]) throws -> Void) {
        self.encoder = encoder
        self.emit = emit
        let count = EncodePipeline.workerCount
        maxWaiting = 2 * count
        for _ in 0..<count {
            workers.enter()
            Thread.detachNewThread { [self] in
                defer { workers.leave() }
                while let job = next(waiting: true) { run(job) }
            }
        }
    }

    /// The next job; with `waiting`, waits for one until the pipeline closes.
    private func next(waiting: Bool) -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while head == jobs.count {
            if closing || !waiting { return nil }
            condition.wait()
        }
        let job = jobs[head]
        head += 1
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
        }
        return job
    }

    private var firstFailure: (any Error)? {
        condition.lock()
        defer { condition.unlock() }
        return failure
    }

    private func run(_ job: Job) {
        if firstFailure != nil { return }
        do {
            for column in job.columns {
                let bytes = try encoder.encode(job.batch.tile(column: column))
                try emit(TileCoordinate(z: job.batch.z, x: column, y: job.batch.row), bytes)
            }
        } catch {
            condition.lock()
            if failure == nil { failure = error }
            condition.unlock()
        }
    }

    /// Queues the batch's tiles (running queued jobs itself while too many wait); throws the first failure so far.
    func submit(_ batch: TileBatch) throws {
        var start = 0
        while start < batch.columns {
            if let failure = firstFailure { throw failure }
            condition.lock()
            let full = jobs.count - head >= maxWaiting
            condition.unlock()
            if full, let job = next(waiting: false) {
                run(job)
                continue
            }
            let end = min(batch.columns, start + tilesPerJob)
            condition.lock()
            jobs.append(Job(batch: batch, columns: start..<end))
            condition.signal()
            condition.unlock()
            start = end
        }
    }

    /// Lets the workers finish the queued jobs and waits for them.
    func drain() {
        condition.lock()
        closing = true
        condition.broadcast()
        condition.unlock()
        workers.wait()
    }

    /// Waits for every queued job and throws the first failure.
    func finish() throws {
        drain()
        if let failure = firstFailure { throw failure }
    }
}
