import PostgresNIO
import PlanMarkStore

extension PostgresStore {
    /// The first column of each row of `sql` as text (NULL as nil): for tests and diagnostics that look at tables
    /// directly. `sql` is run as it is: never pass user input.
    /// - Complexity: O(rows).
    package func texts(_ sql: String) async throws(StoreError) -> [String?] {
        try await read { connection, logger in
            var result: [String?] = []
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: "SELECT q.c::text FROM (\(sql)) AS q(c)"), logger: logger) {
                result.append(try row.decode(String?.self))
            }
            return result
        }
    }

    /// Runs `sql` (one statement) in its own transaction; for tests that damage a store on purpose.
    package func execute(_ sql: String) async throws(StoreError) {
        _ = try await write(lockDrawing: nil) { connection, logger in
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        }
    }
}
