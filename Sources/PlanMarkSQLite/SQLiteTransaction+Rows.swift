import GRDB
import PlanMarkStore

/// The row primitives of the team's tables (`StoreTransaction.rows(of:where:)` and the rest), as SQL built from the
/// table's description (`StoreTable`).
extension SQLiteTables {
    /// `SELECT` of `table`'s columns where `match`'s columns equal its values, in key order.
    static func select(_ table: StoreTable, where match: [(String, StoreValue)]) -> (String, StatementArguments) {
        let columns = table.columns.map { quoted($0.name) }.joined(separator: ", ")
        let (condition, arguments) = condition(match)
        return ("SELECT \(columns) FROM \(quoted(table.name))\(condition) ORDER BY \(table.key.map(quoted).joined(separator: ", "))", arguments)
    }

    /// ` WHERE a = ? AND b = ?` (or nothing) and its arguments.
    static func condition(_ match: [(String, StoreValue)]) -> (String, StatementArguments) {
        if match.isEmpty { return ("", StatementArguments()) }
        return (" WHERE " + match.map { quoted($0.0) + " = ?" }.joined(separator: " AND "), StatementArguments(match.map { argument($0.1) }))
    }

    /// The rows a `select` finds, as `table.columns` say.
    static func rows(_ db: Database, of table: StoreTable, where match: [(String, StoreValue)]) throws -> [[StoreValue]] {
        let (sql, arguments) = select(table, where: match)
        var result: [[StoreValue]] = []
        let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try cursor.next() {
            result.append(try table.columns.enumerated().map { index, column in
                try value(row[index] as DatabaseValue, kind: column.kind, table: table.name, column: column.name)
            })
        }
        return result
    }
}

extension SQLiteTransaction {
    public func rows(of table: StoreTable, where match: [(String, StoreValue)]) async throws -> [[StoreValue]] {
        try await access { db in try SQLiteTables.rows(db, of: table, where: match) }
    }

    public func insert(_ row: [StoreValue], into table: StoreTable) async throws -> Int64? {
        // An identity `id` given as NULL is left out, so that SQLite gives the next one (AUTOINCREMENT).
        let given = table.columns.indices.filter { !(table.identity && table.columns[$0].name == "id" && row[$0] == .null) }
        let sql = "INSERT INTO \(SQLiteTables.quoted(table.name)) (\(given.map { SQLiteTables.quoted(table.columns[$0].name) }.joined(separator: ", "))) "
            + "VALUES (\(given.map { _ in "?" }.joined(separator: ", "))) ON CONFLICT DO NOTHING"
        let arguments = StatementArguments(given.map { SQLiteTables.argument(row[$0]) })
        return try await access { db in
            try db.execute(sql: sql, arguments: arguments)
            guard db.changesCount == 1 else { return nil }
            return table.identity ? db.lastInsertedRowID : 0
        }
    }

    public func update(_ table: StoreTable, set values: [(String, StoreValue)], where match: [(String, StoreValue)]) async throws -> Int {
        let (condition, conditionArguments) = SQLiteTables.condition(match)
        let sql = "UPDATE \(SQLiteTables.quoted(table.name)) SET " + values.map { SQLiteTables.quoted($0.0) + " = ?" }.joined(separator: ", ") + condition
        var arguments = StatementArguments(values.map { SQLiteTables.argument($0.1) })
        arguments += conditionArguments
        return try await access { db in
            try db.execute(sql: sql, arguments: arguments)
            return db.changesCount
        }
    }

    public func delete(from table: StoreTable, where match: [(String, StoreValue)]) async throws -> Int {
        let (condition, arguments) = SQLiteTables.condition(match)
        return try await access { db in
            try db.execute(sql: "DELETE FROM \(SQLiteTables.quoted(table.name))" + condition, arguments: arguments)
            return db.changesCount
        }
    }

    public func deleteBelow(from table: StoreTable, column: String, value: StoreValue, limit: Int) async throws -> Int {
        let name = SQLiteTables.quoted(table.name), key = table.key.map(SQLiteTables.quoted).joined(separator: ", ")
        let sql = "DELETE FROM \(name) WHERE (\(key)) IN (SELECT \(key) FROM \(name) WHERE \(SQLiteTables.quoted(column)) < ? LIMIT ?)"
        let arguments: StatementArguments = [SQLiteTables.databaseValue(value), limit]
        return try await access { db in
            try db.execute(sql: sql, arguments: arguments)
            return db.changesCount
        }
    }
}

extension SQLiteStore {
    /// The rows of `table` that `match` names, read in one statement on a reader (see `StoreBackend.rows(of:where:)`).
    public func rows(of table: StoreTable, where match: [(String, StoreValue)]) async throws(StoreError) -> [[StoreValue]] {
        try await read { db in try SQLiteTables.rows(db, of: table, where: match) }
    }
}
