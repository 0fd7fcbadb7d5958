import PlanMarkFormats
import PlanMarkGeometry

/// What a back end supplies so that the store's write use cases can be written once, above it: a write transaction and
/// the row primitives it offers (`StoreTransaction`). The use cases themselves (`StoreBackend+Markers.swift`,
/// `+Attachments`, `+Drawings`, `+Regions`) know no SQL: they read rows, apply `StoreRules` and `MarkerEdit`, and write
/// rows and history entries through these primitives, so every rule and refusal stands once for every back end.
///
/// A back end gives its own `AnnotationStore` methods where it has a faster path of its own (PostgreSQL commits
/// concurrent additions to one drawing together; each back end has its bulk import) and for its reads, which are
/// single queries; those call the same rules.
public protocol StoreBackend: AnnotationStore {
    /// One write transaction's primitives.
    associatedtype Transaction: StoreTransaction

    /// Runs `body` in a write transaction that commits when `body` says so and rolls back when it does not or throws.
    /// With `drawing`, no other writer of that drawing runs until the end (SQLite: no other writer at all; PostgreSQL:
    /// the drawing's row lock), and `body` is given it as read under that lock (nil when there is none).
    func writeOrRollBack<T>(drawing name: String?, _ body: (Transaction, Drawing?) async throws -> (T, commit: Bool)) async throws(StoreError) -> T

    /// Validators by drawing, kept between transactions while a drawing's regions revision is unchanged.
    var validators: ValidatorCache { get }

    /// The rows of `table` whose columns equal `match`'s values (every row when `match` is empty), in key order, read
    /// outside any write transaction: one statement, so one snapshot.
    /// - Complexity: as `StoreTransaction.rows(of:where:)`.
    func rows(of table: StoreTable, where match: [(String, StoreValue)]) async throws(StoreError) -> [[StoreValue]]
}

extension StoreBackend {
    /// `writeOrRollBack` that commits when `body` returns. Under a client's key (`IdempotentWrite.current`) the key is
    /// looked up first (a request seen before is replayed, not made again) and kept with the answer before the commit.
    public func write<T>(drawing name: String?, _ body: (Transaction, Drawing?) async throws -> T) async throws(StoreError) -> T {
        guard let keyed = IdempotentWrite.current else {
            return try await writeOrRollBack(drawing: name) { transaction, drawing in (try await body(transaction, drawing), commit: true) }
        }
        return try await writeOrRollBack(drawing: name) { transaction, drawing in
            let now = Timestamp.now()
            try await Self.replayIfSeen(transaction, keyed, now: now)
            let result = try await body(transaction, drawing)
            try await Self.remember(transaction, keyed, result: result, now: now)
            return (result, commit: true)
        }
    }
}

/// The row primitives of one write transaction. Each reads or writes what its name says and nothing else; what to
/// write, and every refusal, is the use case's (`StoreBackend`). Calls run one at a time, in the order made, and each
/// sees what the ones before it wrote.
public protocol StoreTransaction {
    // MARK: Reads

    /// The drawing with row id `id`, or nil.
    /// - Complexity: O(log d) for d drawings.
    func drawing(id: Int64) async throws -> Drawing?
    /// Whether a drawing is named `name`.
    /// - Complexity: O(log d).
    func drawingExists(named name: String) async throws -> Bool
    /// The drawing whose store-made uuids (`DerivedUUID`) have the seed `seed`, or nil.
    /// - Complexity: O(d) at worst (the seed has no index: it is looked for only for a uuid of the store's own form).
    func drawing(uuidSeed seed: Int64) async throws -> Drawing?
    /// Marker `number` of `drawing`, or nil.
    /// - Complexity: O(log n) for the drawing's n markers.
    func marker(_ number: Int, of drawing: Drawing) async throws -> Marker?
    /// Where the marker with a client's `uuid` is (by the uuid index), or nil; store-made uuids are not stored.
    /// - Complexity: O(log N) for the store's N markers.
    func markerWith(uuid: MarkerUUID) async throws -> (drawingID: Int64, number: Int)?
    /// Every marker of `drawing`, by number.
    /// - Complexity: O(n), all in memory: for the one marker of a single-marker drawing.
    func markers(of drawing: Drawing) async throws -> [Marker]
    /// Calls `body` with the number, position and rooms of every marker of `drawing`, by number, streamed.
    /// - Complexity: O(n), O(1) memory.
    func forEachPlacement(of drawing: Drawing, _ body: (_ number: Int, _ position: PixelPoint, _ rooms: [String]) -> Void) async throws
    /// Marker `number`'s history entries, oldest first: its own, and the import range that created it.
    /// - Complexity: O(log h + e) for the drawing's h entries and the marker's e.
    func historyEntries(drawingID: Int64, number: Int) async throws -> [HistoryEntry]
    /// The drawing's regions, in file order.
    /// - Complexity: O(r) for its r regions.
    func regions(drawingID: Int64) async throws -> [Region]
    /// Attachment `id` of marker `number`, or nil.
    /// - Complexity: O(log a).
    func attachment(_ id: Int64, drawingID: Int64, number: Int) async throws -> Attachment?
    /// Every marker's number, position, rooms (JSON text) and `needsPlacement`, by number.
    /// - Complexity: O(n), all in memory.
    func placements(of drawing: Drawing) async throws -> [Placement]
    /// How many markers and attachments the drawing has.
    /// - Complexity: O(n + a).
    func counts(drawingID: Int64) async throws -> (markers: Int, attachments: Int)

    // MARK: Writes

    /// Inserts a new drawing (its counter at 1, its regions revision 0); its row id, or nil when the name is taken.
    /// - Complexity: O(log d).
    func insert(_ drawing: Drawing) async throws -> Int64?
    /// Stores image bytes under their SHA-256 unless they are there.
    /// - Complexity: O(size).
    func storeImage(sha256: String, bytes: [UInt8]) async throws
    /// Inserts the drawing's revision row.
    /// - Complexity: O(log r).
    func insert(_ revision: Revision, drawingID: Int64) async throws
    /// Writes each placement's new position, rooms and `needsPlacement` (`updatedAt` `at`, one more version, the cursor
    /// `firstCursor` + its index), in the placements' order: each back end's bulk path.
    /// - Complexity: O(m log n) for m placements.
    func writePlacements(_ placements: [Placement], drawingID: Int64, at: Timestamp, firstCursor: Int64) async throws
    /// Writes the drawing's changeable columns (name, counter, regions revision, scale, revision and image).
    /// - Complexity: O(log d).
    func update(_ drawing: Drawing) async throws
    /// Inserts `marker`; false when another marker has its uuid already (nothing inserted).
    /// - Complexity: O(log N).
    func insert(_ marker: Marker) async throws -> Bool
    /// Writes every changeable column of `marker` (all but its keys, uuid and creation time).
    /// - Complexity: O(log n).
    func update(_ marker: Marker) async throws
    /// Sets the rooms of the markers `changes` names, with `updatedAt` `at`, one more version and the cursor `firstCursor`
    /// + the change's index.
    /// - Complexity: O(k log n) for k changes.
    func setRooms(_ changes: [(number: Int, rooms: [String])], drawingID: Int64, at: Timestamp, firstCursor: Int64) async throws
    /// Deletes the marker's row (not its attachments: `deleteAttachments`).
    /// - Complexity: O(log n).
    func delete(_ marker: Marker) async throws
    /// The history chain's head: the last entry's hash (`HistoryChain`), `HistoryChain.genesis` before the first.
    /// PostgreSQL locks it until the transaction ends, so that the store's writers of history entries take turns from
    /// here to their commit and each chains after the one before (SQLite's writers take turns anyway).
    /// - Complexity: O(1).
    func historyHead() async throws -> String
    /// Takes `count` (at least 1) new cursors of the change feed (`ChangeFeed.swift`); the first (they are consecutive).
    /// The counter's row is locked until the transaction ends (PostgreSQL; SQLite's writers take turns anyway), so a
    /// transaction that commits later has higher cursors than every one committed before it.
    /// - Complexity: O(1).
    func takeCursors(_ count: Int) async throws -> Int64
    /// Appends `rows`, in order, with their hashes (`HistoryChain.link` after `historyHead()`), and makes the last
    /// one's hash the head; the last row's id (ids ascend in the chain's order).
    /// - Complexity: O(k log h) for k rows.
    func append(_ rows: [HistoryRow]) async throws -> Int64
    /// Stores `bytes` under their SHA-256 unless they are there, and the attachment row; its id.
    /// - Complexity: O(size).
    func insertAttachment(_ attachment: Attachment, bytes: [UInt8]) async throws -> Int64
    /// Deletes the attachment and its bytes when no other attachment has them.
    /// - Complexity: O(log a) for the store's a attachments.
    func delete(_ attachment: Attachment) async throws
    /// Deletes the attachments of markers `numbers` of a drawing, and bytes no longer used.
    /// - Complexity: O(k log a) for k numbers.
    func deleteAttachments(drawingID: Int64, numbers: [Int]) async throws
    /// Replaces the drawing's regions by `regions` (file order).
    /// - Complexity: O(r log R) for its r new regions.
    func replaceRegions(drawingID: Int64, with regions: [Region]) async throws
    /// Deletes the drawing with its regions, markers, revisions and attachments (not its history: the chain goes through it), and the images and
    /// attachment bytes nothing else uses.
    /// - Complexity: O(n + h + a + r) for its markers, history entries, attachments and revisions.
    func delete(_ drawing: Drawing) async throws

    // MARK: Rows of the team's tables (`StoreTables.project`, `account`, `member`, `token`)

    /// The rows of `table` whose columns equal `match`'s values (every row when `match` is empty), in key order; the
    /// values of `table.columns`.
    /// - Complexity: O(log R + k) for k rows found through an index on `match`'s columns (every team lookup has one).
    func rows(of table: StoreTable, where match: [(String, StoreValue)]) async throws -> [[StoreValue]]
    /// Inserts `row` (the values of `table.columns`; an identity table's `id` given as `.null` gets the next one); the
    /// row's id (0 for a table without one), or nil when a unique key has such a row already (nothing inserted).
    /// - Complexity: O(log R).
    func insert(_ row: [StoreValue], into table: StoreTable) async throws -> Int64?
    /// Sets `values` on the rows of `table` that `match` names; how many there were.
    /// - Complexity: O(log R + k).
    func update(_ table: StoreTable, set values: [(String, StoreValue)], where match: [(String, StoreValue)]) async throws -> Int
    /// Deletes the rows of `table` that `match` names; how many there were.
    /// - Complexity: O(log R + k).
    func delete(from table: StoreTable, where match: [(String, StoreValue)]) async throws -> Int
    /// Deletes at most `limit` rows of `table` whose `column` is below `value` (any such rows; on PostgreSQL, rows another
    /// transaction holds are skipped, not waited for); how many there were.
    /// - Complexity: O(log R + limit) through an index on `column`.
    func deleteBelow(from table: StoreTable, column: String, value: StoreValue, limit: Int) async throws -> Int
}
