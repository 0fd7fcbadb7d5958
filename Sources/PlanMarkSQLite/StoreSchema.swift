import PlanMarkStore
import Foundation
import GRDB
import PlanMarkFormats

/// The store's schema as named GRDB migrations. Never edit a shipped migration: add a new one.
///
/// A store remembers the migrations applied to it (`grdb_migrations`). A store with a migration this
/// binary does not know was written by a newer PlanMark and is refused, never erased.
public enum StoreSchema {
    /// The first schema: drawings, regions, markers (numbered per drawing) and their history.
    public static let v1 = "v1-drawings-regions-markers-history"
    /// Adds `drawing.regionsRevision` (lets an import validate outside the write lock) and query indexes.
    public static let v2 = "v2-regions-revision-and-indexes"

    /// Keeps each drawing's image bytes in the store, content-addressed by SHA-256, so a drawing serves
    /// and renders exactly the image it was added with. Existing drawings get their image copied in when
    /// the file still has the recorded SHA-256.
    public static let v3 = "v3-images-in-store"

    /// Drops the index of markers by status: every insert paid for it (about 10% of an import of a million
    /// markers, and a fifth of the store's size), while a status filter reads the drawing's markers in
    /// number order anyway (O(n) for n markers of the drawing, as the listing itself is).
    public static let v4 = "v4-no-marker-status-index"

    /// Markers become punch items: the workflow's five statuses (stored `resolved` becomes `closed`), a uuid
    /// for each (a client's own, kept in `marker.uuid`; or, for markers the store numbered without one,
    /// existing markers included, made from the drawing's `uuidSeed` and the number: see `DerivedUUID`),
    /// the file's `ref`, category, priority,
    /// assignee, due date and capture time; history gains the `status`, `attached` and `detached` actions;
    /// attachments with their bytes stored once per SHA-256. The marker and history tables are rebuilt
    /// (SQLite cannot change a CHECK constraint in place), in the migration's one transaction. The marker
    /// table's checks compare with `=` and `OR`, not `IN (...)`: SQLite 3.40 checks an `IN` list of more than
    /// two values by building a temporary index for every row written, which tripled the time of an import.
    public static let v5 = "v5-punch-items"

    /// Indexes history by drawing and entry id, so a drawing's latest entry (`markersVersion(of:)`, the
    /// service's marker-list ETag) is one index search instead of a read of all the drawing's entries.
    public static let v6 = "v6-history-latest-index"

    /// Sheet revisions: a `revision` table (each drawing's images, 1, 2, 3 ..., with the transform that carried
    /// the markers from the previous one), `drawing.revision` (the current one), `marker.needsPlacement` (why a
    /// marker carried to a new revision no longer validates; NULL when placed) and the history action
    /// `revised`. Existing drawings get revision 1 from their current image columns. History is rebuilt (as
    /// v5 did: SQLite cannot change a CHECK constraint in place) with its three indexes.
    public static let v7 = "v7-revisions"

    /// A drawing's scale: `drawing.metresPerPixel` (NULL until calibrated, else > 0) and
    /// `drawing.calibration`, how it was set (`CalibrationJSON`; NULL exactly when the scale is).
    /// No existing row changes.
    public static let v8 = "v8-calibration"

    /// The team: users (`account`), their tokens (`token`: the SHA-256 only), projects (`project`, with `default`,
    /// id 1, made here) and users' roles in them (`member`); `drawing.projectId` (every existing drawing in `default`).
    /// The column has no REFERENCES clause: SQLite adds a column with one only with a NULL default; the use cases
    /// check the project.
    public static let v10 = "v10-users-projects"

    /// Comments and the history chain: the history action `commented`, `history.hash` (`HistoryChain`, computed here
    /// for every existing entry in id order) and `historyHead` (one row: the last hash). History no longer references
    /// `drawing`: a removed drawing's entries stay, so that the chain stays whole. The table is rebuilt (SQLite cannot
    /// change a CHECK constraint or drop a foreign key in place) with its three indexes.
    public static let v11 = "v11-comments-history-chain"

    /// Each marker's version: `marker.version`, 1 when created and one more per change (`If-Match`, the marker's ETag).
    /// A constant default, so no existing row is written; existing markers start at 1. And `idempotencyKey`: the answers
    /// kept for clients' `Idempotency-Key`s (`IdempotentWrite`).
    public static let v12 = "v12-marker-version-idempotency-keys"

    /// The change feed (`ChangeFeed.swift`): `historyHead.lastCursor` (the counter), `marker.cursor` (its last change's;
    /// NULL while as its import made it) with a partial index, `feedEvent` (removals and drawings' changes) and
    /// `importRange`; what the store holds is put in the feed (`ChangeFeedSQL.backfill`: no marker row is written).
    public static let v13 = "v13-change-feed"

    /// Where the drawing prints each room's label: `region.labelBox`, GeoJSON `[minX, minY, maxX, maxY]` text, NULL when
    /// unknown (every region stored before). Review images keep pins off it.
    public static let v14 = "v14-region-label-box"

    /// Idempotency keys by age: each keyed write forgets a couple of keys older than 24 hours (`IdempotentWrite`), found
    /// through this index.
    public static let v15 = "v15-idempotency-key-age"

    /// Drawings whose image is a page of a PDF: `drawing.pdfPage` and `drawing.pdfDPI` (the current revision's) and the
    /// same two columns on `revision`, NULL for a PNG (every drawing and revision stored before), both or neither. The
    /// PDF's bytes are kept in `image`, once per SHA-256, as a PNG's are. No existing row changes.
    public static let v16 = "v16-pdf-page"

    /// Every migration this binary knows, in order.
    public static var identifiers: [String] { migrator.migrations }

    /// The migrator with every known migration.
    public static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration(v1) { db in
            try db.execute(sql: """
                CREATE TABLE drawing (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL UNIQUE,
                    imagePath TEXT NOT NULL,
                    imageSHA256 TEXT NOT NULL,
                    width INTEGER NOT NULL CHECK (width > 0),
                    height INTEGER NOT NULL CHECK (height > 0),
                    zoom DOUBLE NOT NULL DEFAULT 8,
                    crs TEXT NOT NULL DEFAULT 'leaflet' CHECK (crs IN ('leaflet', 'flutter')),
                    singleMarker BOOLEAN NOT NULL DEFAULT 0,
                    nextNumber INTEGER NOT NULL DEFAULT 1 CHECK (nextNumber > 0),
                    createdAt INTEGER NOT NULL
                );
                CREATE TABLE region (
                    drawingId INTEGER NOT NULL REFERENCES drawing(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    regionId TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('room', 'allowed')),
                    name TEXT,
                    geometry TEXT NOT NULL,
                    minX DOUBLE NOT NULL, minY DOUBLE NOT NULL, maxX DOUBLE NOT NULL, maxY DOUBLE NOT NULL,
                    PRIMARY KEY (drawingId, regionId)
                );
                CREATE TABLE marker (
                    drawingId INTEGER NOT NULL REFERENCES drawing(id) ON DELETE CASCADE,
                    number INTEGER NOT NULL CHECK (number > 0),
                    x DOUBLE NOT NULL,
                    y DOUBLE NOT NULL,
                    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
                    note TEXT,
                    author TEXT,
                    rooms TEXT NOT NULL DEFAULT '[]',
                    createdAt INTEGER NOT NULL,
                    updatedAt INTEGER NOT NULL,
                    PRIMARY KEY (drawingId, number)
                ) WITHOUT ROWID;
                CREATE TABLE history (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    drawingId INTEGER NOT NULL REFERENCES drawing(id) ON DELETE CASCADE,
                    number INTEGER NOT NULL,
                    lastNumber INTEGER CHECK (lastNumber IS NULL OR lastNumber >= number),
                    action TEXT NOT NULL CHECK (action IN ('created', 'moved', 'resolved', 'reopened', 'removed', 'edited')),
                    at INTEGER NOT NULL,
                    author TEXT,
                    oldValue TEXT,
                    newValue TEXT
                );
                CREATE INDEX history_marker ON history(drawingId, number);
                """)
        }
        migrator.registerMigration(v2) { db in
            try db.execute(sql: """
                ALTER TABLE drawing ADD COLUMN regionsRevision INTEGER NOT NULL DEFAULT 0;
                CREATE INDEX marker_status ON marker(drawingId, status);
                CREATE INDEX region_bounds ON region(drawingId, minX, maxX);
                """)
        }
        migrator.registerMigration(v3) { db in
            try db.execute(sql: "CREATE TABLE image (sha256 TEXT PRIMARY KEY NOT NULL, bytes BLOB NOT NULL)")
            let rows = try Row.fetchAll(db, sql: "SELECT imagePath, imageSHA256 FROM drawing")
            for row in rows {
                let path: String = row["imagePath"], digest: String = row["imageSHA256"]
                guard let bytes = try? InputFile.readAll(path: path), SHA256.hexDigest(of: bytes) == digest else { continue }
                try db.execute(sql: "INSERT OR IGNORE INTO image (sha256, bytes) VALUES (?, ?)", arguments: [digest, Data(bytes)])
            }
        }
        migrator.registerMigration(v4) { db in
            try db.execute(sql: "DROP INDEX IF EXISTS marker_status")
        }
        migrator.registerMigration(v5) { db in
            try db.execute(sql: """
                CREATE TABLE marker_v5 (
                    drawingId INTEGER NOT NULL REFERENCES drawing(id) ON DELETE CASCADE,
                    number INTEGER NOT NULL CHECK (number > 0),
                    x DOUBLE NOT NULL,
                    y DOUBLE NOT NULL,
                    status TEXT NOT NULL DEFAULT 'open'
                        CHECK (status = 'open' OR status = 'in-progress' OR status = 'ready' OR status = 'closed' OR status = 'void'),
                    note TEXT,
                    author TEXT,
                    rooms TEXT NOT NULL DEFAULT '[]',
                    createdAt INTEGER NOT NULL,
                    updatedAt INTEGER NOT NULL,
                    uuid TEXT,
                    ref TEXT,
                    category TEXT,
                    priority TEXT NOT NULL DEFAULT 'normal'
                        CHECK (priority = 'low' OR priority = 'normal' OR priority = 'high' OR priority = 'critical'),
                    assignee TEXT,
                    due TEXT,
                    capturedAt TEXT,
                    PRIMARY KEY (drawingId, number)
                ) WITHOUT ROWID;
                INSERT INTO marker_v5 (drawingId, number, x, y, status, note, author, rooms, createdAt, updatedAt)
                    SELECT drawingId, number, x, y, CASE status WHEN 'resolved' THEN 'closed' ELSE status END,
                           note, author, rooms, createdAt, updatedAt
                    FROM marker;
                DROP TABLE marker;
                ALTER TABLE marker_v5 RENAME TO marker;
                CREATE UNIQUE INDEX marker_uuid ON marker(uuid) WHERE uuid IS NOT NULL;
                ALTER TABLE drawing ADD COLUMN uuidSeed INTEGER NOT NULL DEFAULT 0;
                UPDATE drawing SET uuidSeed = (random() & 1152921504606846975) | 1;

                CREATE TABLE history_v5 (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    drawingId INTEGER NOT NULL REFERENCES drawing(id) ON DELETE CASCADE,
                    number INTEGER NOT NULL,
                    lastNumber INTEGER CHECK (lastNumber IS NULL OR lastNumber >= number),
                    action TEXT NOT NULL CHECK (action IN ('created', 'moved', 'resolved', 'reopened', 'status', 'removed', 'edited',
                                                           'attached', 'detached')),
                    at INTEGER NOT NULL,
                    author TEXT,
                    oldValue TEXT,
                    newValue TEXT
                );
                INSERT INTO history_v5 (id, drawingId, number, lastNumber, action, at, author, oldValue, newValue)
                    SELECT id, drawingId, number, lastNumber, action, at, author,
                           replace(oldValue, '"status":"resolved"', '"status":"closed"'),
                           replace(newValue, '"status":"resolved"', '"status":"closed"')
                    FROM history;
                DROP TABLE history;
                ALTER TABLE history_v5 RENAME TO history;
                CREATE INDEX history_marker ON history(drawingId, number);
                CREATE INDEX history_ranges ON history(drawingId, number) WHERE lastNumber IS NOT NULL;

                CREATE TABLE attachmentBlob (
                    sha256 TEXT PRIMARY KEY NOT NULL,
                    bytes BLOB NOT NULL
                );
                CREATE TABLE attachment (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    drawingId INTEGER NOT NULL REFERENCES drawing(id) ON DELETE CASCADE,
                    number INTEGER NOT NULL,
                    sha256 TEXT NOT NULL REFERENCES attachmentBlob(sha256),
                    size INTEGER NOT NULL CHECK (size >= 0),
                    contentType TEXT NOT NULL CHECK (contentType IN ('image/jpeg', 'image/png', 'application/pdf')),
                    caption TEXT,
                    author TEXT,
                    createdAt INTEGER NOT NULL
                );
                CREATE INDEX attachment_marker ON attachment(drawingId, number);
                """)
        }
        migrator.registerMigration(v6) { db in
            try db.execute(sql: "CREATE INDEX history_latest ON history(drawingId, id)")
        }
        migrator.registerMigration(v7) { db in try StoreSchema.migrateRevisions(db) }
        migrator.registerMigration(v8) { db in
            try db.execute(sql: """
                ALTER TABLE drawing ADD COLUMN metresPerPixel DOUBLE CHECK (metresPerPixel IS NULL OR metresPerPixel > 0);
                ALTER TABLE drawing ADD COLUMN calibration TEXT CHECK ((calibration IS NULL) = (metresPerPixel IS NULL));
                """)
        }
        // v9 is in StoreSchema+V9.swift.
        migrator.registerMigration(v9) { db in
            try migrateToSmallerMarkerRows(db)
        }
        migrator.registerMigration(v10) { db in
            try db.execute(sql: """
                CREATE TABLE project (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL UNIQUE,
                    createdAt INTEGER NOT NULL
                );
                INSERT INTO project (name, createdAt) VALUES ('default', CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
                CREATE TABLE account (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL UNIQUE,
                    email TEXT NOT NULL,
                    company TEXT,
                    createdAt INTEGER NOT NULL
                );
                CREATE TABLE member (
                    projectId INTEGER NOT NULL REFERENCES project(id),
                    accountId INTEGER NOT NULL REFERENCES account(id),
                    role TEXT NOT NULL CHECK (role = 'admin' OR role = 'manager' OR role = 'inspector' OR role = 'subcontractor' OR role = 'viewer'),
                    PRIMARY KEY (projectId, accountId)
                );
                CREATE INDEX member_account ON member(accountId);
                CREATE TABLE token (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    accountId INTEGER NOT NULL REFERENCES account(id),
                    sha256 TEXT NOT NULL UNIQUE,
                    label TEXT,
                    createdAt INTEGER NOT NULL,
                    expires TEXT,
                    lastUsedAt INTEGER
                );
                CREATE INDEX token_account ON token(accountId);
                ALTER TABLE drawing ADD COLUMN projectId INTEGER NOT NULL DEFAULT 1;
                CREATE INDEX drawing_project ON drawing(projectId);
                """)
        }
        migrator.registerMigration(v11) { db in try migrateToHistoryChain(db) }
        migrator.registerMigration(v12) { db in
            try db.execute(sql: """
                ALTER TABLE marker ADD COLUMN version INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1);
                CREATE TABLE idempotencyKey (
                    scope TEXT NOT NULL,
                    requestKey TEXT NOT NULL,
                    fingerprint TEXT NOT NULL,
                    status INTEGER NOT NULL,
                    headers TEXT NOT NULL,
                    body TEXT NOT NULL,
                    createdAt INTEGER NOT NULL,
                    PRIMARY KEY (scope, requestKey)
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration(v13) { db in
            try db.execute(sql: """
                ALTER TABLE historyHead ADD COLUMN lastCursor INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE marker ADD COLUMN cursor INTEGER;
                CREATE INDEX marker_cursor ON marker(cursor) WHERE cursor IS NOT NULL;
                CREATE TABLE feedEvent (
                    cursor INTEGER PRIMARY KEY,
                    drawingId INTEGER NOT NULL,
                    drawingName TEXT NOT NULL,
                    projectId INTEGER NOT NULL,
                    number INTEGER NOT NULL,
                    uuid TEXT,
                    kind TEXT NOT NULL
                );
                CREATE INDEX feedEvent_drawing ON feedEvent(drawingId, cursor);
                CREATE TABLE importRange (
                    drawingId INTEGER NOT NULL,
                    firstNumber INTEGER NOT NULL,
                    lastNumber INTEGER NOT NULL,
                    firstCursor INTEGER NOT NULL,
                    PRIMARY KEY (drawingId, firstNumber)
                ) WITHOUT ROWID;
                """)
            for statement in ChangeFeedSQL.backfill { try db.execute(sql: statement) }
        }
        migrator.registerMigration(v14) { db in
            try db.execute(sql: "ALTER TABLE region ADD COLUMN labelBox TEXT")
        }
        migrator.registerMigration(v15) { db in
            try db.execute(sql: "CREATE INDEX idempotencyKey_createdAt ON idempotencyKey(createdAt)")
        }
        migrator.registerMigration(v16) { db in
            for table in ["drawing", "revision"] {
                try db.execute(sql: """
                    ALTER TABLE \(table) ADD COLUMN pdfPage INTEGER CHECK (pdfPage IS NULL OR pdfPage > 0);
                    ALTER TABLE \(table) ADD COLUMN pdfDPI INTEGER CHECK ((pdfDPI IS NULL) = (pdfPage IS NULL) AND (pdfDPI IS NULL OR pdfDPI > 0));
                    """)
            }
        }
        return migrator
    }
}
