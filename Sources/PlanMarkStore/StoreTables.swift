/// The rows of a whole store, table by table, as typed values: what `planmark store migrate` copies between two
/// stores of either kind (SQLite, PostgreSQL). Both stores have these tables and columns (SQLite's v9 schema and
/// PostgreSQL's `pg1-store`); columns that only one kind has (PostGIS's generated geometry) are not copied, the
/// destination computes them.
package enum StoreTables {
    /// Every table, in the order a destination loads them (parents before the rows that reference them).
    package static let all: [StoreTable] = [
        // A destination's migrations made its project `default` (id 1), which the source has too: the source's replaces it.
        project,
        account,
        StoreTable(name: "drawing", key: ["id"], columns: [
            ("id", .integer), ("name", .text), ("imagePath", .text), ("imageSHA256", .text), ("width", .integer),
            ("height", .integer), ("zoom", .real), ("crs", .text), ("singleMarker", .boolean), ("nextNumber", .integer),
            ("createdAt", .integer), ("regionsRevision", .integer), ("uuidSeed", .integer), ("revision", .integer),
            ("metresPerPixel", .real), ("calibration", .text), ("projectId", .integer), ("pdfPage", .integer), ("pdfDPI", .integer),
        ], identity: true),
        StoreTable(name: "image", key: ["sha256"], columns: [("sha256", .text), ("bytes", .blob)], skipsExistingRows: true, pageRows: 8),
        StoreTable(name: "attachmentBlob", key: ["sha256"], columns: [("sha256", .text), ("bytes", .blob)], skipsExistingRows: true,
                   pageRows: 16),
        StoreTable(name: "region", key: ["drawingId", "regionId"], columns: [
            ("drawingId", .integer), ("position", .integer), ("regionId", .text), ("kind", .text), ("name", .text),
            ("geometry", .text), ("minX", .real), ("minY", .real), ("maxX", .real), ("maxY", .real), ("labelBox", .text),
        ], pageRows: 500),
        StoreTable(name: "revision", key: ["drawingId", "number"], columns: [
            ("drawingId", .integer), ("number", .integer), ("imagePath", .text), ("imageSHA256", .text), ("width", .integer),
            ("height", .integer), ("createdAt", .integer), ("author", .text), ("a", .real), ("b", .real), ("c", .real),
            ("d", .real), ("e", .real), ("f", .real), ("maxResidual", .real), ("pdfPage", .integer), ("pdfDPI", .integer),
        ]),
        StoreTable(name: "marker", key: ["drawingId", "number"], columns: [
            ("drawingId", .integer), ("number", .integer), ("x", .real), ("y", .real), ("status", .smallint), ("note", .text),
            ("author", .text), ("rooms", .text), ("createdAt", .integer), ("updatedAt", .integer), ("uuid", .text),
            ("ref", .text), ("category", .text), ("priority", .smallint), ("assignee", .text), ("due", .text),
            ("capturedAt", .text), ("needsPlacement", .text), ("version", .integer), ("cursor", .integer),
        ]),
        history,
        historyHead,
        StoreTable(name: "attachment", key: ["id"], columns: [
            ("id", .integer), ("drawingId", .integer), ("number", .integer), ("sha256", .text), ("size", .integer),
            ("contentType", .text), ("caption", .text), ("author", .text), ("createdAt", .integer),
        ], identity: true),
        member,
        token,
        idempotencyKey,
        feedEvent,
        importRange,
    ]

    /// The history (`HistoryRow`, with its id), chained by `hash` (v11, pg8: `HistoryChain`).
    package static let history = StoreTable(name: "history", key: ["id"], columns: [
        ("id", .integer), ("drawingId", .integer), ("number", .integer), ("lastNumber", .integer), ("action", .text),
        ("at", .integer), ("author", .text), ("oldValue", .text), ("newValue", .text), ("hash", .text),
    ], identity: true)
    /// The history chain's head, one row (id 1): the last entry's hash. Every store's migrations make it (the genesis
    /// hash); the source's replaces it.
    package static let historyHead = StoreTable(name: "historyHead", key: ["id"], columns: [("id", .integer), ("hash", .text),
                                                                                           ("lastCursor", .integer)],
                                                replacesExistingRows: true)
    /// The change feed's removals and drawings' changes (v13, pg10: `ChangeFeed.swift`).
    package static let feedEvent = StoreTable(name: "feedEvent", key: ["cursor"], columns: [
        ("cursor", .integer), ("drawingId", .integer), ("drawingName", .text), ("projectId", .integer), ("number", .integer),
        ("uuid", .text), ("kind", .text),
    ])
    /// The change feed's imports: each a range of cursors for its markers, in number order (v13, pg10).
    package static let importRange = StoreTable(name: "importRange", key: ["drawingId", "firstNumber"], columns: [
        ("drawingId", .integer), ("firstNumber", .integer), ("lastNumber", .integer), ("firstCursor", .integer),
    ])

    /// The answers kept for clients' `Idempotency-Key`s (v12, pg9: `IdempotentWrite`).
    package static let idempotencyKey = StoreTable(name: "idempotencyKey", key: ["scope", "requestKey"], columns: [
        ("scope", .text), ("requestKey", .text), ("fingerprint", .text), ("status", .integer), ("headers", .text), ("body", .text),
        ("createdAt", .integer),
    ])
    /// Projects (v10, pg7): drawings belong to one.
    package static let project = StoreTable(name: "project", key: ["id"], columns: [
        ("id", .integer), ("name", .text), ("createdAt", .integer),
    ], identity: true, replacesExistingRows: true)
    /// Users (`User`); `user` is a reserved word in PostgreSQL.
    package static let account = StoreTable(name: "account", key: ["id"], columns: [
        ("id", .integer), ("name", .text), ("email", .text), ("company", .text), ("createdAt", .integer),
    ], identity: true)
    /// Users' roles in projects (`ProjectMember`).
    package static let member = StoreTable(name: "member", key: ["projectId", "accountId"], columns: [
        ("projectId", .integer), ("accountId", .integer), ("role", .text),
    ])
    /// Users' tokens, as their SHA-256 (`UserToken`).
    package static let token = StoreTable(name: "token", key: ["id"], columns: [
        ("id", .integer), ("accountId", .integer), ("sha256", .text), ("label", .text), ("createdAt", .integer),
        ("expires", .text), ("lastUsedAt", .integer),
    ], identity: true)
}

/// One table `store migrate` copies.
public struct StoreTable: Sendable {
    /// The table's name (as SQLite spells it; PostgreSQL folds it to lower case).
    package var name: String
    /// The primary key's columns: rows are read in this order, a page at a time after the last key read.
    package var key: [String]
    /// The columns copied, with their kinds.
    package var columns: [(name: String, kind: StoreColumnKind)]
    /// Whether `id` comes from an identity sequence (PostgreSQL) or AUTOINCREMENT (SQLite), which must be set past
    /// the copied ids.
    package var identity: Bool
    /// A row the destination already has (by key) is skipped: rows keyed by their content's SHA-256.
    package var skipsExistingRows: Bool
    /// A row the destination already has (by key) is overwritten by the source's: the project `default` that every
    /// store's migrations make.
    package var replacesExistingRows: Bool
    /// The columns not in `key`.
    package var valueColumns: [String] { columns.map(\.name).filter { !key.contains($0) } }
    /// Rows read and written at a time (few for tables of large blobs).
    package var pageRows: Int

    package init(name: String, key: [String], columns: [(String, StoreColumnKind)], identity: Bool = false,
                 skipsExistingRows: Bool = false, replacesExistingRows: Bool = false, pageRows: Int = 1000) {
        self.replacesExistingRows = replacesExistingRows
        self.name = name
        self.key = key
        self.columns = columns.map { (name: $0.0, kind: $0.1) }
        self.identity = identity
        self.skipsExistingRows = skipsExistingRows
        self.pageRows = pageRows
    }

    /// The positions of `key`'s columns in `columns`.
    package var keyIndexes: [Int] {
        key.map { name in columns.firstIndex { $0.name == name }! }
    }
}

/// How a column's values are stored. SQLite keeps `boolean` and `smallint` as integers.
public enum StoreColumnKind: Sendable {
    case integer, real, text, blob, boolean, smallint
}

/// One value of a row.
public enum StoreValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// Reads a store's tables (in one snapshot, from opening to `close`).
package protocol StoreTableReader: AnyObject {
    /// Up to `table.pageRows` rows of `table`, in key order, after the row whose key values are `after` (from the
    /// first row when nil). Values are of the column's kind (`boolean` as 0 or 1).
    func rows(of table: StoreTable, after: [StoreValue]?) async throws(StoreError) -> [[StoreValue]]
    /// Ends the snapshot.
    func close() async
}

/// Loads rows into an empty store in one transaction, from opening to `commit`.
package protocol StoreTableWriter: AnyObject {
    /// How many drawings the destination has (in the load's transaction, which keeps others from adding one).
    func drawingCount() async throws(StoreError) -> Int
    /// Inserts `rows` (of `table.columns`) into `table`; a content-addressed row already there is skipped.
    func insert(_ rows: [[StoreValue]], into table: StoreTable) async throws(StoreError)
    /// Sets the id sequences past the copied ids and commits.
    func commit() async throws(StoreError)
    /// Rolls back (nothing written) and closes.
    func rollBack() async
}

/// Copies every table of `source` into `destination`, a page at a time, and commits; refuses (`refused`, nothing
/// written) when the destination has a drawing. `progress` hears each table's row count.
/// - Complexity: O(rows) statements of `pageRows` rows each; memory holds one page.
package func copyStore(from source: some StoreTableReader, to destination: some StoreTableWriter, destinationName: String,
                       progress: (StoreTable, Int) -> Void = { _, _ in }) async throws(StoreError) {
    do throws(StoreError) {
        let existing = try await destination.drawingCount()
        if existing > 0 {
            throw StoreError.refused(.destinationNotEmpty(destination: destinationName, drawings: existing))
        }
        for table in StoreTables.all {
            var after: [StoreValue]? = nil
            var count = 0
            while true {
                let rows = try await source.rows(of: table, after: after)
                if rows.isEmpty { break }
                try await destination.insert(rows, into: table)
                count += rows.count
                let keyIndexes = table.keyIndexes
                after = keyIndexes.map { rows[rows.count - 1][$0] }
                if rows.count < table.pageRows { break }
            }
            progress(table, count)
        }
        try await destination.commit()
    } catch {
        await destination.rollBack()
        throw error
    }
}
