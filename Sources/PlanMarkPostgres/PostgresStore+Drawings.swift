import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore
import PostgresNIO

extension PostgresStore {
    /// Inserts `regions` of a drawing at positions 0, 1, 2 ...
    /// - Complexity: O(region vertices), one statement per region.
    static func insertRegions(_ connection: PostgresConnection, _ regions: [Region], drawingID: Int64, logger: Logger) async throws {
        for (position, region) in regions.enumerated() {
            let record = RegionRecord(drawingID: drawingID, position: position, region: region)
            try await connection.query("""
                INSERT INTO region (drawingId, position, regionId, kind, name, geometry, minX, minY, maxX, maxY, labelBox)
                VALUES (\(drawingID), \(position), \(record.regionID), \(record.kind.rawValue), \(record.name), \(record.geometry),
                        \(record.bounds.minX), \(record.bounds.minY), \(record.bounds.maxX), \(record.bounds.maxY), \(record.labelBox))
                """, logger: logger)
        }
    }

    /// The image the drawing was added with (or revised to), byte for byte, and its PDF page when it is one.
    /// - Complexity: O(image bytes).
    public func image(of name: String) async throws(StoreError) -> DrawingImage {
        try await readSnapshot { connection, logger in
            guard let drawing = try await Self.fetchDrawing(connection, named: name, logger: logger) else { throw StoreError.unknownDrawing(name) }
            for try await (bytes) in try await connection.query(
                "SELECT bytes FROM image WHERE sha256 = \(drawing.imageSHA256)", logger: logger
            ).decode(ByteBuffer.self) {
                return DrawingImage(sha256: drawing.imageSHA256, bytes: Array(bytes.readableBytesView), pdf: drawing.pdf)
            }
            throw StoreError.imageChanged(drawing: name, path: drawing.imagePath)
        }
    }

    /// Every drawing with its counts, by name.
    public func drawings() async throws(StoreError) -> [DrawingSummary] {
        try await readSnapshot { connection, logger in
            var result: [DrawingSummary] = []
            let sql = "SELECT \(Self.drawingColumns), \(Self.summaryColumns) FROM drawing d ORDER BY name COLLATE \"C\""
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
            let sql = "SELECT \(Self.drawingColumns), \(Self.summaryColumns) FROM drawing d WHERE name = $1"
            var bindings = PostgresBindings()
            bindings.append(name)
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger) {
                return try Self.decodeSummary(row)
            }
            throw StoreError.unknownDrawing(name)
        }
    }

    /// What a summary adds to `drawingColumns` (of `drawing d`): the two counts and the project's name.
    static let summaryColumns = "(SELECT count(*) FROM marker m WHERE m.drawingId = d.id), (SELECT count(*) FROM region r WHERE r.drawingId = d.id), "
        + "(SELECT p.name FROM project p WHERE p.id = d.projectId)"

    /// A summary from a row of `drawingColumns` and `summaryColumns`.
    static func decodeSummary(_ row: PostgresRow) throws -> DrawingSummary {
        let drawing = try decodeDrawing(row)
        let cells = row.makeRandomAccess()
        let first = drawingColumnCount
        return DrawingSummary(drawing: drawing, markerCount: try cells[first].decode(Int.self), regionCount: try cells[first + 1].decode(Int.self),
                              project: try cells[first + 2].decode(String.self))
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
