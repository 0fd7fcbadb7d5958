import PlanMarkStore
import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#endif

/// An SQLite store's tables read in one read transaction (a snapshot) for `store migrate`.
package final class SQLiteTableReader: StoreTableReader {
    let path: String
    private var queue: DatabaseQueue?

    /// Opens the store at `path` (upgrading an older schema first, as every command does); `missingStore` when there
    /// is none.
    package init(path: String) throws(StoreError) {
        self.path = path
        _ = try SQLiteStore(path: path, create: false)
        do {
            let queue = try DatabaseQueue(path: path, configuration: SQLiteTables.configuration())
            try queue.inDatabase { db in
                try db.execute(sql: "BEGIN DEFERRED")
                // The snapshot starts with the first read.
                _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM drawing")
            }
            self.queue = queue
        } catch {
            throw SQLiteStore.storeError(error, path: path, busyTimeout: SQLiteStore.busyTimeout)
        }
    }

    /// - Complexity: O(log n + pageRows) through the primary key.
    package func rows(of table: StoreTable, after: [StoreValue]?) async throws(StoreError) -> [[StoreValue]] {
        guard let queue else { throw .io("\(path): the reader is closed") }
        let columns = table.columns.map { SQLiteTables.quoted($0.name) }.joined(separator: ", ")
        let key = table.key.map(SQLiteTables.quoted)
        let keyList = key.count == 1 ? key[0] : "(" + key.joined(separator: ", ") + ")"
        let marks = key.count == 1 ? "?" : "(" + Array(repeating: "?", count: key.count).joined(separator: ", ") + ")"
        let condition = after == nil ? "" : " WHERE \(keyList) > \(marks)"
        let sql = "SELECT \(columns) FROM \(SQLiteTables.quoted(table.name))\(condition) ORDER BY \(key.joined(separator: ", ")) LIMIT \(table.pageRows)"
        do {
            return try queue.inDatabase { db in
                let arguments = StatementArguments((after ?? []).map(SQLiteTables.argument))
                var result: [[StoreValue]] = []
                let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
                while let row = try cursor.next() {
                    var values: [StoreValue] = []
                    values.reserveCapacity(table.columns.count)
                    for (index, column) in table.columns.enumerated() {
                        values.append(try SQLiteTables.value(row[index] as DatabaseValue, kind: column.kind, table: table.name, column: column.name))
                    }
                    result.append(values)
                }
                return result
            }
        } catch {
            throw SQLiteStore.storeError(error, path: path, busyTimeout: SQLiteStore.busyTimeout)
        }
    }

    package func close() {
        if let queue { _ = try? queue.inDatabase { db in try db.execute(sql: "ROLLBACK") } }
        try? queue?.close()
        queue = nil
    }

    deinit { close() }
}

/// Loads rows into an SQLite store in one `BEGIN IMMEDIATE` transaction. A store that does not exist is made in a
/// temporary file beside it and renamed into place when committed, so the destination appears whole or not at all.
package final class SQLiteTableWriter: StoreTableWriter {
    let path: String
    /// The file being written: `path`, or the temporary file that becomes it.
    let file: String
    private var queue: DatabaseQueue?

    package init(path: String) throws(StoreError) {
        self.path = path
        var info = stat()
        if stat(path, &info) == 0 {
            file = path
            _ = try SQLiteStore(path: path, create: false)
        } else {
            file = path + ".migrating-\(getpid())"
            SQLiteTables.remove(file)
            _ = try SQLiteStore(path: file, create: true)
        }
        do {
            let queue = try DatabaseQueue(path: file, configuration: SQLiteTables.configuration())
            try queue.inDatabase { db in try db.execute(sql: "BEGIN IMMEDIATE") }
            self.queue = queue
        } catch {
            if file != path { SQLiteTables.remove(file) }
            throw SQLiteStore.storeError(error, path: path, busyTimeout: SQLiteStore.busyTimeout)
        }
    }

    package func drawingCount() async throws(StoreError) -> Int {
        guard let queue else { throw .io("\(path): the writer is closed") }
        do {
            return try queue.inDatabase { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM drawing") ?? 0 }
        } catch {
            throw SQLiteStore.storeError(error, path: path, busyTimeout: SQLiteStore.busyTimeout)
        }
    }

    /// - Complexity: one multi-row `INSERT` of `rows.count` rows.
    package func insert(_ rows: [[StoreValue]], into table: StoreTable) async throws(StoreError) {
        guard let queue else { throw .io("\(path): the writer is closed") }
        if rows.isEmpty { return }
        let columns = table.columns.map { SQLiteTables.quoted($0.name) }.joined(separator: ", ")
        let tuple = "(" + Array(repeating: "?", count: table.columns.count).joined(separator: ", ") + ")"
        let sql = "INSERT INTO \(SQLiteTables.quoted(table.name)) (\(columns)) VALUES "
            + Array(repeating: tuple, count: rows.count).joined(separator: ", ")
            + (table.skipsExistingRows ? " ON CONFLICT DO NOTHING" : "")
            + (table.replacesExistingRows ? " ON CONFLICT (\(table.key.map(SQLiteTables.quoted).joined(separator: ", "))) DO UPDATE SET "
               + table.valueColumns.map { "\(SQLiteTables.quoted($0)) = excluded.\(SQLiteTables.quoted($0))" }.joined(separator: ", ") : "")
        do {
            try queue.inDatabase { db in
                try db.execute(sql: sql, arguments: StatementArguments(rows.flatMap { $0.map(SQLiteTables.argument) }))
            }
        } catch {
            throw SQLiteStore.storeError(error, path: path, busyTimeout: SQLiteStore.busyTimeout)
        }
    }

    /// Commits (AUTOINCREMENT's `sqlite_sequence` already follows the largest copied ids) and, for a new store,
    /// renames the temporary file into place (refused if a file appeared at `path` meanwhile).
    package func commit() async throws(StoreError) {
        guard let queue else { throw .io("\(path): the writer is closed") }
        do {
            try queue.inDatabase { db in try db.execute(sql: "COMMIT") }
            try queue.close()
        } catch {
            throw SQLiteStore.storeError(error, path: path, busyTimeout: SQLiteStore.busyTimeout)
        }
        self.queue = nil
        if file != path {
            // link() does not replace a file that appeared meanwhile (rename would).
            if link(file, path) != 0 {
                let reason = String(cString: strerror(errno))
                SQLiteTables.remove(file)
                throw .io("\(path): cannot create: \(reason)")
            }
            SQLiteTables.remove(file)
        }
    }

    package func rollBack() {
        if let queue {
            _ = try? queue.inDatabase { db in try db.execute(sql: "ROLLBACK") }
            try? queue.close()
        }
        queue = nil
        if file != path { SQLiteTables.remove(file) }
    }

    deinit { rollBack() }
}

/// Shared by the SQLite table reader and writer.
enum SQLiteTables {
    static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(SQLiteStore.busyTimeout)
        configuration.foreignKeysEnabled = true
        // The transaction spans several calls (one page each).
        configuration.allowsUnsafeTransactions = true
        configuration.label = "PlanMarkStore.tables"
        return configuration
    }

    static func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    /// Removes a database file with its WAL and shared-memory files.
    static func remove(_ file: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(file + suffix) }
    }

    static func argument(_ value: StoreValue) -> (any DatabaseValueConvertible)? { databaseValue(value) }

    static func databaseValue(_ value: StoreValue) -> DatabaseValue {
        switch value {
        case .null: return .null
        case .integer(let value): return value.databaseValue
        case .real(let value): return value.databaseValue
        case .text(let value): return value.databaseValue
        case .blob(let value): return Data(value).databaseValue
        }
    }

    /// A stored value as `kind` says the column holds it.
    static func value(_ value: DatabaseValue, kind: StoreColumnKind, table: String, column: String) throws -> StoreValue {
        switch (value.storage, kind) {
        case (.null, _): return .null
        case (.int64(let number), .integer), (.int64(let number), .boolean), (.int64(let number), .smallint): return .integer(number)
        case (.int64(let number), .real): return .real(Double(number))
        case (.double(let number), .real): return .real(number)
        case (.string(let text), .text): return .text(text)
        case (.blob(let data), .blob): return .blob([UInt8](data))
        case (.string(let text), .blob): return .blob(Array(text.utf8))
        default:
            throw StoreError.io("\(table).\(column): a value of another type than the column's (\(value))")
        }
    }
}
