import Foundation
import PlanMarkGeometry
import PlanMarkStore
import PostgresNIO

/// One `addMarker` call waiting for its batch.
struct MarkerAddition: Sendable {
    let new: NewMarker
    let author: String?
}

extension PostgresStore {
    /// Stores a batch of additions to drawing `name` in one transaction and answers each, in the batch's order.
    ///
    /// The batch is taken (`take`) once the drawing's row lock is granted, so that it carries every addition that
    /// arrived while this server waited for the lock (another server's batch of the drawing held it). Then, under the
    /// lock, each position is validated, the valid ones are numbered in arrival order from the drawing's counter, and
    /// one statement looks the batch's uuids up and, when the store has none of them, inserts the markers and their
    /// `created` history entries and moves the counter past them. When it has some (an item sent again), that
    /// statement inserts nothing and names them, and a second one stores the rest, numbered again without them. A
    /// refused addition (outside the allowed area) is answered with its refusal and takes no number; the others are
    /// stored all the same.
    ///
    /// Taken out of the batch and run alone afterwards, each in a transaction of its own (`placeMarker`): a uuid
    /// the store has already (its answer is the stored marker or `uuidConflict`), a uuid in the store-made form, the
    /// second of two additions with one uuid, and every addition to a single-marker drawing. When the insert meets a
    /// marker another drawing's writer stored with one of the batch's uuids meanwhile, the batch is rolled back and
    /// each of its additions runs alone. An error of the transaction itself (the database unreachable, the drawing
    /// unknown) is every addition's answer: nothing of the batch was stored.
    ///
    /// The locks are released when the batch commits, before its commit is flushed; each addition is answered after the
    /// flush (`writeOrRollBack(releaseLocksBeforeFlush:)`).
    /// - Complexity: O(k log n) for k additions, plus O(region vertices) when the regions changed since this process
    ///   last validated on the drawing; four round trips under the locks or before them (BEGIN, the locks of the drawing
    ///   and the history's head, the insert, COMMIT), five when a uuid of the batch is stored already, and one after them
    ///   (the flush). The lock and the insert are prepared once per connection (`MarkerBatchStatements.swift`).
    func addMarkers(to name: String, take: @Sendable () -> [MarkerAddition]) async -> [Result<MarkerCreation, StoreError>] {
        var taken: [MarkerAddition]? = nil
        var answers: [Result<MarkerCreation, StoreError>?]
        do {
            answers = try await writeOrRollBack(lockDrawing: nil, releaseLocksBeforeFlush: true) { connection, logger, _ in
                let (drawing, head) = try await Self.lockDrawingAndHistoryHead(connection, named: name, logger: logger)
                let batch = taken ?? take()   // once, also when a deadlock runs the transaction again
                taken = batch
                let alone = [Result<MarkerCreation, StoreError>?](repeating: nil, count: batch.count)
                if drawing.singleMarker { return (alone, commit: false) }
                guard let answers = try await self.storeBatch(batch, drawing: drawing, head: head, connection: connection, logger: logger) else {
                    return (alone, commit: false)
                }
                return (answers, commit: true)
            }
        } catch {
            let batch = taken ?? take()
            return batch.map { _ in .failure(error) }
        }
        let batch = taken!
        for index in answers.indices where answers[index] == nil {
            do {
                answers[index] = .success(try await placeMarker(in: name, batch[index].new, author: batch[index].author))
            } catch {
                answers[index] = .failure(error)
            }
        }
        return answers.map { $0! }
    }

    /// The batch's part of `addMarkers`, in its transaction: the answers (nil for an addition to run alone), or nil
    /// when the insert met a concurrent writer of one of its uuids (the caller rolls back).
    private func storeBatch(_ batch: [MarkerAddition], drawing: Drawing, head: HistoryHeadRow, connection: PostgresConnection,
                            logger: Logger) async throws -> [Result<MarkerCreation, StoreError>?]? {
        let validator = try await validator(PostgresTransaction(connection: connection, logger: logger), for: drawing)
        var stored = Set<String>()
        // At most twice: the first insert names the batch's uuids that the store has already, if any (and inserts
        // nothing); the second leaves them out.
        for _ in 0..<2 {
            var answers = [Result<MarkerCreation, StoreError>?](repeating: nil, count: batch.count)
            var seen = Set<String>()
            var created: [(index: Int, marker: Marker)] = []
            var number = drawing.nextNumber
            for (index, addition) in batch.enumerated() {
                if let uuid = addition.new.uuid {
                    guard !stored.contains(uuid.text), DerivedUUID.parts(of: uuid) == nil, seen.insert(uuid.text).inserted else { continue }
                }
                let verdict = validator.validate(addition.new.position)
                if let reason = verdict.reason {
                    answers[index] = .failure(.invalidMarker(reason: reason, position: addition.new.position))
                    continue
                }
                created.append((index, StoreRules.marker(addition.new, number: number, of: drawing, verdict: verdict,
                                                         validator: validator, author: addition.author, at: Timestamp.now())))
                number += 1
            }
            if created.isEmpty { return answers }
            switch try await Self.insertCreated(connection, created.map(\.marker), drawing: drawing, head: head, nextNumber: number,
                                                  logger: logger) {
            case .inserted:
                for (index, marker) in created { answers[index] = .success(MarkerCreation(marker: marker, created: true)) }
                return answers
            case .storedAlready(let uuids):
                stored.formUnion(uuids)
            case .metConcurrentWriter:
                return nil
            }
        }
        // The second insert found a uuid stored after the first (by another drawing's writer): as a conflict.
        return nil
    }

    /// What `insertCreated` did.
    enum CreatedInsert: Equatable {
        /// Every marker, its history entry and the counter were written.
        case inserted
        /// Nothing was written: the store has markers with these of their uuids.
        case storedAlready(Set<String>)
        /// A marker of another drawing got one of their uuids while the statement ran (the unique index waited for its
        /// writer): part of the rows were written and the caller must roll back.
        case metConcurrentWriter
    }

    /// Inserts new `markers` of `drawing` (numbered from its counter on), a `created` history entry each (chained after
    /// `head`, the history head's row, which the transaction holds locked), and sets the counter to `nextNumber`, in one
    /// statement, unless the store has a marker (of any drawing) with one of their uuids: then it writes nothing and
    /// names those uuids. The lookup is part of the statement (one round trip under the drawing's lock, not two).
    /// - Complexity: O(k log n) for k markers.
    static func insertCreated(_ connection: PostgresConnection, _ markers: [Marker], drawing: Drawing, head: HistoryHeadRow,
                              nextNumber: Int, logger: Logger) async throws -> CreatedInsert {
        let drawingID = drawing.id!
        let lastCursor = head.lastCursor
        let history = HistoryChain.link(markers.map { marker in
            HistoryRow(drawingID: drawingID, number: marker.number, lastNumber: nil, action: HistoryAction.created.rawValue,
                       at: marker.createdAt.milliseconds, author: marker.author, oldValue: nil, newValue: marker.state.jsonText)
        }, after: head.hash)
        let rows = String(decoding: try JSONEncoder().encode(zip(markers, history).enumerated().map { index, pair in
            CreatedRow(pair.0, pair.1, cursor: lastCursor + 1 + Int64(index))
        }), as: UTF8.self)
        // The uuids as an array parameter: `uuid = ANY($n)` searches the uuid index (a join with the recordset was planned
        // as a scan of every marker).
        let uuids = markers.compactMap { $0.uuidIsDerived ? nil : $0.uuid.text }
        var inserted = 0
        var stored: [String] = []
        let statement = InsertCreatedStatement(rows: rows, uuids: uuids, nextNumber: nextNumber, drawingID: drawingID,
                                               headHash: history.last!.hash, lastCursor: lastCursor + Int64(markers.count))
        for try await (count, uuids) in try await connection.execute(statement, logger: logger) {
            inserted = count
            stored = uuids
        }
        if !stored.isEmpty { return .storedAlready(Set(stored)) }
        return inserted == markers.count ? .inserted : .metConcurrentWriter
    }
}

/// A new marker as `insertCreated` reads it (`jsonb_to_recordset`: the keys are its column names; an absent key is NULL).
/// Stored as `insertMarker` stores a marker: codes for status and priority, `updatedAt` NULL while it equals
/// `createdAt`, a store-made uuid as NULL.
private struct CreatedRow: Encodable {
    let number: Int
    let x: Double
    let y: Double
    let status: Int64
    let note: String?
    let author: String?
    let rooms: String
    let createdat: Int64
    let updatedat: Int64?
    let uuid: String?
    let ref: String?
    let category: String?
    let priority: Int64
    let assignee: String?
    let due: String?
    let capturedat: String?
    let needsplacement: String?
    let newvalue: String
    let hash: String
    let cursor: Int64

    init(_ marker: Marker, _ history: HistoryRow, cursor: Int64) {
        self.cursor = cursor
        number = marker.number
        x = marker.position.x
        y = marker.position.y
        status = marker.status.storedCode
        note = marker.note
        author = marker.author
        rooms = RoomList.jsonText(marker.rooms)
        createdat = marker.createdAt.milliseconds
        updatedat = marker.updatedAt == marker.createdAt ? nil : marker.updatedAt.milliseconds
        uuid = marker.uuidIsDerived ? nil : marker.uuid.text
        ref = marker.ref
        category = marker.category
        priority = marker.priority.storedCode
        assignee = marker.assignee
        due = marker.due?.text
        capturedat = marker.capturedAt?.text
        needsplacement = marker.needsPlacement
        newvalue = history.newValue!
        hash = history.hash
    }
}

/// The history head's row: the chain's last hash and the feed's last cursor.
struct HistoryHeadRow {
    var hash: String
    var lastCursor: Int64
}

extension PostgresStore {
    /// Locks drawing `name`'s row and the history head's row (`FOR UPDATE`, until the transaction ends) in one round
    /// trip, in the order every writer takes them (the drawing, then the head), and turns `synchronous_commit` off for
    /// the transaction (`writeOrRollBack(releaseLocksBeforeFlush:)`); `unknownDrawing` when there is none.
    /// - Complexity: O(log d) for d drawings.
    static func lockDrawingAndHistoryHead(_ connection: PostgresConnection, named name: String,
                                          logger: Logger) async throws -> (Drawing, HistoryHeadRow) {
        if !name.utf8.contains(0) {
            for try await row in try await connection.execute(LockForBatchStatement(drawingName: name), logger: logger) {
                let cells = row.makeRandomAccess()
                let head = HistoryHeadRow(hash: try cells[LockForBatchStatement.hashColumn].decode(String.self),
                                          lastCursor: try cells[LockForBatchStatement.hashColumn + 1].decode(Int64.self))
                return (try decodeDrawing(row), head)
            }
        }
        throw StoreError.unknownDrawing(name)
    }
}
