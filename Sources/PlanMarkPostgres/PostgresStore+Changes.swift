import Logging
import PlanMarkStore
import PostgresNIO

/// The change feed (`ChangeFeed.swift`) on PostgreSQL.
extension PostgresStore {
    /// `AnnotationStore.changes(since:drawing:limit:)`: the page and its markers in one snapshot, the markers in one
    /// statement (arrays through `unnest`).
    /// - Complexity: as `ChangeFeedSQL.page`, plus O(k log n) to read the page's k markers.
    public func changes(since: Int64, drawing name: String?, limit: Int) async throws(StoreError) -> ChangePage {
        try await readSnapshot { connection, logger in
            var drawingID: Int64?
            if let name {
                guard let drawing = try await Self.fetchDrawing(connection, named: name, logger: logger) else { throw StoreError.unknownDrawing(name) }
                drawingID = drawing.id
            }
            var bindings = PostgresBindings()
            bindings.append(since)
            bindings.append(drawingID)
            bindings.append(Int64(limit + 1))
            var rows: [ChangeRow] = []
            for try await (cursor, kind, drawing, number, uuid, drawingName, projectID) in try await connection.query(
                PostgresQuery(unsafeSQL: ChangeFeedSQL.page { "$\($0)" }, binds: bindings), logger: logger
            ).decode((Int64, String, Int64, Int, String?, String?, Int64?).self) {
                rows.append(ChangeRow(cursor: cursor, kind: kind, drawingID: drawing, number: number, uuid: uuid, drawingName: drawingName,
                                      projectID: projectID))
            }
            var drawings: [Int64: (name: String, projectID: Int64)] = [:]
            var seeds: [Int64: Int64] = [:]
            for try await (id, name, projectID, seed) in try await connection.query("SELECT id, name, projectId, uuidSeed FROM drawing",
                                                                                    logger: logger).decode((Int64, String, Int64, Int64).self) {
                drawings[id] = (name, projectID)
                seeds[id] = seed
            }
            let wanted = rows.prefix(limit).filter { $0.kind == ChangeKind.upsert.rawValue }
            var markers: [MarkerKey: Marker] = [:]
            if !wanted.isEmpty {
                for try await row in try await connection.query("""
                    SELECT drawingId, \(unescaped: Self.markerColumns) FROM marker
                    WHERE (drawingId, number) IN (
                        SELECT d, n FROM unnest(\(wanted.map(\.drawingID))::bigint[], \(wanted.map { Int64($0.number) })::bigint[]) AS k(d, n))
                    """, logger: logger) {
                    let drawingID = try row.makeRandomAccess()[0].decode(Int64.self)
                    let marker = try Self.decodeMarker(row, drawingID: drawingID, uuidSeed: seeds[drawingID] ?? 0, offset: 1)
                    markers[MarkerKey(drawingID: drawingID, number: marker.number)] = marker
                }
            }
            return try ChangePage.make(rows: rows, limit: limit, since: since, drawings: drawings, markers: markers)
        }
    }
}

extension PostgresStore {
    /// `AnnotationStore.drawingChanges(since:limit:)`: one statement.
    /// - Complexity: as `ChangeFeedSQL.drawingPage`.
    public func drawingChanges(since: Int64, limit: Int) async throws(StoreError) -> ChangePage {
        try await read { connection, logger in
            var bindings = PostgresBindings()
            bindings.append(since)
            bindings.append(Int64(limit + 1))
            var rows: [ChangeRow] = []
            for try await (cursor, kind, drawing, number, uuid, drawingName, projectID) in try await connection.query(
                PostgresQuery(unsafeSQL: ChangeFeedSQL.drawingPage { "$\($0)" }, binds: bindings), logger: logger
            ).decode((Int64, String, Int64, Int, String?, String?, Int64?).self) {
                rows.append(ChangeRow(cursor: cursor, kind: kind, drawingID: drawing, number: number, uuid: uuid, drawingName: drawingName,
                                      projectID: projectID))
            }
            return try ChangePage.make(rows: rows, limit: limit, since: since, drawings: [:], markers: [:])
        }
    }
}

extension PostgresStore {
    /// The channel every writing transaction notifies at its commit (`takeCursors`, the group commit's statement).
    static let changeChannel = "planmark_changes"

    /// `AnnotationStore.watchChanges`: one pooled connection listens on `changeChannel` (a notification is delivered
    /// when its transaction commits; several of one transaction are one); `changed` is called after each (re)connection,
    /// so nothing committed while the connection was down is missed, and for each notification. A lost connection is
    /// opened again after a second.
    public func latestCursor() async throws(StoreError) -> Int64 {
        try await read { connection, logger in
            for try await (cursor) in try await connection.query("SELECT lastCursor FROM historyHead WHERE id = 1", logger: logger).decode(Int64.self) {
                return cursor
            }
            return 0
        }
    }

    public func watchChanges(_ changed: @escaping @Sendable (_ latest: Int64?) async -> Void) async {
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: Self.changeChannel) { notifications in
                        // Listening from now on; what was committed before is not known here.
                        await changed(nil)
                        // Each notification's payload is its transaction's last cursor (`takeCursors`, the batch insert);
                        // PostgreSQL delivers them in commit order.
                        for try await notification in notifications { await changed(Int64(notification.payload)) }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.notice("change feed: the listening connection was lost (\(String(describing: error))); listening again in 1 s")
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }
}
