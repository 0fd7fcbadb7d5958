import Logging
import PostgresNIO

/// PostGIS geometry for GIS users (pixel space, SRID 0), when the server has PostGIS: `region.geom`, a generated,
/// GiST-indexed column, and `marker_geometry.geom`, a view's point (`pg6-marker-geometry-view`). Both are computed from
/// PlanMark's own columns, so they cannot disagree with them; PlanMark's answers still come from its exact geometry
/// core, never from these.
enum PostgresGIS {
    /// Adds `marker.geom` (a point) and `region.geom` (the polygon) when PostGIS is installed in the database or can
    /// be (`CREATE EXTENSION` needs the right to); otherwise does nothing. (Migration `pg2-postgis`, as shipped;
    /// `moveMarkerGeometryToView` then replaces `marker.geom`.)
    static func addGeometryColumns(_ connection: PostgresConnection, logger: Logger) async throws {
        var available = false
        for try await (count) in try await connection.query(
            "SELECT count(*) FROM pg_available_extensions WHERE name = 'postgis'", logger: logger
        ).decode(Int.self) {
            available = count > 0
        }
        guard available else { return }
        try await connection.query("SAVEPOINT postgis", logger: logger)
        do {
            try await connection.query("CREATE EXTENSION IF NOT EXISTS postgis", logger: logger)
            try await connection.query("RELEASE SAVEPOINT postgis", logger: logger)
        } catch {
            // Not allowed to create it here (not a superuser, not trusted): the store works without.
            try await connection.query("ROLLBACK TO SAVEPOINT postgis", logger: logger)
            logger.notice("PostGIS is installed on the server but could not be enabled in this database; no geometry columns")
            return
        }
        let statements = [
            """
            ALTER TABLE marker ADD COLUMN geom geometry(Point, 0)
                GENERATED ALWAYS AS (ST_SetSRID(ST_MakePoint(x, y), 0)) STORED
            """,
            "CREATE INDEX marker_geom ON marker USING gist (geom)",
            """
            ALTER TABLE region ADD COLUMN geom geometry(Geometry, 0)
                GENERATED ALWAYS AS (ST_SetSRID(ST_GeomFromGeoJSON(geometry), 0)) STORED
            """,
            "CREATE INDEX region_geom ON region USING gist (geom)",
        ]
        for statement in statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
    }

    /// The view of every marker's point, `marker_geometry (drawingId, number, geom)`, in place of the stored, GiST-indexed
    /// `marker.geom` (dropped, with its index): an import no longer keeps a spatial index up row by row. Does nothing
    /// in a database without PostGIS's geometry columns.
    ///
    /// A GIS query of markers in a room searches the region's index and filters the drawing's markers, which
    /// `marker`'s primary key `(drawingId, number)` finds: `SELECT g.number FROM region r JOIN marker_geometry g ON
    /// g.drawingId = r.drawingId WHERE r.regionId = 'R1' AND ST_Covers(r.geom, g.geom)`.
    /// - Complexity: O(1) statements; the column's drop does not rewrite the table.
    static func moveMarkerGeometryToView(_ connection: PostgresConnection, logger: Logger) async throws {
        guard try await hasGeometry(connection, logger: logger) else { return }
        let statements = [
            "DROP INDEX IF EXISTS marker_geom",
            "ALTER TABLE marker DROP COLUMN IF EXISTS geom",
            """
            CREATE VIEW marker_geometry AS
                SELECT drawingId, number, ST_SetSRID(ST_MakePoint(x, y), 0)::geometry(Point, 0) AS geom FROM marker
            """,
        ]
        for statement in statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
    }

    /// Whether the database has PostGIS's geometry (`pg2-postgis` found PostGIS): `region.geom` is there.
    static func hasGeometry(_ connection: PostgresConnection, logger: Logger) async throws -> Bool {
        var found = false
        for try await (count) in try await connection.query(
            "SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'region' AND column_name = 'geom'",
            logger: logger
        ).decode(Int.self) {
            found = count > 0
        }
        return found
    }
}
