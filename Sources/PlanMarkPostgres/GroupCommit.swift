import Synchronization

/// Group commit: work for one key (a drawing) that arrives while a batch of that key is running waits, and is then
/// taken, in arrival order, into the next batch together. One batch of a key runs at a time in this process; its
/// caller's answers are given when the batch ends (after its commit).
///
/// Why: every marker POST of a drawing holds the drawing's counter row until its commit is flushed, so one POST per
/// transaction can never pass the disk's flush rate (a few hundred a second). A batch pays one flush and a few round
/// trips for all its POSTs.
///
/// - Complexity: O(1) to submit; a batch takes at most `maximumBatch` items.
final class GroupCommit<Item: Sendable, Answer: Sendable>: Sendable {
    private struct Waiting {
        let item: Item
        let continuation: CheckedContinuation<Answer, Never>
    }

    private struct Queue {
        var waiting: [Waiting] = []
        var running = false
        /// Items of the batch running now.
        var inBatch = 0
        /// Callers of `whenPending`, with the count each waits for.
        var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        /// Items submitted and not yet answered.
        var pending: Int { waiting.count + inBatch }
    }

    private let queues = Mutex<[String: Queue]>([:])
    /// The most items one batch takes.
    let maximumBatch: Int

    init(maximumBatch: Int = 256) {
        precondition(maximumBatch > 0)
        self.maximumBatch = maximumBatch
    }

    /// Queues `item` for `key` and returns its answer once the batch that took it has run. When no batch of `key` is
    /// running, a task is started that runs batches with `run` until the key's queue is empty.
    ///
    /// `run` gets `take`, which removes the items waiting now (up to `maximumBatch`, at least one) and returns them:
    /// `run` calls it exactly once, as late as it can (once it holds the drawing's lock), so that the batch carries
    /// everything that arrived while it waited, and answers those items in their order, one answer each.
    func submit(_ item: Item, key: String, run: @escaping @Sendable (_ take: @Sendable () -> [Item]) async -> [Answer]) async -> Answer {
        await withCheckedContinuation { continuation in
            let (lead, satisfied) = queues.withLock { queues in
                var queue = queues[key, default: Queue()]
                queue.waiting.append(Waiting(item: item, continuation: continuation))
                let pending = queue.pending
                let satisfied = queue.watchers.filter { $0.count <= pending }.map(\.continuation)
                queue.watchers.removeAll { $0.count <= pending }
                let lead = !queue.running
                queue.running = true
                queues[key] = queue
                return (lead, satisfied)
            }
            for watcher in satisfied { watcher.resume() }
            if lead { Task { await self.drain(key: key, run: run) } }
        }
    }

    /// Returns once `count` items of `key` are pending at once (waiting, or in the batch running): for tests, which
    /// hold a batch up and need the next to have formed.
    func whenPending(_ count: Int, for key: String) async {
        await withCheckedContinuation { continuation in
            let reached = queues.withLock { queues in
                if (queues[key]?.pending ?? 0) >= count { return true }
                queues[key, default: Queue()].watchers.append((count, continuation))
                return false
            }
            if reached { continuation.resume() }
        }
    }

    /// Runs batches of `key` until its queue is empty.
    private func drain(key: String, run: @Sendable (_ take: @Sendable () -> [Item]) async -> [Answer]) async {
        while true {
            let waiting = queues.withLock { queues in
                guard let queue = queues[key], !queue.waiting.isEmpty else {
                    queues[key]?.running = false
                    if queues[key]?.watchers.isEmpty ?? false { queues[key] = nil }
                    return false
                }
                return true
            }
            if !waiting { return }
            let taken = Mutex<[Waiting]?>(nil)
            let answers = await run { [self] in
                let batch: [Waiting] = queues.withLock { queues in
                    guard var queue = queues[key] else { return [] }
                    let batch = Array(queue.waiting.prefix(maximumBatch))
                    queue.waiting.removeFirst(batch.count)
                    queue.inBatch = batch.count
                    queues[key] = queue
                    return batch
                }
                taken.withLock { taken in
                    precondition(taken == nil, "a batch takes its items once")
                    taken = batch
                }
                return batch.map(\.item)
            }
            guard let batch = taken.withLock({ $0 }) else { preconditionFailure("a batch takes its items") }
            precondition(answers.count == batch.count, "a batch answers each of its items")
            queues.withLock { $0[key]?.inBatch = 0 }
            for (waiting, answer) in zip(batch, answers) { waiting.continuation.resume(returning: answer) }
        }
    }
}
