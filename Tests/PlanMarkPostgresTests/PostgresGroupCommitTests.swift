import PlanMarkFormats
import PlanMarkGeometry
@testable import PlanMarkPostgres
import PlanMarkStore
import PlanMarkStoreTestSupport
import Testing

/// Marker additions to one drawing that arrive together are committed together (`PostgresStore.addMarkers`), and
/// one refused or conflicting addition spoils nothing for the others.
@Suite(.enabled(if: TestDatabases.required, "no PostgreSQL test cluster (PLANMARK_TEST_POSTGRES) and not CI"))
struct PostgresGroupCommitTests {
    static let twin = MarkerUUID(text: "0b7c6a52-8d1e-4f3a-9b2c-5d6e7f8a9b0c")!

    /// A session of the test in a transaction that holds drawing A's row: additions to A wait (and go into one batch)
    /// until it rolls back.
    static func holdingDrawingA(_ url: PostgresURL) throws -> HeldSession {
        let held = try HeldSession(url)
        try held.query("BEGIN")
        try held.query("SELECT id FROM drawing WHERE name = 'A' FOR UPDATE")
        return held
    }

    /// Nine additions wait while a session of the test holds drawing A's row: once it lets go, they are stored in one
    /// transaction (the batch is taken when the lock is granted), where one transaction each would make seven. The one outside the allowed area is refused and takes no number; the second
    /// of two with one uuid gets the first's marker.
    @Test func additionsThatArriveTogetherAreCommittedTogether() async throws {
        let (store, url) = try await PostgresMarkerTests.storeWithDrawing()
        let held = try Self.holdingDrawingA(url)
        defer { held.close() }
        let twin = NewMarker(position: PixelPoint(x: 300, y: 250), uuid: Self.twin, note: "twin")
        let items = [NewMarker(position: PixelPoint(x: 60, y: 70), note: "in R1"), twin,
                     NewMarker(position: PixelPoint(x: 5, y: 5), note: "outside the allowed area")]
            + (0..<5).map { NewMarker(position: PixelPoint(x: 200 + Double($0), y: 200)) } + [twin]
        let tasks = items.map { item in Task { try await store.addMarker(to: "A", item, author: "ana") } }
        await store.additions.whenPending(items.count, for: "A")
        try held.query("ROLLBACK")
        var created: [Marker] = []
        var twins: [MarkerCreation] = []
        for (item, task) in zip(items, tasks) {
            switch await task.result {
            case .success(let made) where item.uuid == Self.twin: twins.append(made)
            case .success(let made): created.append(made.marker)
            case .failure(let error):
                #expect(item.position == PixelPoint(x: 5, y: 5) && error as? StoreError == .invalidMarker(reason: .outsideAllowedArea, position: item.position))
            }
        }
        #expect(twins.map(\.created).sorted { !$0 && $1 } == [false, true])
        #expect(twins.count == 2 && twins[0].marker == twins[1].marker && twins[0].marker.note == "twin")
        created.append(twins[0].marker)
        #expect(created.count == 7 && Set(created.map(\.number)) == Set(1...7))
        #expect(created.first { $0.note == "in R1" }?.rooms == ["R1"])
        #expect(try await store.drawingRecord(named: "A").nextNumber == 8)
        #expect(try await store.history(of: "A", number: nil).filter { $0.action == .created }.count == 7)
        let markerTransactions = Int(try held.query("SELECT count(DISTINCT xmin::text)::text FROM marker")[0] ?? "") ?? 0
        let historyTransactions = Int(try held.query("SELECT count(DISTINCT xmin::text)::text FROM history")[0] ?? "") ?? 0
        let rows = try held.query("SELECT xmin::text || ' ' || number FROM marker ORDER BY number")
        #expect(markerTransactions == 1 && historyTransactions == 1, "marker rows (xmin, number): \(rows)")
        // Stored as one at a time stores them: every field read back as it was sent.
        for marker in created { #expect(try await store.marker(marker.number, in: "A") == marker) }
    }

    /// A batch with an item the store has already (sent again, by uuid): the batch's statement names it and writes
    /// nothing, and the others are stored by a second statement of the same transaction, numbered in arrival order
    /// without a gap; the item sent again is answered with the stored marker.
    @Test func anItemSentAgainInABatchTakesNoNumber() async throws {
        let (store, url) = try await PostgresMarkerTests.storeWithDrawing()
        let again = NewMarker(position: PixelPoint(x: 300, y: 250), uuid: Self.twin, note: "sent twice")
        let first = try await store.addMarker(to: "A", again, author: "ana")
        #expect(first.created && first.marker.number == 1)
        let held = try Self.holdingDrawingA(url)
        defer { held.close() }
        let items = [NewMarker(position: PixelPoint(x: 60, y: 70), note: "before"), again,
                     NewMarker(position: PixelPoint(x: 200, y: 200), note: "after")]
        let tasks = items.map { item in Task { try await store.addMarker(to: "A", item, author: "ana") } }
        await store.additions.whenPending(items.count, for: "A")
        try held.query("ROLLBACK")
        let answers = try await [tasks[0].value, tasks[1].value, tasks[2].value]
        #expect(answers[0].created && answers[0].marker.number == 2 && answers[0].marker.note == "before")
        #expect(!answers[1].created && answers[1].marker == first.marker)
        #expect(answers[2].created && answers[2].marker.number == 3 && answers[2].marker.note == "after")
        #expect(try await store.drawingRecord(named: "A").nextNumber == 4)
        #expect(try held.query("SELECT string_agg(number::text, ',' ORDER BY number) FROM marker")[0] == "1,2,3")
        #expect(try await store.history(of: "A", number: nil).filter { $0.action == .created }.map(\.number) == [1, 2, 3])
    }

    /// Text that JSON must escape and numbers without a short decimal form, committed in one batch (the rows go to
    /// PostgreSQL as JSON, `jsonb_to_recordset`), read back exactly as they were sent.
    @Test func aBatchStoresEveryFieldExactly() async throws {
        let (store, url) = try await PostgresMarkerTests.storeWithDrawing()
        let held = try Self.holdingDrawingA(url)
        defer { held.close() }
        let awkward = "a \"quote\", a back\\slash, a /, a new\nline, a\ttab, \u{1}\u{1F}, é, 中, 🏗"
        let items = [
            NewMarker(position: PixelPoint(x: 0.1 + 0.2 + 100, y: 100.0 / 3.0 + 50), uuid: MarkerUUID(text: "1e4c8f0a-2b3d-4e5f-8a9b-0c1d2e3f4a5b"),
                      ref: awkward, status: .inProgress, note: awkward, category: "Dry\"wall", priority: .critical, assignee: "crew \\ 7",
                      due: DueDate(text: "2027-02-28"), capturedAt: CaptureTime(text: "2026-11-20T09:41:07.250+01:00")),
            NewMarker(position: PixelPoint(x: 389.99999999999994, y: 10.000000000000002), note: "\u{7F}\u{2028}"),
            NewMarker(position: PixelPoint(x: 1e-7 + 200, y: 123_456.0 / 1_000.0)),
        ]
        let tasks = items.map { item in Task { try await store.addMarker(to: "A", item, author: awkward) } }
        await store.additions.whenPending(items.count, for: "A")
        try held.query("ROLLBACK")
        var created: [Marker] = []
        for task in tasks { created.append(try await task.value.marker) }
        #expect(Int(try held.query("SELECT count(DISTINCT xmin::text)::text FROM marker")[0] ?? "") == 1)
        for (item, marker) in zip(items, created) {
            let stored = try await store.marker(marker.number, in: "A")
            #expect(stored == marker)
            #expect(stored.position == item.position && stored.note == item.note && stored.ref == item.ref && stored.author == awkward)
            #expect(stored.category == item.category && stored.assignee == item.assignee && stored.due == item.due
                    && stored.capturedAt == item.capturedAt && stored.status == item.status && stored.priority == item.priority)
            if let uuid = item.uuid { #expect(stored.uuid == uuid) }
            let entry = try #require(try await store.history(of: "A", number: marker.number).first)
            #expect(entry.action == .created && entry.author == awkward)
            if let note = item.note { #expect(entry.new?.note == .set((note))) }
        }
    }

    /// A batch whose insert meets a uuid that another drawing's writer stored meanwhile (after the batch's statement
    /// took its snapshot, in which the uuid is not stored) is rolled back and its additions run alone: that one is a
    /// `uuidConflict`, the other is stored with the number the rolled-back batch had given it, and no number is lost.
    ///
    /// The other writer is played inside the batch's own insert, so that nothing has to be waited for: a trigger that,
    /// as the clashing row is about to go into A, commits the same uuid into B on a connection of its own (dblink).
    @Test func aConcurrentWriterOfAUUIDSpoilsNothingForTheRest() async throws {
        let (store, url) = try await PostgresMarkerTests.storeWithDrawing()
        _ = try await PostgresMarkerTests.storeWithDrawing(url, name: "B")
        let setup = try HeldSession(url)
        defer { setup.close() }
        let b = try #require(try setup.query("SELECT id::text FROM drawing WHERE name = 'B'").first ?? nil)
        let other = "host=\(url.host ?? url.socketFolder ?? "localhost") port=\(url.port) user=\(url.user) dbname=\(url.database)"
        try setup.query("CREATE EXTENSION IF NOT EXISTS dblink")
        try setup.query("""
            CREATE FUNCTION other_writer() RETURNS trigger LANGUAGE plpgsql AS $f$
            BEGIN
                PERFORM dblink_exec('\(other)', 'INSERT INTO marker (drawingId, number, x, y, createdAt, uuid) '
                    || 'VALUES (\(b), 1, 100, 100, 0, ''\(Self.twin.text)''); UPDATE drawing SET nextNumber = 2 WHERE id = \(b)');
                RETURN NEW;
            END $f$
            """)
        try setup.query("""
            CREATE TRIGGER other_writer BEFORE INSERT ON marker FOR EACH ROW
            WHEN (NEW.uuid = '\(Self.twin.text)' AND NEW.drawingId <> \(b)) EXECUTE FUNCTION other_writer()
            """)
        // Both additions wait for A's row, then go into one batch.
        let held = try Self.holdingDrawingA(url)
        defer { held.close() }
        let clash = Task {
            try await store.addMarker(to: "A", NewMarker(position: PixelPoint(x: 60, y: 70), uuid: Self.twin), author: nil)
        }
        await store.additions.whenPending(1, for: "A")
        let plain = Task {
            try await store.addMarker(to: "A", NewMarker(position: PixelPoint(x: 70, y: 70)), author: nil)
        }
        await store.additions.whenPending(2, for: "A")
        try held.query("ROLLBACK")
        await #expect(throws: StoreError.uuidConflict(uuid: Self.twin, drawing: "B", number: 1)) { try await clash.value }
        let stored = try await plain.value
        #expect(stored.created && stored.marker.number == 1 && stored.marker.rooms == ["R1"])
        #expect(try await store.drawingRecord(named: "A").nextNumber == 2)
        #expect(try await store.history(of: "A", number: nil).map(\.number) == [1])
        // The trigger ran: B holds the uuid, written by the other connection.
        #expect(try setup.query("SELECT m.number::text FROM marker m JOIN drawing d ON d.id = m.drawingId WHERE d.name = 'B' AND m.uuid = '\(Self.twin.text)'") == ["1"])
    }

    /// The batch's insert is prepared once per connection, and PostgreSQL keeps the plan it makes for it: one made
    /// while the marker table was empty (a new database) would read the whole table to look the batch's uuids up, and
    /// go on doing so as it grows. In the batch's transaction (after its lock statement) the plan searches the uuid
    /// index, also on an empty table; outside it, the same plan reads the table (the control: what the lock statement's
    /// `enable_seqscan` prevents).
    @Test func theBatchsKeptPlanSearchesTheUUIDIndexFromTheStart() async throws {
        let (_, url) = try await PostgresMarkerTests.storeWithDrawing()
        let session = try HeldSession(url)
        defer { session.close() }
        #expect(try session.query("SELECT count(*)::text FROM marker") == ["0"])
        // The plan PostgreSQL keeps for a prepared statement (a generic plan), made now rather than after five runs.
        try session.query("SET plan_cache_mode = force_generic_plan")
        let explain = "EXPLAIN EXECUTE insert_created('[]', '{}', 1, 1, 'h', 1)"
        func plan(afterLock: Bool) throws -> String {
            try session.query("PREPARE insert_created AS " + InsertCreatedStatement.sql)
            defer { _ = try? session.query("DEALLOCATE insert_created") }
            try session.query("BEGIN")
            defer { _ = try? session.query("ROLLBACK") }
            if afterLock {
                try session.query("PREPARE lock_for_batch AS " + LockForBatchStatement.sql)
                defer { _ = try? session.query("DEALLOCATE lock_for_batch") }
                try session.query("EXPLAIN ANALYZE EXECUTE lock_for_batch('A')")
            }
            return try session.query(explain).compactMap { $0 }.joined(separator: "\n")
        }
        let control = try plan(afterLock: false)
        #expect(control.contains("Seq Scan on marker"), "\(control)")
        let batch = try plan(afterLock: true)
        #expect(!batch.contains("Seq Scan on marker") && batch.contains("marker_uuid"), "\(batch)")
    }
}
