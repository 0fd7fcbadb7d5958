import PlanMarkStore
import Foundation
import GRDB
import PlanMarkFormats
import PlanMarkGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SQLiteStore {
    /// The image the drawing was added with (or revised to), exactly those bytes (their SHA-256 is `imageSHA256`), and
    /// its PDF page when it is one.
    ///
    /// A store made before images were kept inside it may lack them: then the file the drawing was added
    /// from is read and used only if its SHA-256 is still the recorded one (`imageChanged` otherwise).
    /// - Complexity: O(image bytes).
    public func image(of name: String) async throws(StoreError) -> DrawingImage {
        let (drawing, stored) = try await read { db -> (Drawing, Data?) in
            let drawing = try Self.fetchDrawing(db, named: name)
            let bytes = try Data.fetchOne(db, sql: "SELECT bytes FROM image WHERE sha256 = ?", arguments: [drawing.imageSHA256])
            return (drawing, bytes)
        }
        if let stored { return DrawingImage(sha256: drawing.imageSHA256, bytes: [UInt8](stored), pdf: drawing.pdf) }
        let bytes: [UInt8]
        do throws(StoreError) {
            bytes = try StoreRules.readImage(path: drawing.imagePath)
        } catch {
            throw .imageChanged(drawing: name, path: drawing.imagePath)
        }
        guard SHA256.hexDigest(of: bytes) == drawing.imageSHA256 else {
            throw .imageChanged(drawing: name, path: drawing.imagePath)
        }
        return DrawingImage(sha256: drawing.imageSHA256, bytes: bytes, pdf: drawing.pdf)
    }

    /// Every drawing with its counts, by name.
    public func drawings() async throws(StoreError) -> [DrawingSummary] {
        try await read { db in
            try Drawing.order(Column("name")).fetchAll(db).map { try Self.summary(db, $0) }
        }
    }

    /// The drawing named `name` with its counts.
    public func drawing(named name: String) async throws(StoreError) -> DrawingSummary {
        try await read { db in try Self.summary(db, try Self.fetchDrawing(db, named: name)) }
    }

    /// The drawing named `name` without its counts.
    /// - Complexity: O(log d) for the store's d drawings.
    public func drawingRecord(named name: String) async throws(StoreError) -> Drawing {
        try await read { db in try Self.fetchDrawing(db, named: name) }
    }

    /// The drawing's regions, in file order.
    public func regions(of name: String) async throws(StoreError) -> [Region] {
        try await read { db in try Self.fetchRegions(db, drawingID: try Self.fetchDrawing(db, named: name).id!) }
    }

    static func summary(_ db: Database, _ drawing: Drawing) throws -> DrawingSummary {
        let markers = try Int.fetchOne(db, sql: "SELECT count(*) FROM marker WHERE drawingId = ?", arguments: [drawing.id]) ?? 0
        let regions = try Int.fetchOne(db, sql: "SELECT count(*) FROM region WHERE drawingId = ?", arguments: [drawing.id]) ?? 0
        let project = try String.fetchOne(db, sql: "SELECT name FROM project WHERE id = ?", arguments: [drawing.projectID]) ?? Project.defaultName
        return DrawingSummary(drawing: drawing, markerCount: markers, regionCount: regions, project: project)
    }
}
