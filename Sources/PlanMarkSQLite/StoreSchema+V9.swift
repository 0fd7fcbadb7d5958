import PlanMarkFormats
import PlanMarkStore
import Foundation
import GRDB

extension StoreSchema {
    /// Smaller marker rows: status and priority stored as small integer codes (`StoredCodes.swift`: open 0,
    /// normal 1, which SQLite stores with no payload bytes), and `updatedAt` NULL while it equals `createdAt`.
    /// An imported marker's row is 16 bytes (about a fifth) smaller, and SQLite writes every row twice (WAL, then
    /// the checkpoint). The marker table is rebuilt (a column's type and CHECK cannot change in place): every
    /// other column, table constraint and index is carried over as it is, including columns that other
    /// migrations added (the table's own `CREATE TABLE` text is reused with only those three columns' definitions
    /// replaced), and every row keeps its values.
    public static let v9 = "v9-smaller-marker-rows"

    /// The column definitions v9 puts in place of the old ones.
    static let v9Columns: [String: String] = [
        "status": "status INTEGER NOT NULL DEFAULT 0 CHECK (status >= 0 AND status <= 4)",
        "priority": "priority INTEGER NOT NULL DEFAULT 1 CHECK (priority >= 0 AND priority <= 3)",
        "updatedAt": "updatedAt INTEGER",
    ]

    /// What v9 stores for each old value of those columns (the codes of `MarkerStatus.storedCode` and
    /// `MarkerPriority.storedCode`); an unknown word becomes NULL, which the NOT NULL refuses.
    static let v9Values: [String: String] = [
        "status": "CASE status WHEN 'open' THEN 0 WHEN 'in-progress' THEN 1 WHEN 'ready' THEN 2 WHEN 'closed' THEN 3 "
            + "WHEN 'void' THEN 4 END",
        "priority": "CASE priority WHEN 'low' THEN 0 WHEN 'normal' THEN 1 WHEN 'high' THEN 2 WHEN 'critical' THEN 3 END",
        "updatedAt": "NULLIF(updatedAt, createdAt)",
    ]

    /// Rebuilds the marker table with v9's columns (see `v9`).
    /// - Complexity: O(n log n) for n markers (a copy into a new B-tree, then its indexes).
    static func migrateToSmallerMarkerRows(_ db: Database) throws {
        guard let create = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'marker'") else {
            throw StoreError.io("the store has no marker table")
        }
        let indexes = try String.fetchAll(db, sql: """
            SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'marker' AND sql IS NOT NULL ORDER BY name
            """)
        let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(marker)").map { row -> String in row["name"] }
        guard let parts = SQLTableDefinition(create) else { throw StoreError.io("cannot read the marker table's definition") }
        var definitions = parts.items
        var replaced = Set<String>()
        for (k, item) in definitions.enumerated() {
            guard let name = SQLTableDefinition.columnName(item), let definition = v9Columns[name] else { continue }
            definitions[k] = definition
            replaced.insert(name)
        }
        guard replaced.count == v9Columns.count else { throw StoreError.io("the marker table lacks status, priority or updatedAt") }
        let quoted = columns.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        let values = zip(columns, quoted).map { v9Values[$0.0] ?? $0.1 }
        try db.execute(sql: "CREATE TABLE marker_v9 (\n    " + definitions.joined(separator: ",\n    ") + "\n)" + parts.suffix)
        try db.execute(sql: "INSERT INTO marker_v9 (" + quoted.joined(separator: ", ") + ") SELECT " + values.joined(separator: ", ")
                       + " FROM marker")
        try db.execute(sql: "DROP TABLE marker")
        try db.execute(sql: "ALTER TABLE marker_v9 RENAME TO marker")
        for index in indexes { try db.execute(sql: index) }
    }
}

/// A `CREATE TABLE` statement split into its top-level items (column definitions and table constraints) and what
/// follows the closing parenthesis (` WITHOUT ROWID`).
struct SQLTableDefinition {
    var items: [String]
    var suffix: String

    /// Splits `sql` at the commas outside parentheses and quotes; nil when its parentheses do not balance.
    /// - Complexity: O(n) for n characters.
    init?(_ sql: String) {
        let characters = Array(sql)
        guard let open = characters.firstIndex(of: "(") else { return nil }
        var depth = 0
        var quote: Character?
        var items: [String] = []
        var current = ""
        var end: Int?
        var index = open + 1
        while index < characters.count {
            let c = characters[index]
            defer { index += 1 }
            if let q = quote {
                current.append(c)
                if c == q { quote = nil }
                continue
            }
            switch c {
            case "'", "\"", "`":
                quote = c
            case "[":
                quote = "]"
            case "(":
                depth += 1
            case ")":
                if depth == 0 {
                    end = index
                } else {
                    depth -= 1
                }
            case "," where depth == 0:
                items.append(current.trimmingWhitespace())
                current = ""
                continue
            default:
                break
            }
            if end != nil { break }
            current.append(c)
        }
        guard let end else { return nil }
        items.append(current.trimmingWhitespace())
        self.items = items
        suffix = String(characters[(end + 1)...])
    }

    /// The column an item defines (its first word, unquoted); nil for a table constraint.
    static func columnName(_ item: String) -> String? {
        var name = item.prefix { !$0.isWhitespace }
        if let first = name.first, "\"`[".contains(first) {
            name = name.dropFirst().dropLast()
        }
        let word = String(name)
        let constraints = ["CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"]
        return constraints.contains(word.uppercased()) ? nil : word
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[first...last])
    }
}
