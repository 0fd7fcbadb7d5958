import PlanMarkStore
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
        // A uuid of the store's own form (`DerivedUUID`): stored already when it is this drawing's, given, and its
        // marker (if not removed since) still has it; else as `StoreBackend.marker(_:uuid:)` says.
        if let (seed, number) = DerivedUUID.parts(of: uuid),
           let owner = try Drawing.filter(Column("uuidSeed") == seed).fetchOne(db), let ownerID = owner.id {
            guard number < owner.nextNumber else {
                throw StoreError.refused(.uuidNotIssued(uuid: uuid, drawing: owner.name, number: number))
            }
            let derived = try Bool.fetchOne(db, sql: "SELECT uuid IS NULL FROM marker WHERE drawingId = ? AND number = ?",
                                            arguments: [ownerID, number])
            guard ownerID == drawing.id!, derived != false else {
                throw StoreError.uuidConflict(uuid: uuid, drawing: owner.name, number: number)
            }
            count += 1
            return true
        }
        guard let found = try Row.fetchOne(db, sql: "SELECT drawingId, number FROM marker WHERE uuid = ?", arguments: [uuid.text]) else {
            return false
        }
        let (foundDrawing, foundNumber): (Int64, Int) = (found[0], found[1])
        guard foundDrawing == drawing.id! else {
            let owner = try String.fetchOne(db, sql: "SELECT name FROM drawing WHERE id = ?", arguments: [foundDrawing]) ?? "?"
            throw StoreError.uuidConflict(uuid: uuid, drawing: owner, number: foundNumber)
        }
        count += 1
        return true
    }
}
