import Logging
import PlanMarkStore
import PostgresNIO

/// The PostgreSQL store's schema: named migrations, applied in order, each once, recorded in `planmark_migrations`.
/// Tables and columns are the store's (`StoreTables`: the same in every back end), so that `store migrate` copies every
/// value as it is; unquoted names, which PostgreSQL folds to lower case.
enum PostgresSchema {
    /// A migration: its identifier and the statements it runs (in the migrating transaction).
    struct Migration: Sendable {
        var identifier: String
        var apply: @Sendable (PostgresConnection, Logger) async throws -> Void
    }

    /// Serialises migrations of several servers starting at once (`pg_advisory_xact_lock`).
    static let migrationLockKey: Int64 = 0x504C_414E_4D41_524B  // "PLANMARK"

    /// Every migration, oldest first.
    static let migrations: [Migration] = [
        Migration(identifier: "pg1-store") { connection, logger in
            for statement in v1Statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
        },
        Migration(identifier: "pg2-postgis") { connection, logger in
            try await PostgresGIS.addGeometryColumns(connection, logger: logger)
        },
        Migration(identifier: "pg3-marker-drawing-check") { connection, logger in
            for statement in markerDrawingCheckStatements {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
        },
        // pg3 as first shipped counted the drawings with `count(DISTINCT ...)`, a sort of the statement's rows:
        // `markerDrawingsExistFunction` now hashes them, 0.45 s less of a million-row COPY (2.89 s against 3.34 s,
        // `Benchmarks/postgres/README.md`). A database made since gets the new function from pg3 already.
        Migration(identifier: "pg4-marker-drawing-check-hashed") { connection, logger in
            try await connection.query(PostgresQuery(unsafeSQL: markerDrawingsExistFunction), logger: logger)
        },
        // Whether any attachment still has some bytes (`deleteUnusedBlobs`, and the foreign key's check when a blob
        // row is deleted) was a scan of every attachment of every drawing in the store: now O(log a).
        Migration(identifier: "pg5-attachment-sha256") { connection, logger in
            try await connection.query("CREATE INDEX attachment_sha256 ON attachment(sha256)", logger: logger)
        },
        // A marker's PostGIS point was a stored column with a GiST index, kept up row by row: 8.5 s of a
        // million-marker import's 11.5 s, 7x the COPY floor. The point is now the view `marker_geometry`'s, computed
        // when read; regions, few and the side a GIS query searches, keep their indexed column.
        Migration(identifier: "pg6-marker-geometry-view") { connection, logger in
            try await PostgresGIS.moveMarkerGeometryToView(connection, logger: logger)
        },
        // The team (SQLite's v10): users (`account`; `user` is a reserved word), their tokens (the SHA-256 only),
        // projects (with `default`, id 1, made here) and roles; every existing drawing is in `default`.
        Migration(identifier: "pg7-users-projects") { connection, logger in
            for statement in teamStatements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
        },
        // Comments and the history chain (SQLite's v11): the action `commented`, `history.hash` (`HistoryChain`, computed
        // here for every entry in id order) and `historyHead`; history no longer references `drawing`, so that a
        // removed drawing's entries, and the chain through them, stay.
        Migration(identifier: "pg8-comments-history-chain") { connection, logger in
            try await migrateToHistoryChain(connection, logger: logger)
        },
        // Each marker's version (SQLite's v12): 1 when created, one more per change; `If-Match` and the marker's ETag.
        // A constant default, so adding the column rewrites no row; existing markers start at 1. And the answers kept
        // for clients' `Idempotency-Key`s (`IdempotentWrite`).
        Migration(identifier: "pg9-marker-version-idempotency-keys") { connection, logger in
            try await connection.query("ALTER TABLE marker ADD COLUMN version integer NOT NULL DEFAULT 1 CHECK (version >= 1)", logger: logger)
            try await connection.query("""
                CREATE TABLE idempotencyKey (
                    scope text NOT NULL,
                    requestKey text NOT NULL,
                    fingerprint text NOT NULL,
                    status integer NOT NULL,
                    headers text NOT NULL,
                    body text NOT NULL,
                    createdAt bigint NOT NULL,
                    PRIMARY KEY (scope, requestKey)
                )
                """, logger: logger)
        },
        // The change feed (SQLite's v13, `ChangeFeed.swift`): the counter in the head's row, each marker's last change's
        // cursor (NULL while as its import made it) with a partial index, removals and drawings' changes, imports; what the
        // store holds is put in the feed without writing a marker row (`ChangeFeedSQL.backfill`).
        Migration(identifier: "pg10-change-feed") { connection, logger in
            for statement in [
                "ALTER TABLE historyHead ADD COLUMN lastCursor bigint NOT NULL DEFAULT 0",
                "ALTER TABLE marker ADD COLUMN cursor bigint",
                "CREATE INDEX marker_cursor ON marker(cursor) WHERE cursor IS NOT NULL",
                """
                CREATE TABLE feedEvent (
                    cursor bigint PRIMARY KEY,
                    drawingId bigint NOT NULL,
                    drawingName text NOT NULL,
                    projectId bigint NOT NULL,
                    number bigint NOT NULL,
                    uuid text,
                    kind text NOT NULL
                )
                """,
                "CREATE INDEX feedEvent_drawing ON feedEvent(drawingId, cursor)",
                """
                CREATE TABLE importRange (
                    drawingId bigint NOT NULL,
                    firstNumber bigint NOT NULL,
                    lastNumber bigint NOT NULL,
                    firstCursor bigint NOT NULL,
                    PRIMARY KEY (drawingId, firstNumber)
                )
                """,
            ] + ChangeFeedSQL.backfill {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
        },
        // Where the drawing prints each room's label (SQLite's v14): GeoJSON `[minX, minY, maxX, maxY]`, NULL when unknown.
        Migration(identifier: "pg11-region-label-box") { connection, logger in
            try await connection.query("ALTER TABLE region ADD COLUMN labelBox text", logger: logger)
        },
        // Idempotency keys by age (SQLite's v15): each keyed write forgets a couple older than 24 hours.
        Migration(identifier: "pg12-idempotency-key-age") { connection, logger in
            try await connection.query("CREATE INDEX idempotencyKey_createdAt ON idempotencyKey(createdAt)", logger: logger)
        },
        // Drawings whose image is a page of a PDF (SQLite's v16): the page and resolution on `drawing` (the current
        // revision's) and on `revision`, NULL for a PNG, both or neither.
        Migration(identifier: "pg13-pdf-page") { connection, logger in
            for table in ["drawing", "revision"] {
                try await connection.query(PostgresQuery(unsafeSQL: """
                    ALTER TABLE \(table) ADD COLUMN pdfPage bigint CHECK (pdfPage IS NULL OR pdfPage > 0),
                        ADD COLUMN pdfDPI bigint CHECK ((pdfDPI IS NULL) = (pdfPage IS NULL) AND (pdfDPI IS NULL OR pdfDPI > 0))
                    """), logger: logger)
            }
        },
    ]

    /// Entries hashed and written at a time by `migrateToHistoryChain`.
    static let historyPage = 10_000

    /// The `pg8-comments-history-chain` migration.
    /// - Complexity: O(h) for h history entries (read once, hashed once, written a page at a time), O(page) memory.
    static func migrateToHistoryChain(_ connection: PostgresConnection, logger: Logger) async throws {
        for statement in [
            "ALTER TABLE history DROP CONSTRAINT history_drawingid_fkey",
            "ALTER TABLE history DROP CONSTRAINT history_action_check",
            """
            ALTER TABLE history ADD CONSTRAINT history_action_check CHECK (action IN ('created', 'moved', 'resolved', 'reopened',
                'status', 'removed', 'edited', 'attached', 'detached', 'revised', 'commented'))
            """,
            "ALTER TABLE history ADD COLUMN hash text",
            "CREATE TABLE historyHead (id bigint PRIMARY KEY CHECK (id = 1), hash text NOT NULL)",
        ] {
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
        // A page of entries at a time (read in id order, hashed, their hashes written in one statement): memory for one
        // page, not for the whole history.
        var head = HistoryChain.genesis
        var after: Int64 = 0
        while true {
            var ids: [Int64] = []
            var hashes: [String] = []
            ids.reserveCapacity(historyPage)
            hashes.reserveCapacity(historyPage)
            for try await (id, drawingID, number, lastNumber, action, at, author, oldValue, newValue) in try await connection.query("""
                SELECT id, drawingId, number, lastNumber, action, at, author, oldValue, newValue FROM history
                WHERE id > \(after) ORDER BY id LIMIT \(historyPage)
                """, logger: logger).decode((Int64, Int64, Int, Int?, String, Int64, String?, String?, String?).self) {
                head = HistoryChain.hash(previous: head, HistoryRow(drawingID: drawingID, number: number, lastNumber: lastNumber, action: action,
                                                                    at: at, author: author, oldValue: oldValue, newValue: newValue))
                ids.append(id)
                hashes.append(head)
            }
            guard let last = ids.last else { break }
            try await connection.query("""
                UPDATE history SET hash = u.hash FROM unnest(\(ids)::bigint[], \(hashes)::text[]) AS u(id, hash) WHERE history.id = u.id
                """, logger: logger)
            after = last
        }
        try await connection.query("ALTER TABLE history ALTER COLUMN hash SET NOT NULL", logger: logger)
        try await connection.query("INSERT INTO historyHead (id, hash) VALUES (1, \(head))", logger: logger)
    }

    static let teamStatements = [
        """
        CREATE TABLE project (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            name text NOT NULL UNIQUE,
            createdAt bigint NOT NULL
        )
        """,
        "INSERT INTO project (name, createdAt) VALUES ('default', (extract(epoch FROM clock_timestamp()) * 1000)::bigint)",
        """
        CREATE TABLE account (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            name text NOT NULL UNIQUE,
            email text NOT NULL,
            company text,
            createdAt bigint NOT NULL
        )
        """,
        """
        CREATE TABLE member (
            projectId bigint NOT NULL REFERENCES project(id),
            accountId bigint NOT NULL REFERENCES account(id),
            role text NOT NULL CHECK (role IN ('admin', 'manager', 'inspector', 'subcontractor', 'viewer')),
            PRIMARY KEY (projectId, accountId)
        )
        """,
        "CREATE INDEX member_account ON member(accountId)",
        """
        CREATE TABLE token (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            accountId bigint NOT NULL REFERENCES account(id),
            sha256 text NOT NULL UNIQUE,
            label text,
            createdAt bigint NOT NULL,
            expires text,
            lastUsedAt bigint
        )
        """,
        "CREATE INDEX token_account ON token(accountId)",
        "ALTER TABLE drawing ADD COLUMN projectId bigint NOT NULL DEFAULT 1 REFERENCES project(id)",
        "CREATE INDEX drawing_project ON drawing(projectId)",
    ]

    static var identifiers: [String] { migrations.map(\.identifier) }

    /// After an INSERT statement on `marker`: the drawings its rows name (the transition table `new_markers`) exist,
    /// and are locked `FOR KEY SHARE`; raises `foreign_key_violation` (23503) otherwise.
    /// - Complexity: O(rows) to hash the statement's drawing ids (one pass, no sort), then O(d log D) to find and lock
    ///   its d distinct drawings among D.
    static let markerDrawingsExistFunction = """
        CREATE OR REPLACE FUNCTION planmark_marker_drawings_exist() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            named bigint[];
            locked bigint;
        BEGIN
            SELECT array_agg(drawingId) INTO named FROM (SELECT DISTINCT drawingId FROM new_markers) AS distinct_ids;
            SELECT count(*) INTO locked FROM (SELECT 1 FROM drawing WHERE id = ANY (named) FOR KEY SHARE) AS drawings;
            IF locked < coalesce(cardinality(named), 0) THEN
                RAISE EXCEPTION 'insert or update on table "marker" violates its drawing check'
                    USING ERRCODE = 'foreign_key_violation', DETAIL = 'marker.drawingId names no drawing';
            END IF;
            RETURN NULL;
        END
        $$
        """

    /// `marker.drawingId` names a drawing, checked once per statement instead of once per row.
    ///
    /// Why: the declared foreign key checks each inserted row with a query of its own. For an import of a million
    /// markers that took about 6 s of the server's time, most of the import (`Benchmarks/postgres/README.md`: COPY of
    /// the same rows took 8.3 s into a table with the key and 2.1 s without). The triggers keep what the key
    /// guaranteed:
    /// - after each INSERT statement, the drawings its rows name must exist, and they are locked `FOR KEY SHARE`
    ///   (as the key's check locks them) so that no concurrent transaction removes them before this one commits;
    /// - an UPDATE that moves a marker to another drawing is checked the same way, row by row (PlanMark never does);
    /// - removing a drawing removes its markers (`ON DELETE CASCADE`), and a drawing's id cannot change while markers
    ///   name it.
    /// - Complexity: O(rows inserted) per statement (the transition table, `markerDrawingsExistFunction`), plus
    ///   O(log D) per distinct drawing.
    static let markerDrawingCheckStatements: [String] = [
        "ALTER TABLE marker DROP CONSTRAINT marker_drawingid_fkey",
        markerDrawingsExistFunction,
        """
        CREATE TRIGGER marker_drawing_insert AFTER INSERT ON marker REFERENCING NEW TABLE AS new_markers
            FOR EACH STATEMENT EXECUTE FUNCTION planmark_marker_drawings_exist()
        """,
        """
        CREATE FUNCTION planmark_marker_drawing_exists() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM 1 FROM drawing WHERE id = NEW.drawingId FOR KEY SHARE;
            IF NOT FOUND THEN
                RAISE EXCEPTION 'insert or update on table "marker" violates its drawing check'
                    USING ERRCODE = 'foreign_key_violation', DETAIL = 'marker.drawingId names no drawing';
            END IF;
            RETURN NULL;
        END
        $$
        """,
        """
        CREATE TRIGGER marker_drawing_update AFTER UPDATE OF drawingId ON marker
            FOR EACH ROW WHEN (OLD.drawingId IS DISTINCT FROM NEW.drawingId) EXECUTE FUNCTION planmark_marker_drawing_exists()
        """,
        """
        CREATE FUNCTION planmark_drawing_markers() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'DELETE' THEN
                DELETE FROM marker WHERE drawingId = OLD.id;
                RETURN OLD;
            END IF;
            IF EXISTS (SELECT 1 FROM marker WHERE drawingId = OLD.id) THEN
                RAISE EXCEPTION 'update on table "drawing" violates the drawing check of table "marker"'
                    USING ERRCODE = 'foreign_key_violation', DETAIL = 'markers name drawing id ' || OLD.id;
            END IF;
            RETURN NEW;
        END
        $$
        """,
        """
        CREATE TRIGGER drawing_markers_delete BEFORE DELETE ON drawing
            FOR EACH ROW EXECUTE FUNCTION planmark_drawing_markers()
        """,
        """
        CREATE TRIGGER drawing_markers_id BEFORE UPDATE OF id ON drawing
            FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION planmark_drawing_markers()
        """,
    ]

    /// The whole store as the SQLite store has it after v9.
    static let v1Statements: [String] = [
        """
        CREATE TABLE drawing (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            name text NOT NULL UNIQUE,
            imagePath text NOT NULL,
            imageSHA256 text NOT NULL,
            width bigint NOT NULL CHECK (width > 0),
            height bigint NOT NULL CHECK (height > 0),
            zoom double precision NOT NULL DEFAULT 8,
            crs text NOT NULL DEFAULT 'leaflet' CHECK (crs IN ('leaflet', 'flutter')),
            singleMarker boolean NOT NULL DEFAULT false,
            nextNumber bigint NOT NULL DEFAULT 1 CHECK (nextNumber > 0),
            createdAt bigint NOT NULL,
            regionsRevision bigint NOT NULL DEFAULT 0,
            uuidSeed bigint NOT NULL DEFAULT 0,
            revision bigint NOT NULL DEFAULT 1 CHECK (revision > 0),
            metresPerPixel double precision CHECK (metresPerPixel IS NULL OR metresPerPixel > 0),
            calibration text CHECK ((calibration IS NULL) = (metresPerPixel IS NULL))
        )
        """,
        """
        CREATE TABLE region (
            drawingId bigint NOT NULL REFERENCES drawing(id) ON DELETE CASCADE,
            position bigint NOT NULL,
            regionId text NOT NULL,
            kind text NOT NULL CHECK (kind IN ('room', 'allowed')),
            name text,
            geometry text NOT NULL,
            minX double precision NOT NULL, minY double precision NOT NULL,
            maxX double precision NOT NULL, maxY double precision NOT NULL,
            PRIMARY KEY (drawingId, regionId)
        )
        """,
        "CREATE INDEX region_bounds ON region(drawingId, minX, maxX)",
        // Drawing images, content-addressed: a second server on another machine reads them from here.
        "CREATE TABLE image (sha256 text PRIMARY KEY, bytes bytea NOT NULL)",
        "CREATE TABLE attachmentBlob (sha256 text PRIMARY KEY, bytes bytea NOT NULL)",
        """
        CREATE TABLE attachment (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            drawingId bigint NOT NULL REFERENCES drawing(id) ON DELETE CASCADE,
            number bigint NOT NULL,
            sha256 text NOT NULL REFERENCES attachmentBlob(sha256),
            size bigint NOT NULL CHECK (size >= 0),
            contentType text NOT NULL CHECK (contentType IN ('image/jpeg', 'image/png', 'application/pdf')),
            caption text,
            author text,
            createdAt bigint NOT NULL
        )
        """,
        "CREATE INDEX attachment_marker ON attachment(drawingId, number)",
        """
        CREATE TABLE revision (
            drawingId bigint NOT NULL REFERENCES drawing(id) ON DELETE CASCADE,
            number bigint NOT NULL CHECK (number > 0),
            imagePath text NOT NULL,
            imageSHA256 text NOT NULL,
            width bigint NOT NULL CHECK (width > 0),
            height bigint NOT NULL CHECK (height > 0),
            createdAt bigint NOT NULL,
            author text,
            a double precision, b double precision, c double precision,
            d double precision, e double precision, f double precision,
            maxResidual double precision,
            PRIMARY KEY (drawingId, number)
        )
        """,
        """
        CREATE TABLE history (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            drawingId bigint NOT NULL REFERENCES drawing(id) ON DELETE CASCADE,
            number bigint NOT NULL,
            lastNumber bigint CHECK (lastNumber IS NULL OR lastNumber >= number),
            action text NOT NULL CHECK (action IN ('created', 'moved', 'resolved', 'reopened', 'status', 'removed', 'edited',
                                                   'attached', 'detached', 'revised')),
            at bigint NOT NULL,
            author text,
            oldValue text,
            newValue text
        )
        """,
        "CREATE INDEX history_marker ON history(drawingId, number)",
        "CREATE INDEX history_ranges ON history(drawingId, number) WHERE lastNumber IS NOT NULL",
        "CREATE INDEX history_latest ON history(drawingId, id)",
        """
        CREATE TABLE marker (
            drawingId bigint NOT NULL REFERENCES drawing(id) ON DELETE CASCADE,
            number bigint NOT NULL CHECK (number > 0),
            x double precision NOT NULL,
            y double precision NOT NULL,
            status smallint NOT NULL DEFAULT 0 CHECK (status >= 0 AND status <= 4),
            note text,
            author text,
            rooms text NOT NULL DEFAULT '[]',
            createdAt bigint NOT NULL,
            updatedAt bigint,
            uuid text,
            ref text,
            category text,
            priority smallint NOT NULL DEFAULT 1 CHECK (priority >= 0 AND priority <= 3),
            assignee text,
            due text,
            capturedAt text,
            needsPlacement text,
            PRIMARY KEY (drawingId, number)
        )
        """,
        "CREATE UNIQUE INDEX marker_uuid ON marker(uuid) WHERE uuid IS NOT NULL",
    ]
}
