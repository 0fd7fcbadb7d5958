import Logging
import PostgresNIO

/// PostGIS geometry columns for GIS users (pixel space, SRID 0, GiST-indexed), added when the server has PostGIS.
/// They are generated from PlanMark's own columns, so they cannot disagree with them; PlanMark's answers still come
/// from its exact geometry core, never from these.
enum PostgresGIS {
    /// Adds `marker.geom` (a point) and `region.geom` (the polygon) when PostGIS is installed in the database or can
    /// be (`CREATE EXTENSION` needs the right to); otherwise does nothing.
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
}
