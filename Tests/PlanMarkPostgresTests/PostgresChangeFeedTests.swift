import PlanMarkFormats
import PlanMarkGeometry
@testable import PlanMarkPostgres
import PlanMarkStore
import PlanMarkStoreTestSupport
import PlanMarkTestSupport
import Synchronization
import Testing

/// The change feed's cursors on PostgreSQL follow the order transactions commit in (issue 26, item 1): writers on
/// eight drawings hold their transactions open after taking their cursors until the reader has read the feed a random
/// number of times more (0 to 2: it reads while they are uncommitted), marker additions
/// are committed in batches beside them, and a reader that reads the feed over and over never meets a cursor lower
/// than one it has already seen; at the end the feed has every change exactly once.
@Suite(.enabled(if: TestDatabases.required, "no PostgreSQL test cluster (PLANMARK_TEST_POSTGRES) and not CI"))
struct PostgresChangeFeedTests {
    @Test func aReaderNeverSeesACursorBelowOneItSaw() async throws {
        // One store (one pool) with connections for every writer and the reader at once: 8 writers holding transactions,
        // 8 adders (their group commits), the reader, and room to spare on a loaded machine. Every transaction queues for
        // the feed's counter behind the ones holding it open, so on a loaded machine (CI runs 16 tests at once on 2 cores)
        // a wait can pass the default 60 s without anything being wrong: the watchdog here allows 10 minutes.
        let store = try await PostgresStore(url: try TestDatabases.fresh(), create: true, maximumConnections: 24,
                                            statementTimeout: .seconds(600))
        let regions = [try PostgresImportTests.rectangle("A", .allowed, 10, 10, 390, 290)]
        for index in 0..<8 {
            var new = NewDrawing(name: "D\(index)", imagePath: "/nowhere/D\(index).png")
            new.imageBytes = PostgresDrawingTests.png
            _ = try await store.addDrawing(new, regions: regions)
        }
        var generator = SeededGenerator()
        let seed = generator.seed
        // How many of the reader's reads each transaction waits for, drawn before the tasks start from the one seeded generator.
        let holds = (0..<8).map { _ in (0..<6).map { _ in Int.random(in: 0...2, using: &generator) } }
        let finished = Finished()
        let writing = Task {
            defer { finished.done.withLock { $0 = true } }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, times) in holds.enumerated() {
                    group.addTask {
                        for reads in times {
                            try await store.writeOrRollBack(drawing: "D\(index)") { transaction, drawing in
                                try await PostgresStore.feedEvent(transaction, .drawingCalibrated, drawing: drawing!)
                                // The transaction stays open after its cursor was taken until the reader has read `reads` more
                                // times (an event the reader signals; the task suspends, holding no thread).
                                await finished.waitForReads(reads)
                                return ((), commit: true)
                            }
                        }
                    }
                    group.addTask {
                        for step in 0..<6 {
                            _ = try await store.addMarker(to: "D\(index)", at: PixelPoint(x: Double(20 + step), y: 20), note: nil, author: nil)
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        var seen: Int64 = 0
        var reads = 0
        var done = false
        while !done {
            done = finished.done.withLock { $0 }
            let page = try await store.changes(since: seen, drawing: nil, limit: 50)
            for change in page.changes {
                #expect(change.cursor > seen, "seed \(seed): cursor \(change.cursor) after \(seen)")
                seen = change.cursor
            }
            reads += 1
            finished.read()
        }
        try await writing.value
        var all: [Change] = []
        var cursor: Int64 = 0
        while true {
            let page = try await store.changes(since: cursor, drawing: nil, limit: 1000)
            all += page.changes
            cursor = page.next
            if !page.more { break }
        }
        #expect(all.filter { $0.kind == .drawingCalibrated }.count == 8 * 6, "seed \(seed)")
        #expect(all.filter { $0.kind == .upsert }.count == 8 * 6)
        #expect(all.filter { $0.kind == .drawingAdded }.count == 8)
        #expect(Set(all.map(\.cursor)).count == all.count)
        #expect(reads > 1)
    }
}

/// Set when the writers are done (read by the reader between its reads).
final class Finished: Sendable {
    let done = Mutex(false)
    /// How many times the reader has read the feed, and the writers waiting for a count.
    private let reads = Mutex((count: 0, waiters: [(target: Int, continuation: CheckedContinuation<Void, Never>)]()))

    /// Counts one read of the reader's and resumes the writers waiting for it.
    func read() {
        let ready = reads.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count += 1
            let count = state.count
            defer { state.waiters.removeAll { $0.target <= count } }
            return state.waiters.filter { $0.target <= count }.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }

    /// Returns when the reader has read `more` more times.
    func waitForReads(_ more: Int) async {
        guard more > 0 else { return }
        await withCheckedContinuation { continuation in
            reads.withLock { state in state.waiters.append((state.count + more, continuation)) }
        }
    }
}
