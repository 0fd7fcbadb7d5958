import PlanMarkStore
import PostgresNIO

/// The row primitives of the team's tables (`StoreTransaction.rows(of:where:)` and the rest), as SQL built from the
/// table's description (`StoreTable`; its names are PlanMark's own, unquoted as the schema made them).
enum PostgresRows {
    /// `SELECT` of `table`'s columns where `match`'s columns equal its values, in key order.
    static func select(_ table: StoreTable, where match: [(String, StoreValue)]) -> PostgresQuery {
        var bindings = PostgresBindings()
        let condition = condition(match, from: 1, into: &bindings)
        return PostgresQuery(unsafeSQL: "SELECT \(table.columns.map(\.name).joined(separator: ", ")) FROM \(table.name)\(condition) "
                             + "ORDER BY \(table.key.joined(separator: ", "))", binds: bindings)
    }

    /// ` WHERE a = $n AND b = $n+1` (or nothing), its values bound.
    static func condition(_ match: [(String, StoreValue)], from first: Int, into bindings: inout PostgresBindings) -> String {
        if match.isEmpty { return "" }
        PostgresTableConnection.bind(match.map(\.1), kinds: match.map { kind(of: $0.1) }, into: &bindings)
        return " WHERE " + match.enumerated().map { "\($1.0) = $\(first + $0)" }.joined(separator: " AND ")
    }

    /// The kind a value binds as when no column says (the team's tables have integers and text only).
    static func kind(of value: StoreValue) -> StoreColumnKind {
        switch value {
        case .integer: .integer
        case .real: .real
        case .blob: .blob
        case .null, .text: .text
        }
    }

    static func rows(_ connection: PostgresConnection, of table: StoreTable, where match: [(String, StoreValue)],
                     logger: Logger) async throws -> [[StoreValue]] {
        var result: [[StoreValue]] = []
        for try await row in try await connection.query(select(table, where: match), logger: logger) {
            result.append(try PostgresTableConnection.values(of: row, table))
        }
        return result
    }

    /// The number of rows a statement touched, from its command tag (`UPDATE 3`, `DELETE 0`).
    static func count(_ connection: PostgresConnection, _ query: PostgresQuery, logger: Logger) async throws -> Int {
        let rows = try await connection.query(query, logger: logger)
        var touched = 0
        for try await _ in rows { touched += 1 }
        return touched
    }
}

extension PostgresTransaction {
    public func rows(of table: StoreTable, where match: [(String, StoreValue)]) async throws -> [[StoreValue]] {
        try await PostgresRows.rows(connection, of: table, where: match, logger: logger)
    }

    public func insert(_ row: [StoreValue], into table: StoreTable) async throws -> Int64? {
        // An identity `id` given as NULL is left out, so that PostgreSQL gives the next one.
        let given = table.columns.indices.filter { !(table.identity && table.columns[$0].name == "id" && row[$0] == .null) }
        var bindings = PostgresBindings()
        PostgresTableConnection.bind(given.map { row[$0] }, kinds: given.map { table.columns[$0].kind }, into: &bindings)
        let sql = "INSERT INTO \(table.name) (\(given.map { table.columns[$0].name }.joined(separator: ", "))) "
            + "VALUES (\((1...given.count).map { "$\($0)" }.joined(separator: ", "))) ON CONFLICT DO NOTHING "
            + "RETURNING \(table.identity ? "id" : "0::bigint")"
        for try await id in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger).decode(Int64.self) {
            return id
        }
        return nil
    }

    public func update(_ table: StoreTable, set values: [(String, StoreValue)], where match: [(String, StoreValue)]) async throws -> Int {
        var bindings = PostgresBindings()
        PostgresTableConnection.bind(values.map(\.1), kinds: values.map { PostgresRows.kind(of: $0.1) }, into: &bindings)
        let assignments = values.enumerated().map { "\($1.0) = $\($0 + 1)" }.joined(separator: ", ")
        let condition = PostgresRows.condition(match, from: values.count + 1, into: &bindings)
        return try await PostgresRows.count(connection, PostgresQuery(unsafeSQL: "UPDATE \(table.name) SET \(assignments)\(condition) RETURNING 1",
                                                                      binds: bindings), logger: logger)
    }

    public func delete(from table: StoreTable, where match: [(String, StoreValue)]) async throws -> Int {
        var bindings = PostgresBindings()
        let condition = PostgresRows.condition(match, from: 1, into: &bindings)
        return try await PostgresRows.count(connection, PostgresQuery(unsafeSQL: "DELETE FROM \(table.name)\(condition) RETURNING 1", binds: bindings),
                                            logger: logger)
    }

    public func deleteBelow(from table: StoreTable, column: String, value: StoreValue, limit: Int) async throws -> Int {
        var bindings = PostgresBindings()
        PostgresTableConnection.bind([value, .integer(Int64(limit))], kinds: [PostgresRows.kind(of: value), .integer], into: &bindings)
        let key = table.key.joined(separator: ", ")
        // SKIP LOCKED: two writers pruning at once take different rows instead of waiting for each other's commit.
        let sql = "DELETE FROM \(table.name) WHERE (\(key)) IN (SELECT \(key) FROM \(table.name) "
            + "WHERE \(column) < $1 LIMIT $2 FOR UPDATE SKIP LOCKED) RETURNING 1"
        return try await PostgresRows.count(connection, PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger)
    }
}

extension PostgresStore {
    /// The rows of `table` that `match` names, in one statement (see `StoreBackend.rows(of:where:)`).
    public func rows(of table: StoreTable, where match: [(String, StoreValue)]) async throws(StoreError) -> [[StoreValue]] {
        try await read { connection, logger in try await PostgresRows.rows(connection, of: table, where: match, logger: logger) }
    }
}
