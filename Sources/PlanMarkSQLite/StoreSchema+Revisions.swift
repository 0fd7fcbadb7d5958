import PlanMarkStore
import GRDB

extension StoreSchema {
    /// The `v7-revisions` migration (see `StoreSchema.v7`).
    /// - Complexity: O(d + h) for d drawings and h history entries (the history table is copied).
    static func migrateRevisions(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE revision (
                drawingId INTEGER NOT NULL REFERENCES drawing(id) ON DELETE CASCADE,
                number INTEGER NOT NULL CHECK (number > 0),
                imagePath TEXT NOT NULL,
                imageSHA256 TEXT NOT NULL,
                width INTEGER NOT NULL CHECK (width > 0),
                height INTEGER NOT NULL CHECK (height > 0),
                createdAt INTEGER NOT NULL,
                author TEXT,
                a DOUBLE, b DOUBLE, c DOUBLE, d DOUBLE, e DOUBLE, f DOUBLE,
                maxResidual DOUBLE,
                PRIMARY KEY (drawingId, number)
            ) WITHOUT ROWID;
            INSERT INTO revision (drawingId, number, imagePath, imageSHA256, width, height, createdAt)
                SELECT id, 1, imagePath, imageSHA256, width, height, createdAt FROM drawing;
            ALTER TABLE drawing ADD COLUMN revision INTEGER NOT NULL DEFAULT 1 CHECK (revision > 0);
            ALTER TABLE marker ADD COLUMN needsPlacement TEXT;

            CREATE TABLE history_v7 (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                drawingId INTEGER NOT NULL REFERENCES drawing(id) ON DELETE CASCADE,
                number INTEGER NOT NULL,
                lastNumber INTEGER CHECK (lastNumber IS NULL OR lastNumber >= number),
                action TEXT NOT NULL CHECK (action IN ('created', 'moved', 'resolved', 'reopened', 'status', 'removed', 'edited',
                                                       'attached', 'detached', 'revised')),
                at INTEGER NOT NULL,
                author TEXT,
                oldValue TEXT,
                newValue TEXT
            );
            INSERT INTO history_v7 (id, drawingId, number, lastNumber, action, at, author, oldValue, newValue)
                SELECT id, drawingId, number, lastNumber, action, at, author, oldValue, newValue FROM history;
            DROP TABLE history;
            ALTER TABLE history_v7 RENAME TO history;
            CREATE INDEX history_marker ON history(drawingId, number);
            CREATE INDEX history_ranges ON history(drawingId, number) WHERE lastNumber IS NOT NULL;
            CREATE INDEX history_latest ON history(drawingId, id);
            """)
    }
}
