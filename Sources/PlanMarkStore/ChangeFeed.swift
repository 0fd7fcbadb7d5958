import PlanMarkFormats

/// The change feed: every change to a marker (created, updated, moved, status, rooms, revision, comment, attachment,
/// removed) and to a drawing (added, renamed, regions, revised, calibrated, removed) gets a cursor, a number that only
/// grows in the order the changes commit, so that a client that has read the changes up to a cursor reads exactly the
/// ones after it next time (`changes(since:)`), none missed, none twice.
///
/// Cursors come from one counter, `historyHead.lastCursor`, taken by the writing transaction (`takeCursors`) and held
/// until it ends: SQLite's writers take turns anyway; on PostgreSQL the counter's row is locked until the commit, so a
/// transaction that commits later always has higher cursors than every one committed before it (a sequence alone would
/// not give that: transactions commit out of the order they took their numbers). It is the row whose lock the history
/// chain already takes, so history writers pay nothing more.
///
/// Where the cursors are kept:
/// - a marker's row has the cursor of its last change (`marker.cursor`); a marker as an import created it has none
///   (NULL): its cursor is its import's (`importRange`: the first cursor of a range as long as the import, in number
///   order), so that an import writes no cursor a row (as the store makes the uuids of imported markers, `DerivedUUID`);
/// - a removed marker and every change of a drawing are rows of `feedEvent` (a removal keeps the marker's number and
///   uuid: the tombstone).
/// A page of changes lists a marker once, at its last change (as CouchDB's `_changes` does).
public enum ChangeKind: String, Hashable, Sendable, CaseIterable {
    /// A marker was created or changed: the change carries the marker as it is now.
    case upsert
    /// A marker was removed: the change carries its number and uuid (a tombstone).
    case remove
    case drawingAdded = "drawing-added"
    case drawingRenamed = "drawing-renamed"
    /// Its regions were replaced (markers whose rooms changed are upserts of their own).
    case drawingRegions = "drawing-regions"
    /// A new revision of its sheet (every carried marker is an upsert of its own).
    case drawingRevised = "drawing-revised"
    case drawingCalibrated = "drawing-calibrated"
    /// Removed with its markers (no tombstone for each of them).
    case drawingRemoved = "drawing-removed"

    /// Whether it is a drawing's change.
    public var isDrawing: Bool { self != .upsert && self != .remove }
}

/// One change of the feed.
public struct Change: Hashable, Sendable {
    /// Its place in the feed.
    public var cursor: Int64
    /// The drawing's name (as it is now; for a removed drawing, as it was).
    public var drawing: String
    /// The drawing's store id (a name can change).
    public var drawingID: Int64
    /// The drawing's project, for who may see the change.
    public var projectID: Int64
    public var kind: ChangeKind
    /// The marker's number (markers' changes).
    public var number: Int?
    /// The marker's uuid (markers' changes).
    public var uuid: MarkerUUID?
    /// The marker as it is now (upserts).
    public var marker: Marker?

    public init(cursor: Int64, drawing: String, drawingID: Int64, projectID: Int64, kind: ChangeKind, number: Int? = nil,
                uuid: MarkerUUID? = nil, marker: Marker? = nil) {
        self.cursor = cursor
        self.drawing = drawing
        self.drawingID = drawingID
        self.projectID = projectID
        self.kind = kind
        self.number = number
        self.uuid = uuid
        self.marker = marker
    }
}

/// A page of the feed: the changes after a cursor, in cursor order.
public struct ChangePage: Hashable, Sendable {
    public var changes: [Change]
    /// The cursor to ask from next: the last change's, or the one asked from when there was none.
    public var next: Int64
    /// Whether more changes followed when the page was read.
    public var more: Bool

    public init(changes: [Change], next: Int64, more: Bool) {
        self.changes = changes
        self.next = next
        self.more = more
    }

    /// The most changes a page has.
    public static let maxLimit = 10_000
    /// A page's size when none is asked.
    public static let defaultLimit = 1_000
}

/// The feed's query, the same for every back end (standard SQL; `parameter(n)` spells the n-th parameter: `?n` or
/// `$n`). Parameters: 1 the cursor to read after, 2 the drawing's id or NULL for all, 3 how many rows at most. Rows:
/// cursor, kind, drawing id, number (0 for a drawing's change), uuid text (tombstones), drawing name and project id (events).
///
/// - Complexity: O(log N + k) through `marker_cursor` (a partial index on the cursors markers have) and `feedEvent`'s
///   key, plus O(R) for the store's R imports (each a range of cursors) and O(k) rows of their markers, for a page of k.
public enum ChangeFeedSQL {
    public static func page(_ parameter: (Int) -> String) -> String {
        // Typed here: PostgreSQL cannot infer a parameter's type from `$2 IS NULL` alone.
        let since = "CAST(\(parameter(1)) AS BIGINT)", drawing = "CAST(\(parameter(2)) AS BIGINT)", limit = parameter(3)
        return """
            SELECT c.cursor, c.kind, c.drawingId, c.number, c.uuid, c.drawingName, c.projectId FROM (
                SELECT m.cursor AS cursor, 'upsert' AS kind, m.drawingId AS drawingId, m.number AS number,
                       CAST(NULL AS TEXT) AS uuid, CAST(NULL AS TEXT) AS drawingName, CAST(NULL AS BIGINT) AS projectId
                FROM marker m WHERE m.cursor > \(since) AND (\(drawing) IS NULL OR m.drawingId = \(drawing))
                UNION ALL
                SELECT r.firstCursor + (m.number - r.firstNumber), 'upsert', m.drawingId, m.number, CAST(NULL AS TEXT), CAST(NULL AS TEXT),
                       CAST(NULL AS BIGINT)
                FROM importRange r JOIN marker m ON m.drawingId = r.drawingId AND m.number >= r.firstNumber AND m.number <= r.lastNumber
                WHERE m.cursor IS NULL AND r.firstCursor + (r.lastNumber - r.firstNumber) > \(since)
                    AND m.number > r.firstNumber + (\(since) - r.firstCursor) AND (\(drawing) IS NULL OR r.drawingId = \(drawing))
                UNION ALL
                SELECT e.cursor, e.kind, e.drawingId, e.number, e.uuid, e.drawingName, e.projectId
                FROM feedEvent e WHERE e.cursor > \(since) AND (\(drawing) IS NULL OR e.drawingId = \(drawing))
            ) AS c ORDER BY c.cursor LIMIT \(limit)
            """
    }
}

extension ChangeFeedSQL {
    /// The drawings' changes after a cursor: `feedEvent`'s rows but the markers' removals, in the columns of `page`,
    /// each with its drawing's name and project as they are now (as they were, for a removed drawing). Parameters: 1 the
    /// cursor to read after, 2 how many rows at most.
    ///
    /// - Complexity: O(log e + r) through `feedEvent`'s key, for its e rows and the r after the cursor (the markers'
    ///   removals among them are read and skipped); a marker's change that is not a removal is not read at all.
    public static func drawingPage(_ parameter: (Int) -> String) -> String {
        """
        SELECT e.cursor, e.kind, e.drawingId, e.number, e.uuid, coalesce(d.name, e.drawingName), coalesce(d.projectId, e.projectId)
        FROM feedEvent e LEFT JOIN drawing d ON d.id = e.drawingId
        WHERE e.cursor > CAST(\(parameter(1)) AS BIGINT) AND e.kind <> '\(ChangeKind.remove.rawValue)'
        ORDER BY e.cursor LIMIT \(parameter(2))
        """
    }

    /// What a store made before the feed is, in the feed (the migration's last statements, the same for every back end):
    /// each drawing, in id order, a `drawing-added` and one import of all its numbers so far (its markers keep no cursor
    /// of their own, so no marker row is written); the counter after them.
    /// - Complexity: O(d) for d drawings.
    public static let backfill = [
        """
        INSERT INTO feedEvent (cursor, drawingId, drawingName, projectId, number, uuid, kind)
        SELECT upto - nextNumber + 1, id, name, projectId, 0, NULL, 'drawing-added'
        FROM (SELECT id, name, projectId, nextNumber, CAST(sum(nextNumber) OVER (ORDER BY id) AS BIGINT) AS upto FROM drawing) AS d
        """,
        """
        INSERT INTO importRange (drawingId, firstNumber, lastNumber, firstCursor)
        SELECT id, 1, nextNumber - 1, upto - nextNumber + 2
        FROM (SELECT id, nextNumber, CAST(sum(nextNumber) OVER (ORDER BY id) AS BIGINT) AS upto FROM drawing) AS d
        WHERE nextNumber > 1
        """,
        "UPDATE historyHead SET lastCursor = (SELECT CAST(coalesce(sum(nextNumber), 0) AS BIGINT) FROM drawing) WHERE id = 1",
    ]
}

/// A row of `ChangeFeedSQL.page`, as a back end read it.
public struct ChangeRow: Hashable, Sendable {
    public var cursor: Int64
    public var kind: String
    public var drawingID: Int64
    public var number: Int
    public var uuid: String?
    public var drawingName: String?
    public var projectID: Int64?

    public init(cursor: Int64, kind: String, drawingID: Int64, number: Int, uuid: String?, drawingName: String?, projectID: Int64?) {
        self.cursor = cursor
        self.kind = kind
        self.drawingID = drawingID
        self.number = number
        self.uuid = uuid
        self.drawingName = drawingName
        self.projectID = projectID
    }
}

extension ChangePage {
    /// The page made of `rows` (at most `limit + 1`: one more says there are more), `drawings` (id: name, project, uuid
    /// seed, for the ones that still exist) and `markers` (by drawing id and number, the upserts' markers as read; an
    /// upsert whose marker is gone since is left out: its removal follows in the feed).
    /// - Complexity: O(k) for k rows.
    public static func make(rows: [ChangeRow], limit: Int, since: Int64, drawings: [Int64: (name: String, projectID: Int64)],
                            markers: [MarkerKey: Marker]) throws(StoreError) -> ChangePage {
        let more = rows.count > limit
        var changes: [Change] = []
        changes.reserveCapacity(min(rows.count, limit))
        for row in rows.prefix(limit) {
            guard let kind = ChangeKind(rawValue: row.kind) else { throw StoreError.io("the feed has an unknown kind \"\(row.kind)\"") }
            let drawing = drawings[row.drawingID]
            let name = drawing?.name ?? row.drawingName ?? ""
            let projectID = drawing?.projectID ?? row.projectID ?? 1  // 1: the project `default`
            switch kind {
            case .upsert:
                guard let marker = markers[MarkerKey(drawingID: row.drawingID, number: row.number)] else { continue }
                changes.append(Change(cursor: row.cursor, drawing: name, drawingID: row.drawingID, projectID: projectID, kind: .upsert,
                                      number: row.number, uuid: marker.uuid, marker: marker))
            case .remove:
                changes.append(Change(cursor: row.cursor, drawing: name, drawingID: row.drawingID, projectID: projectID, kind: .remove,
                                      number: row.number, uuid: row.uuid.flatMap(MarkerUUID.init(text:))))
            default:
                changes.append(Change(cursor: row.cursor, drawing: name, drawingID: row.drawingID, projectID: projectID, kind: kind))
            }
        }
        let next = rows.prefix(limit).last?.cursor ?? since
        return ChangePage(changes: changes, next: next, more: more)
    }
}

/// A marker's key: its drawing's id and its number.
public struct MarkerKey: Hashable, Sendable {
    public var drawingID: Int64
    public var number: Int

    public init(drawingID: Int64, number: Int) {
        self.drawingID = drawingID
        self.number = number
    }
}

extension StoreBackend {
    /// Records a drawing's change or a marker's removal in the feed (`feedEvent`), with a new cursor.
    /// - Complexity: O(log e) for the feed's e events.
    package static func feedEvent(_ transaction: Transaction, _ kind: ChangeKind, drawing: Drawing, number: Int = 0, uuid: MarkerUUID? = nil) async throws {
        let cursor = try await transaction.takeCursors(1)
        let row: [StoreValue] = [.integer(cursor), .integer(drawing.id!), .text(drawing.name), .integer(drawing.projectID), .integer(Int64(number)),
                                 uuid.map { StoreValue.text($0.text) } ?? .null, .text(kind.rawValue)]
        guard try await transaction.insert(row, into: StoreTables.feedEvent) != nil else {
            throw StoreError.io("the feed has cursor \(cursor) already")
        }
    }

    /// Records the import of markers `numbers` of `drawing` in the feed: one range of cursors, in number order.
    /// - Complexity: O(log R) for the store's R imports.
    package static func importRange(_ transaction: Transaction, drawing: Drawing, numbers: ClosedRange<Int>) async throws {
        let first = try await transaction.takeCursors(numbers.count)
        let row: [StoreValue] = [.integer(drawing.id!), .integer(Int64(numbers.lowerBound)), .integer(Int64(numbers.upperBound)), .integer(first)]
        guard try await transaction.insert(row, into: StoreTables.importRange) != nil else {
            throw StoreError.io("the feed has an import of marker \(numbers.lowerBound) already")
        }
    }
}
