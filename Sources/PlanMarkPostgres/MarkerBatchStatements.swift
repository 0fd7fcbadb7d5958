import PostgresNIO

// A batch's two statements under the drawing's lock (`PostgresStore.addMarkers`), prepared once per connection
// (postgres-nio's `PostgresPreparedStatement`): PostgreSQL parses and plans each once per connection instead of once a
// batch. Measured with three servers on one drawing (2026-11-28, pg_stat_statements and perf): parsing and planning
// these two were a third of PostgreSQL's CPU, 0.3 ms a batch of about five POSTs.
//
// A prepared statement's plan is made once (after five runs) and kept: one made while the marker table was empty (a
// new database) looked the batch's uuids up by reading the whole table, and kept doing so as the table grew (measured:
// a third slower after 20,000 markers, and O(n) a batch). So the lock statement also turns `enable_seqscan` off for
// the batch's transaction, the only one these statements run in: every plan of them is then made with it off and
// searches the indexes (the uuid index, the keys of the drawing and the head), however small the tables were.

/// Locks a drawing's row and the history head's row, in the order every writer takes them, and turns
/// `synchronous_commit` off for the transaction (`set_config(..., true)` is `SET LOCAL`: one round trip less), so its
/// locks go at COMMIT and the flush is waited for after them (`PostgresStore.writeOrRollBack(releaseLocksBeforeFlush:)`),
/// and `enable_seqscan` (above).
/// A row: `PostgresStore.drawingColumns`, then the head's hash and last cursor.
struct LockForBatchStatement: PostgresPreparedStatement {
    static let name = "planmark_lock_for_batch"
    /// The drawing's columns, as `PostgresStore.decodeDrawing` reads them.
    private static let drawingColumns = PostgresStore.drawingColumns.split(separator: ",")
        .map { "d." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    static let sql = """
        SELECT \(drawingColumns.joined(separator: ", ")), h.hash, h.lastCursor,
               set_config('synchronous_commit', 'off', true), set_config('enable_seqscan', 'off', true)
        FROM drawing d, historyHead h WHERE d.name = $1 AND h.id = 1 FOR UPDATE
        """
    /// The head's hash's column (its last cursor follows).
    static let hashColumn = drawingColumns.count
    typealias Row = PostgresRow

    let drawingName: String

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(drawingName)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

/// `PostgresStore.insertCreated`'s statement: looks the batch's uuids up and, when the store has none of them, inserts
/// the markers (`rows`, a JSON array of `CreatedRow`s) and their `created` history entries, moves the drawing's counter
/// to `nextNumber` and the history's head to `headHash` and `lastCursor`, and notifies the change feed. A row: how
/// many markers were inserted, and the uuids the store had already.
struct InsertCreatedStatement: PostgresPreparedStatement {
    static let name = "planmark_insert_created"
    static let sql = """
        WITH row AS (
            SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(
                number bigint, x double precision, y double precision, status smallint, note text, author text, rooms text,
                createdat bigint, updatedat bigint, uuid text, ref text, category text, priority smallint, assignee text,
                due text, capturedat text, needsplacement text, newvalue text, hash text, cursor bigint)
        ),
        stored AS (SELECT uuid FROM marker WHERE uuid = ANY($2)),
        counter AS (UPDATE drawing SET nextNumber = $3 WHERE id = $4 AND NOT EXISTS (SELECT 1 FROM stored)),
        history AS (
            INSERT INTO history (drawingId, number, lastNumber, action, at, author, oldValue, newValue, hash)
            SELECT $4, number, NULL, 'created', createdat, author, NULL, newvalue, hash FROM row
            WHERE NOT EXISTS (SELECT 1 FROM stored)
            ORDER BY number
        ),
        head AS (UPDATE historyHead SET hash = $5, lastCursor = $6
                 WHERE id = 1 AND NOT EXISTS (SELECT 1 FROM stored) RETURNING pg_notify('planmark_changes', lastCursor::text)),
        inserted AS (
            INSERT INTO marker (drawingId, number, x, y, status, note, author, rooms, createdAt, updatedAt, uuid, ref, category,
                                priority, assignee, due, capturedAt, needsPlacement, cursor)
            SELECT $4, number, x, y, status, note, author, rooms, createdat, updatedat, uuid, ref, category,
                   priority, assignee, due, capturedat, needsplacement, cursor FROM row
            WHERE NOT EXISTS (SELECT 1 FROM stored)
            ON CONFLICT (uuid) WHERE uuid IS NOT NULL DO NOTHING
            RETURNING 1
        )
        SELECT (SELECT count(*) FROM inserted), coalesce((SELECT array_agg(uuid) FROM stored), '{}'::text[])
        """
    typealias Row = (Int, [String])

    let rows: String
    let uuids: [String]
    let nextNumber: Int
    let drawingID: Int64
    let headHash: String
    let lastCursor: Int64

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(rows)
        bindings.append(uuids)
        bindings.append(nextNumber)
        bindings.append(drawingID)
        bindings.append(headHash)
        bindings.append(lastCursor)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}
