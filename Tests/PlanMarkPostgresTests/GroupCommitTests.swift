@testable import PlanMarkPostgres
import Synchronization
import Testing

/// `GroupCommit` alone (no database): what arrives while a batch runs forms the next batch, in arrival order, and
/// each caller gets its own answer.
struct GroupCommitTests {
    /// Records the batches `run` is given and holds each until the test lets it go.
    final class Batches: Sendable {
        let started: AsyncStream<[String]>
        private let startedContinuation: AsyncStream<[String]>.Continuation
        private let gates = Mutex<[CheckedContinuation<Void, Never>]>([])
        private let opened = Mutex(0)

        init() { (started, startedContinuation) = AsyncStream.makeStream() }

        /// The batch function: takes its items, announces them, waits for its gate, answers each item with its text
        /// upper-cased. With `lateTake`, it waits for the gate first (as the store waits for the drawing's lock) and
        /// takes its items after.
        func run(_ take: @Sendable () -> [String], lateTake: Bool = false) async -> [String] {
            if lateTake {
                startedContinuation.yield([])
                await gate()
                let items = take()
                startedContinuation.yield(items)
                return items.map { $0.uppercased() }
            }
            let items = take()
            startedContinuation.yield(items)
            await gate()
            return items.map { $0.uppercased() }
        }

        private func gate() async {
            await withCheckedContinuation { continuation in
                let open = opened.withLock { opened in
                    if opened > 0 { opened -= 1; return true }
                    return false
                }
                if open { continuation.resume() } else { gates.withLock { $0.append(continuation) } }
            }
        }

        /// Lets one batch (the one waiting, or the next to come) finish.
        func open() {
            let waiting = gates.withLock { gates in gates.isEmpty ? nil : gates.removeFirst() }
            if let waiting { waiting.resume() } else { opened.withLock { $0 += 1 } }
        }
    }

    @Test func whatArrivesDuringABatchIsTheNextBatchInArrivalOrder() async throws {
        let commit = GroupCommit<String, String>()
        let batches = Batches()
        var started = batches.started.makeAsyncIterator()
        let first = Task { await commit.submit("a", key: "A") { await batches.run($0) } }
        #expect(await started.next() == ["a"])
        // Each submitted after the one before is queued: their order is the arrival order.
        var later: [Task<String, Never>] = []
        for (index, item) in ["b", "c", "d"].enumerated() {
            later.append(Task { await commit.submit(item, key: "A") { await batches.run($0) } })
            await commit.whenPending(index + 2, for: "A")
        }
        // Another drawing's batch runs at the same time, on its own.
        let other = Task { await commit.submit("x", key: "B") { await batches.run($0) } }
        #expect(await started.next() == ["x"])
        batches.open()
        batches.open()
        #expect(await started.next() == ["b", "c", "d"])
        batches.open()
        #expect(await first.value == "A")
        #expect(await other.value == "X")
        var answers: [String] = []
        for task in later { answers.append(await task.value) }
        #expect(answers == ["B", "C", "D"])
    }

    @Test func aBatchTakesAtMostTheMaximum() async throws {
        let commit = GroupCommit<String, String>(maximumBatch: 2)
        let batches = Batches()
        var started = batches.started.makeAsyncIterator()
        var tasks = [Task { await commit.submit("a", key: "A") { await batches.run($0) } }]
        #expect(await started.next() == ["a"])
        for (index, item) in ["b", "c", "d", "e", "f"].enumerated() {
            tasks.append(Task { await commit.submit(item, key: "A") { await batches.run($0) } })
            await commit.whenPending(index + 2, for: "A")
        }
        var seen: [[String]] = []
        for _ in 0..<3 {
            batches.open()
            if let batch = await started.next() { seen.append(batch) }
        }
        batches.open()
        #expect(seen == [["b", "c"], ["d", "e"], ["f"]])
        var answers: [String] = []
        for task in tasks { answers.append(await task.value) }
        #expect(answers == ["A", "B", "C", "D", "E", "F"])
    }

    /// The store takes a batch once it holds the drawing's lock: what arrived while it waited for the lock is in it.
    @Test func aBatchTakenLateCarriesWhatArrivedWhileItWaited() async throws {
        let commit = GroupCommit<String, String>()
        let batches = Batches()
        var started = batches.started.makeAsyncIterator()
        var tasks = [Task { await commit.submit("a", key: "A") { await batches.run($0, lateTake: true) } }]
        #expect(await started.next() == [])   // waiting for its lock, nothing taken yet
        for (index, item) in ["b", "c"].enumerated() {
            tasks.append(Task { await commit.submit(item, key: "A") { await batches.run($0, lateTake: true) } })
            await commit.whenPending(index + 2, for: "A")
        }
        batches.open()
        #expect(await started.next() == ["a", "b", "c"])
        var answers: [String] = []
        for task in tasks { answers.append(await task.value) }
        #expect(answers == ["A", "B", "C"])
    }
}
