import PlanMarkStore
import GRDB

extension StoreSchema {
    /// The `v11-comments-history-chain` migration (see `StoreSchema.v11`).
    /// - Complexity: O(h) for h history entries (copied once, hashed once).
    static func migrateToHistoryChain(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE history_v11 (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                drawingId INTEGER NOT NULL,
                number INTEGER NOT NULL,
                lastNumber INTEGER CHECK (lastNumber IS NULL OR lastNumber >= number),
                action TEXT NOT NULL CHECK (action IN ('created', 'moved', 'resolved', 'reopened', 'status', 'removed', 'edited',
                                                       'attached', 'detached', 'revised', 'commented')),
                at INTEGER NOT NULL,
                author TEXT,
                oldValue TEXT,
                newValue TEXT,
                hash TEXT NOT NULL
            );
            INSERT INTO history_v11 (id, drawingId, number, lastNumber, action, at, author, oldValue, newValue, hash)
                SELECT id, drawingId, number, lastNumber, action, at, author, oldValue, newValue, '' FROM history;
            DROP TABLE history;
            ALTER TABLE history_v11 RENAME TO history;
            CREATE INDEX history_marker ON history(drawingId, number);
            CREATE INDEX history_ranges ON history(drawingId, number) WHERE lastNumber IS NOT NULL;
            CREATE INDEX history_latest ON history(drawingId, id);
            CREATE TABLE historyHead (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                hash TEXT NOT NULL
            );
            """)
        var head = HistoryChain.genesis
        let update = try db.makeStatement(sql: "UPDATE history SET hash = ? WHERE id = ?")
        let rows = try Row.fetchCursor(db, sql: """
            SELECT id, drawingId, number, lastNumber, action, at, author, oldValue, newValue FROM history ORDER BY id
            """)
        var hashes: [(Int64, String)] = []
        while let row = try rows.next() {
            let stored = HistoryRow(drawingID: row[1], number: row[2], lastNumber: row[3], action: row[4], at: row[5], author: row[6],
                                    oldValue: row[7], newValue: row[8])
            head = HistoryChain.hash(previous: head, stored)
            hashes.append((row[0], head))
        }
        for (id, hash) in hashes { try update.execute(arguments: [hash, id]) }
        try db.execute(sql: "INSERT INTO historyHead (id, hash) VALUES (1, ?)", arguments: [head])
    }
}
