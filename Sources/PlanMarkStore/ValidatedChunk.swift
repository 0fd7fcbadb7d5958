import Dispatch
import PlanMarkFormats
import PlanMarkGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif


/// One chunk of an import's rows, parsed and validated.
package struct ValidatedChunk: Sendable {
    /// How many rows the chunk has.
    package var count: Int
    /// True when every row has a position and nothing else (no note, author, id, uuid or punch-item field):
    /// then `rows` is empty (dropped by the validating thread) and only `positions` and the rooms are kept.
    package var plain = true
    /// The chunk's rows, in file order (empty when `plain`).
    package var rows: [MarkerRow]
    /// Each row's position (zero for a row without one), so that storing a plain row reads no `MarkerRow`.
    package var positions: [PixelPoint] = []
    /// The refused rows as reported, in file order (as `rejected`).
    package var rejectedRows: [RejectedRow] = []
    /// The first row whose text cannot be stored (`StoreRules.checkImported`), if any.
    package var problem: StoreError?
    /// Indices (into `rows`) of the valid rows, in file order.
    package var accepted: [Int] = []
    /// The refused rows (indices into `rows`) and why, in file order.
    package var rejected: [(Int, InvalidReason)] = []
    /// The rooms of the valid rows as JSON arrays, one after the other.
    package var rooms: [UInt8] = []
    /// For each row, where its rooms end in `rooms` (they start where the previous row's end).
    package var roomEnds: [Int] = []
    /// True when a row of the chunk has a uuid.
    package var hasUUIDs = false

    /// Validates `rows`; each valid row's rooms become the JSON array of its room ids, in region order.
    /// - Complexity: O(m * k) for m rows and k nearby regions.
    init(_ rows: [MarkerRow], validator: MarkerValidator, roomText: [[UInt8]?]) {
        self.rows = rows
        count = rows.count
        accepted.reserveCapacity(rows.count)
        roomEnds.reserveCapacity(rows.count)
        positions.reserveCapacity(rows.count)
        rooms.reserveCapacity(rows.count * 16)
        var hits: [RegionHit] = []
        for index in rows.indices {
            defer { roomEnds.append(rooms.count) }
            let row = rows[index]
            if !row.hasOnlyPosition || row.note != nil || row.author != nil || row.ref != nil {
                plain = false
                if row.uuid != nil { hasUUIDs = true }
                if problem == nil {
                    do throws(StoreError) { try StoreRules.checkImported(row) } catch { problem = error }
                }
            }
            positions.append(row.position ?? PixelPoint(x: 0, y: 0))
            guard let position = row.position else {
                rejected.append((index, .invalidCoordinate))
                rejectedRows.append(RejectedRow(id: row.id, line: row.line, position: nil, reason: .invalidCoordinate))
                continue
            }
            if let reason = validator.validate(position, hits: &hits) {
                rejected.append((index, reason))
                rejectedRows.append(RejectedRow(id: row.id, line: row.line, position: position, reason: reason))
                continue
            }
            accepted.append(index)
            rooms.append(UInt8(ascii: "["))
            var count = 0
            for hit in hits {
                guard let room = roomText[hit.regionIndex] else { continue }
                if count > 0 { rooms.append(UInt8(ascii: ",")) }
                rooms.append(contentsOf: room)
                count += 1
            }
            rooms.append(UInt8(ascii: "]"))
        }
        // Freed here, on the validating thread, rather than by the importing thread.
        if plain { self.rows = [] }
    }
}
