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

extension SQLiteStore {
    /// Imports markers atomically.
    ///
    /// 1. Reads the input into memory (`MarkerRowSource.readInput`), outside any transaction, so a slow input
    ///    never holds the write lock.
    /// 2. In one `BEGIN IMMEDIATE` transaction, against the drawing's current regions: parses and validates the
    ///    rows block by block on background threads (`ImportValidation`) while this thread stores the valid rows
    ///    of the chunks already validated, with consecutive numbers and one `created` history entry for the
    ///    range. With invalid rows and no `skipInvalid`, storing stops at the first, validation goes on (to
    ///    report every invalid row), and the transaction is rolled back: nothing is stored. A row whose text
    ///    cannot be stored, or the input's own error, rolls everything back too.
    ///
    /// Why the pipeline: SQLite's inserts run on one thread and are the import's critical path; parsing and
    /// validating before the transaction (as earlier versions did) added their wall time to it, and the input
    /// is already in memory, so holding the write lock while parsing costs no more than the inserts do.
    /// Foreign key checks are off for this transaction (every row references the drawing read in it).
    ///
    /// Offline capture: a row whose `uuid` is stored already for this drawing (or appeared earlier in the file)
    /// is skipped and counted (`alreadyStored`), so importing one file twice stores nothing the second time; a
    /// uuid stored on another drawing is `uuidConflict` and nothing is stored. Rows carry every field of a
    /// PlanMark export (status, category, priority, assignee, due, capturedAt; the `id` is kept as `ref`).
    ///
    /// A crash or `kill -9` before the commit leaves the store as it was (SQLite's WAL rolls back).
    /// In single-marker mode only the last valid row is stored (it replaces the existing marker).
    /// - Complexity: O(n * k) validation for n rows and k nearby regions, O(n log n) inserts.
    public func importMarkers<Source: MarkerRowSource>(into name: String, from source: inout Source, skipInvalid: Bool,
                                                       author: String?) async throws(StoreError) -> ImportOutcome {
        // The rows are parsed and validated inside the transaction, while the rows before them are being stored.
        try StoreRules.readImportInput(&source, author: author)
        return try await writeOrRollBack(foreignKeys: false) { db in
            var drawing = try Self.fetchDrawing(db, named: name)
            let validator = StoreRules.validator(for: drawing, regions: try Self.fetchRegions(db, drawingID: drawing.id!))
            // The page cache: with SQLite's default 2 MiB, the B-tree's inner pages were spilled to the WAL and
            // written again and again (a million markers: 533 MB of WAL for a 78 MB table). From 16 MiB on they
            // stay cached and each full leaf is spilled once (78 MB of WAL); pages spilled during the
            // transaction, rather than all at its commit, let `WALFlusher` put them on disk meanwhile.
            let cacheKiB = min(16384, max(2000, source.expectedRowCount / 8))
            try db.execute(sql: "PRAGMA cache_size = -\(cacheKiB)")
            defer { try? db.execute(sql: "PRAGMA cache_size = -2000") }
            let flusher = WALFlusher(walPath: path + "-wal")
            defer { flusher?.finish() }
            let pipeline = ImportValidation(source, validator: validator)
            defer { pipeline.finish() }
            let now = Timestamp.now()
            let first = drawing.nextNumber
            var inserter = MarkerInserter(db, drawingID: drawing.id!, time: now)
            var rejected: [RejectedRow] = []
            var stored = 0
            var total = 0
            var lastAccepted: (chunk: ValidatedChunk, index: Int)?
            var known = KnownUUIDs(db, drawing: drawing)
            // The input's error, met while the rows before it are stored, is reported as such (and rolls back).
            func nextChunk() throws(StoreError) -> ValidatedChunk? {
                do { return try pipeline.next() } catch { throw .input(error) }
            }
            while var chunk = try nextChunk() {
                total += chunk.count
                if let problem = chunk.problem { throw problem }
                for (k, (index, _)) in chunk.rejected.enumerated() {
                    if !chunk.plain, try known.isStored(chunk.rows[index]) { continue }
                    rejected.append(chunk.rejectedRows[k])
                }
                if chunk.hasUUIDs { chunk.accepted = try chunk.accepted.filter { try !known.isStored(chunk.rows[$0]) } }
                if (!rejected.isEmpty && !skipInvalid) || chunk.accepted.isEmpty { continue }
                if drawing.singleMarker {
                    lastAccepted = (chunk, chunk.accepted.last!)
                    continue
                }
                try inserter.insert(chunk: chunk, firstNumber: first + stored, author: author)
                flusher?.flush()
                stored += chunk.accepted.count
            }
            if !rejected.isEmpty && !skipInvalid {
                return (ImportOutcome(total: total, stored: 0, numbers: 0..<0, rejected: rejected, alreadyStored: known.count),
                        commit: false)
            }
            if let (chunk, index) = lastAccepted {
                try Self.replaceAll(db, drawingID: drawing.id!, by: first, at: now, author: author)
                var single = chunk
                single.accepted = [index]
                try inserter.insert(chunk: single, firstNumber: first, author: author)
                stored = 1
            }
            if stored > 0 {
                try Self.appendHistory(db, [HistoryEntry(sequence: 0, drawingID: drawing.id!, number: first, lastNumber: first + stored - 1,
                                                         action: .created, at: now, author: author, old: nil, new: nil)])
                try Self.importRange(db, drawingID: drawing.id!, numbers: first...(first + stored - 1))
                drawing.nextNumber += stored
                try drawing.update(db, columns: ["nextNumber"])
            }
            return (ImportOutcome(total: total, stored: stored, numbers: first..<drawing.nextNumber, rejected: rejected,
                                  alreadyStored: known.count), commit: true)
        }
    }
}
