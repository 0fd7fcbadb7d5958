import Foundation
import PlanMarkGeometry
@testable import PlanMarkStore

/// Helpers shared by the store tests: temporary folders, PNG headers, a store with a drawing.
enum StoreFixtures {
    /// A fresh temporary folder.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("planmark-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The first 33 bytes of a PNG of `width` x `height` (signature + IHDR chunk, CRC not checked by the store).
    static func pngHeader(width: UInt32, height: UInt32, chunkType: String = "IHDR", length: UInt32 = 13) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)] }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(length) + Array(chunkType.utf8) + be(width) + be(height)
            + [8, 2, 0, 0, 0] + [0, 0, 0, 0]
    }

    /// Writes a PNG header file and returns its path.
    static func png(in folder: URL, name: String = "plan.png", width: UInt32 = 400, height: UInt32 = 300) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(pngHeader(width: width, height: height)).write(to: url)
        return url.path
    }

    /// An axis-aligned rectangle region.
    static func rectangle(_ id: String, _ kind: RegionKind, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Region {
        try! Region(id: id, kind: kind, coordinates: [[[PixelPoint(x: x0, y: y0), PixelPoint(x: x1, y: y0),
                                                         PixelPoint(x: x1, y: y1), PixelPoint(x: x0, y: y1)]]])
    }

    /// On a 400 x 300 drawing: allowed area 10...390 x 10...290; rooms R1 (10...200) and R2 (200...390)
    /// sharing the wall x = 200.
    static let regions: [Region] = [
        rectangle("A", .allowed, 10, 10, 390, 290),
        rectangle("R1", .room, 10, 10, 200, 290),
        rectangle("R2", .room, 200, 10, 390, 290),
    ]

    /// A new store in a new folder with drawing "A" (400 x 300, the regions above).
    static func storeWithDrawing(singleMarker: Bool = false) throws -> (SQLiteStore, URL) {
        let folder = try folder()
        let store = try SQLiteStore(path: folder.appendingPathComponent("store.sqlite").path, create: true)
        _ = try store.addDrawing(NewDrawing(name: "A", imagePath: try png(in: folder), singleMarker: singleMarker), regions: regions)
        return (store, folder)
    }

    /// The fields a marker's whole state had before punch items (position, status, note, rooms), the
    /// rest dropped: for tests about those fields.
    static func basic(_ state: MarkerState?) -> MarkerState? {
        state.map { MarkerState(x: $0.x, y: $0.y, status: $0.status, note: $0.note, rooms: $0.rooms) }
    }

    /// Row counts of the tables, to check that a refused operation wrote nothing.
    static func counts(_ store: SQLiteStore) throws -> [Int] {
        try store.read { db in
            try ["drawing", "region", "marker", "history", "attachment", "attachmentBlob"].map { try Int.fetchOne(db, sql: "SELECT count(*) FROM \($0)")! }
                + [try Int.fetchOne(db, sql: "SELECT sum(nextNumber) FROM drawing") ?? 0]
        }
    }
}
