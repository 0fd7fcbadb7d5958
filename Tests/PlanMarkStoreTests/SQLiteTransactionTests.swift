import PlanMarkFormats
import PlanMarkGeometry
import Testing
@testable import PlanMarkStore
@testable import PlanMarkSQLite

/// SQLite's write transactions over the primitives (`SQLiteStore.writeOrRollBack(drawing:)`, `SQLiteTransaction`):
/// they run on GRDB's writer, and one that leaves it (awaiting something else) keeps every other write out until it ends.
@Suite struct SQLiteTransactionTests {
    @Test func aTransactionRunsOnTheWriterAndItsWritesAreSeenByItsReads() async throws {
        let (store, _) = try await StoreFixtures.sqliteStoreWithDrawing()
        let number = try await store.write(drawing: "A") { transaction, drawing in
            #expect(transaction.isOnWriter)
            var drawing = try #require(drawing)
            drawing.nextNumber = 41
            try await transaction.update(drawing)
            return try #require(try await transaction.drawing(id: drawing.id!)).nextNumber
        }
        #expect(number == 41)
        #expect(try await store.drawingRecord(named: "A").nextNumber == 41)
    }

    @Test func aThrownErrorRollsBackAndTheNextTransactionRuns() async throws {
        let (store, _) = try await StoreFixtures.sqliteStoreWithDrawing()
        struct Refusal: Error {}
        await #expect(throws: StoreError.self) {
            try await store.write(drawing: "A") { transaction, drawing in
                var drawing = try #require(drawing)
                drawing.nextNumber = 500
                try await transaction.update(drawing)
                throw Refusal()
            }
        }
        #expect(try await store.drawingRecord(named: "A").nextNumber == 1)
        #expect(try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 50), note: nil, author: nil).number == 1)
    }

    @Test func aTransactionThatLeavesTheWriterKeepsOtherWritesOutUntilItCommits() async throws {
        let (store, _) = try await StoreFixtures.sqliteStoreWithDrawing()
        let away = Away()
        let first = Task {
            try await store.write(drawing: "A") { transaction, drawing in
                var drawing = try #require(drawing)
                drawing.nextNumber = 101
                try await transaction.update(drawing)
                await away.wait()   // an actor's work: the task leaves the writer, its transaction open
                #expect(try await transaction.drawing(id: drawing.id!)?.nextNumber == 101)
                return drawing.nextNumber
            }
        }
        await away.arrived()
        // Another write now waits for the lock (it would otherwise begin inside the open transaction and fail).
        let (ended, end) = AsyncStream.makeStream(of: Void.self)
        let second = Task {
            defer { end.yield() }
            return try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 50), note: nil, author: nil)
        }
        // Whichever comes first: the second write waits for the lock (right), or it ends (inside the open transaction).
        let waitedFirst = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await waiting in store.writerLock.waits where waiting == 1 { return true }
                return false
            }
            group.addTask {
                for await _ in ended { return false }
                return false
            }
            let first = await group.next()!
            group.cancelAll()
            return first
        }
        #expect(waitedFirst)
        await away.release()
        #expect(try await first.value == 101)
        #expect(try await second.value.number == 101)
        #expect(try await store.drawingRecord(named: "A").nextNumber == 102)
    }

    @Test func waitersGetTheLockInArrivalOrder() async throws {
        let lock = WriterLock()
        let order = Order()
        await lock.lock()
        var tasks: [Task<Void, Never>] = []
        for k in 1...3 {
            tasks.append(Task {
                await lock.lock()
                await order.append(k)
                lock.unlock()
            })
            for await waiting in lock.waits where waiting == k { break }
        }
        lock.unlock()
        for task in tasks { await task.value }
        #expect(await order.values == [1, 2, 3])
    }
}

/// Where a transaction's task waits off the writer until released.
private actor Away {
    private var released = false
    private var waiter: CheckedContinuation<Void, Never>?
    private var arrival: CheckedContinuation<Void, Never>?
    private var hasArrived = false

    func wait() async {
        hasArrived = true
        arrival?.resume()
        arrival = nil
        if released { return }
        await withCheckedContinuation { waiter = $0 }
    }

    func arrived() async {
        if hasArrived { return }
        await withCheckedContinuation { arrival = $0 }
    }

    func release() {
        released = true
        waiter?.resume()
        waiter = nil
    }
}

private actor Order {
    var values: [Int] = []
    func append(_ value: Int) { values.append(value) }
}
