import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore
import PostgresNIO

extension PostgresStore {
    /// Adds a drawing: its image bytes (content-addressed, in the `image` table, so that every server can read
    /// them), its first revision and its regions, in one transaction.
    /// - Complexity: O(image bytes + region vertices).
    public func addDrawing(_ new: NewDrawing, regions: [Region]) async throws(StoreError) -> Drawing {
        let checked = try StoreRules.drawing(new, regions: regions)
        var drawing = checked.drawing
        let bytes = checked.bytes, digest = checked.drawing.imageSHA256
        return try await write(lockDrawing: nil) { connection, logger in
            // Two servers adding one name at once: the unique index decides; the loser sees the name taken.
            let inserted = try await connection.query("""
                INSERT INTO drawing (name, imagePath, imageSHA256, width, height, zoom, crs, singleMarker, nextNumber, createdAt,
                                     regionsRevision, uuidSeed, revision)
                VALUES (\(drawing.name), \(drawing.imagePath), \(digest), \(drawing.width), \(drawing.height), \(drawing.zoom.value),
                        \(drawing.crs.rawValue), \(drawing.singleMarker), 1, \(drawing.createdAt.milliseconds), 0, \(drawing.uuidSeed), 1)
                ON CONFLICT (name) DO NOTHING
                RETURNING id
                """, logger: logger)
            var id: Int64? = nil
            for try await (value) in inserted.decode(Int64.self) { id = value }
            guard let id else { throw StoreError.duplicateDrawing(new.name) }
            drawing.id = id
            try await connection.query(
                "INSERT INTO image (sha256, bytes) VALUES (\(digest), \(ByteBuffer(bytes: bytes))) ON CONFLICT (sha256) DO NOTHING",
                logger: logger)
            try await connection.query("""
                INSERT INTO revision (drawingId, number, imagePath, imageSHA256, width, height, createdAt)
                VALUES (\(id), 1, \(drawing.imagePath), \(digest), \(drawing.width), \(drawing.height), \(drawing.createdAt.milliseconds))
                """, logger: logger)
            try await Self.insertRegions(connection, regions, drawingID: id, logger: logger)
            return drawing
        }
    }

    /// Inserts `regions` of a drawing at positions 0, 1, 2 ...
    /// - Complexity: O(region vertices), one statement per region.
    static func insertRegions(_ connection: PostgresConnection, _ regions: [Region], drawingID: Int64, logger: Logger) async throws {
        for (position, region) in regions.enumerated() {
            let record = RegionRecord(drawingID: drawingID, position: position, region: region)
            try await connection.query("""
                INSERT INTO region (drawingId, position, regionId, kind, name, geometry, minX, minY, maxX, maxY)
                VALUES (\(drawingID), \(position), \(record.regionID), \(record.kind.rawValue), \(record.name), \(record.geometry),
                        \(record.bounds.minX), \(record.bounds.minY), \(record.bounds.maxX), \(record.bounds.maxY))
                """, logger: logger)
        }
    }

    /// The image the drawing was added with (or revised to), byte for byte.
    /// - Complexity: O(image bytes).
    public func image(of name: String) async throws(StoreError) -> DrawingImage {
        try await readSnapshot { connection, logger in
            guard let drawing = try await Self.fetchDrawing(connection, named: name, logger: logger) else { throw StoreError.unknownDrawing(name) }
            for try await (bytes) in try await connection.query(
                "SELECT bytes FROM image WHERE sha256 = \(drawing.imageSHA256)", logger: logger
            ).decode(ByteBuffer.self) {
                return DrawingImage(sha256: drawing.imageSHA256, bytes: Array(bytes.readableBytesView))
            }
            throw StoreError.imageChanged(drawing: name, path: drawing.imagePath)
        }
    }

    /// Every drawing with its counts, by name.
    public func drawings() async throws(StoreError) -> [DrawingSummary] {
        try await readSnapshot { connection, logger in
            var result: [DrawingSummary] = []
            let sql = "SELECT \(Self.drawingColumns), (SELECT count(*) FROM marker m WHERE m.drawingId = d.id), "
                + "(SELECT count(*) FROM region r WHERE r.drawingId = d.id) FROM drawing d ORDER BY name COLLATE \"C\""
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) {
                result.append(try Self.decodeSummary(row))
            }
            return result
        }
    }

    /// The drawing named `name` with its counts.
    public func drawing(named name: String) async throws(StoreError) -> DrawingSummary {
        if name.utf8.contains(0) { throw .unknownDrawing(name) }
        return try await readSnapshot { connection, logger in
            let sql = "SELECT \(Self.drawingColumns), (SELECT count(*) FROM marker m WHERE m.drawingId = d.id), "
                + "(SELECT count(*) FROM region r WHERE r.drawingId = d.id) FROM drawing d WHERE name = $1"
            var bindings = PostgresBindings()
            bindings.append(name)
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger) {
                return try Self.decodeSummary(row)
            }
            throw StoreError.unknownDrawing(name)
        }
    }

    /// A summary from a row of `drawingColumns` and the two counts.
    static func decodeSummary(_ row: PostgresRow) throws -> DrawingSummary {
        let drawing = try decodeDrawing(row)
        let cells = row.makeRandomAccess()
        return DrawingSummary(drawing: drawing, markerCount: try cells[16].decode(Int.self), regionCount: try cells[17].decode(Int.self))
    }

    /// The drawing named `name` without its counts.
    /// - Complexity: O(log d) for the store's d drawings.
    public func drawingRecord(named name: String) async throws(StoreError) -> Drawing {
        try await read { connection, logger in
            guard let drawing = try await Self.fetchDrawing(connection, named: name, logger: logger) else { throw StoreError.unknownDrawing(name) }
            return drawing
        }
    }

    /// The drawing's regions, in file order.
    public func regions(of name: String) async throws(StoreError) -> [Region] {
        try await readSnapshot { connection, logger in
            guard let drawing = try await Self.fetchDrawing(connection, named: name, logger: logger) else { throw StoreError.unknownDrawing(name) }
            return try await Self.fetchRegions(connection, drawingID: drawing.id!, logger: logger)
        }
    }
}
