import PlanMarkGeometry
import PlanMarkPostgres
import PlanMarkStore
import PlanMarkStoreTestSupport
import Testing

/// The PostgreSQL store's pool gauges (`connectionUsage`, served by `GET /metrics` as `planmark_store_connections_*`):
/// a call holding one of the pool's connections is in use, a call asking for one while none is free is waiting.
@Suite(.enabled(if: TestDatabases.required, "no PostgreSQL test cluster (PLANMARK_TEST_POSTGRES) and not CI"), .hangGuard)
struct PostgresConnectionGaugeTests {
    @Test func aHeldTransactionIsInUseAndACallBehindItWaits() async throws {
        let (store, _) = try await PostgresMarkerTests.storeWithDrawing(maximumConnections: 1)
        #expect(store.connectionUsage == ConnectionUsage(inUse: 0, waiting: 0, maximum: 1))
        let gate = Gate()
        let holder = Task {
            try await store.write(drawing: "A") { _, drawing in
                await gate.arrive()
                await gate.waitForRelease()
                return drawing?.name
            }
        }
        await gate.arrived()
        #expect(store.connectionUsage == ConnectionUsage(inUse: 1, waiting: 0, maximum: 1))
        let behind = Task { try await store.drawings().count }
        // The second call counts as waiting as soon as it asks the pool for a connection; no event says when that is.
        while store.connectionUsage.waiting < 1 { await Task.yield() }
        #expect(store.connectionUsage == ConnectionUsage(inUse: 1, waiting: 1, maximum: 1))
        await gate.release()
        #expect(try await holder.value == "A")
        #expect(try await behind.value == 1)
        #expect(store.connectionUsage == ConnectionUsage(inUse: 0, waiting: 0, maximum: 1))
    }
}

/// Where the holding transaction stops until the test releases it.
private actor Gate {
    private var hasArrived = false
    private var released = false
    private var arrival: CheckedContinuation<Void, Never>?
    private var release_: CheckedContinuation<Void, Never>?

    func arrive() {
        hasArrived = true
        arrival?.resume()
        arrival = nil
    }

    func arrived() async {
        if hasArrived { return }
        await withCheckedContinuation { arrival = $0 }
    }

    func waitForRelease() async {
        if released { return }
        await withCheckedContinuation { release_ = $0 }
    }

    func release() {
        released = true
        release_?.resume()
        release_ = nil
    }
}
