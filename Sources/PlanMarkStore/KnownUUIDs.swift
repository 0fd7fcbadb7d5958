import Dispatch
import GRDB
import GRDBSQLite
import PlanMarkFormats
import PlanMarkGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif


/// The uuids an import has met: those stored for the drawing (looked up in the uuid index) and those of the
/// file's earlier rows.
struct KnownUUIDs {
    private let db: Database
    private let drawing: Drawing
    private var seen: Set<MarkerUUID> = []
    /// Rows found stored already.
    private(set) var count = 0

    init(_ db: Database, drawing: Drawing) {
        self.db = db
        self.drawing = drawing
    }

    /// Whether `row`'s uuid is stored for the drawing or came earlier in the file (counted); a uuid stored on
    /// another drawing is `uuidConflict`. Rows without uuid are never stored already.
    /// - Complexity: O(log n).
    mutating func isStored(_ row: MarkerRow) throws -> Bool {
        guard let uuid = row.uuid else { return false }
        if seen.contains(uuid) {
            count += 1
            return true
        }
        seen.insert(uuid)
        // A store-made uuid of this drawing for a marker since removed: it was stored once; skipped as such.
        if let (owner, number) = try SQLiteStore.derivedOwner(db, uuid), owner.id == drawing.id, number < owner.nextNumber,
           try Int.fetchOne(db, sql: "SELECT count(*) FROM marker WHERE drawingId = ? AND number = ?", arguments: [owner.id!, number]) == 0 {
            count += 1
            return true
        }
        guard let found = try SQLiteStore.fetchMarker(db, uuid: uuid) else { return false }
        guard found.drawingID == drawing.id! else {
            let owner = try String.fetchOne(db, sql: "SELECT name FROM drawing WHERE id = ?", arguments: [found.drawingID]) ?? "?"
            throw StoreError.uuidConflict(uuid: uuid, drawing: owner, number: found.number)
        }
        count += 1
        return true
    }
}
