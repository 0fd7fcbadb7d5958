import GRDB
import PlanMarkGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SQLiteStore {
    /// Adds a drawing: reads the PNG header for the size, hashes the image, stores the drawing and its
    /// regions in one transaction.
    /// - Complexity: O(image bytes + region vertices).
    public func addDrawing(_ new: NewDrawing, regions: [Region]) throws(StoreError) -> Drawing {
        guard !new.name.isEmpty else { throw .invalidArgument("a drawing needs a non-empty name") }
        guard new.zoom.value.isFinite else { throw .invalidArgument("the zoom must be a finite number") }
        let header = try PNGHeader(path: new.imagePath)
        let digest = try SHA256.hexDigest(ofFile: new.imagePath)
        var drawing = Drawing(
            name: new.name, imagePath: Self.absolutePath(new.imagePath), imageSHA256: digest,
            width: header.width, height: header.height, zoom: new.zoom, crs: new.crs,
            singleMarker: new.singleMarker, createdAt: .now()
        )
        return try write { db in
            if try Drawing.filter(Column("name") == new.name).fetchCount(db) > 0 {
                throw StoreError.duplicateDrawing(new.name)
            }
            try drawing.insert(db)
            for (position, region) in regions.enumerated() {
                try RegionRecord(drawingID: drawing.id!, position: position, region: region).insert(db)
            }
            return drawing
        }
    }

    /// Every drawing with its counts, by name.
    public func drawings() throws(StoreError) -> [DrawingSummary] {
        try read { db in
            try Drawing.order(Column("name")).fetchAll(db).map { try Self.summary(db, $0) }
        }
    }

    /// The drawing named `name` with its counts.
    public func drawing(named name: String) throws(StoreError) -> DrawingSummary {
        try read { db in try Self.summary(db, try Self.fetchDrawing(db, named: name)) }
    }

    /// The drawing's regions, in file order.
    public func regions(of name: String) throws(StoreError) -> [Region] {
        try read { db in try Self.fetchRegions(db, drawingID: try Self.fetchDrawing(db, named: name).id!) }
    }

    static func summary(_ db: Database, _ drawing: Drawing) throws -> DrawingSummary {
        let markers = try Int.fetchOne(db, sql: "SELECT count(*) FROM marker WHERE drawingId = ?", arguments: [drawing.id]) ?? 0
        let regions = try Int.fetchOne(db, sql: "SELECT count(*) FROM region WHERE drawingId = ?", arguments: [drawing.id]) ?? 0
        return DrawingSummary(drawing: drawing, markerCount: markers, regionCount: regions)
    }

    /// `path` made absolute against the current directory (lexically; the file is not resolved).
    static func absolutePath(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let directory = String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var parts = directory.split(separator: "/").map(String.init)
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(String(part))
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
