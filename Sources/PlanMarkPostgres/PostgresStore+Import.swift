import Dispatch
import NIOCore
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore
import PostgresNIO

extension PostgresStore {
    /// Imports markers atomically, as the contract `AnnotationStore.importMarkers` says (the same outcome, errors and history on every back end).
    ///
    /// 1. Reads the input into memory (`MarkerRowSource.readInput`), outside any transaction.
    /// 2. In one transaction that first locks the drawing's row (`writeOrRollBack(lockDrawing:)`): parses and
    ///    validates the rows block by block on background threads (`ImportValidation`, the geometry core) while the
    ///    valid rows of the chunks already validated are streamed to the server with `COPY marker FROM STDIN` (text
    ///    format, in buffers of `copyBufferBytes`), numbered from the drawing's counter. With invalid rows and no
    ///    `skipInvalid`, streaming stops at the first, validation goes on (to report every invalid row) and the
    ///    transaction is rolled back: nothing is stored. A row whose text cannot be stored, or the input's own error,
    ///    rolls everything back too.
    /// 3. The numbers given are taken from the counter with one `UPDATE drawing ... RETURNING` for the whole import,
    ///    in the same transaction (the row lock held since step 2 means no other writer gave any of them meanwhile),
    ///    and one `created` history entry records the range.
    ///
    /// Offline capture: a row whose `uuid` is stored already for this drawing (or came earlier in the file) is skipped
    /// and counted (`alreadyStored`); a uuid stored on another drawing is `uuidConflict` and nothing is stored. The
    /// uuids of a chunk are looked up in three statements (not one a row) before its rows are streamed; a COPY cannot
    /// run queries, so a chunk with uuids ends the COPY under way and the next rows go in a new one.
    ///
    /// A lost connection rolls the transaction back on the server: nothing is stored (`unavailable`). The import then
    /// ends at once, however far it was: each COPY buffer is waited for at most as long as the connection lives and
    /// the store's `statementTimeout` allows (`guardedWrite`), and the background validation is stopped.
    /// In single-marker mode only the last valid row is stored (it replaces the existing marker).
    /// - Complexity: O(n * k) validation for n rows and k nearby regions, O(n) bytes streamed, O(n log n) for the
    ///   server's indexes; memory O(block), not O(n).
    public func importMarkers<Source: MarkerRowSource>(into name: String, from source: inout Source, skipInvalid: Bool,
                                                       author: String?) async throws(StoreError) -> ImportOutcome {
        try StoreRules.readImportInput(&source, author: author)
        let input = source
        // Two imports into two drawings given one new uuid at once both find it free; the second's COPY waits at the
        // global uuid index for the first to commit and then fails. Run again, it finds the uuid stored and reports
        // `uuidConflict`, as SQLite (whose writers run one at a time) does.
        var attempt = 0
        while true {
            var raced = false
            do {
                return try await importOnce(into: name, from: input, skipInvalid: skipInvalid, author: author) { raced = true }
            } catch {
                attempt += 1
                if raced && attempt < 3 { continue }
                throw error
            }
        }
    }

    /// One attempt of `importMarkers`; `raced` is called when a uuid was stored by another transaction meanwhile.
    private func importOnce<Source: MarkerRowSource>(into name: String, from input: Source, skipInvalid: Bool, author: String?,
                                                     raced: () -> Void) async throws(StoreError) -> ImportOutcome {
        try await writeOrRollBack(lockDrawing: name) { connection, logger, locked in
            guard let drawing = locked, let drawingID = drawing.id else { throw StoreError.unknownDrawing(name) }
            let validator = try await self.validator(PostgresTransaction(connection: connection, logger: logger), for: drawing)
            let pipeline = ImportValidation(input, validator: validator)
            defer { pipeline.finish() }
            let waiter = DispatchQueue(label: "PlanMarkPostgres.import")
            // The next validated chunk, waited for on another thread so that this event loop goes on sending the rows
            // before it meanwhile.
            func nextChunk() async throws -> ValidatedChunk? {
                // Validation is this side's work, not the database's: it does not count against the deadline.
                Watchdog.current?.touch()
                defer { Watchdog.current?.touch() }
                let result: Result<ValidatedChunk?, FormatError> = await withCheckedContinuation { continuation in
                    waiter.async {
                        do throws(FormatError) {
                            continuation.resume(returning: .success(try pipeline.next()))
                        } catch {
                            continuation.resume(returning: .failure(error))
                        }
                    }
                }
                switch result {
                case .success(let chunk): return chunk
                case .failure(let error): throw StoreError.input(error)
                }
            }
            let now = Timestamp.now()
            let first = drawing.nextNumber
            let encoder = CopyRowEncoder(drawingID: drawingID, time: now, author: author)
            var rejected: [RejectedRow] = []
            var stored = 0
            var total = 0
            var lastAccepted: (chunk: ValidatedChunk, index: Int)?
            var known = PostgresKnownUUIDs(drawing: drawing)

            // A chunk's bookkeeping; true when its accepted rows are to be stored now. Queries only for a chunk with
            // uuids (after `known.lookUp`), so it can run during a COPY for the others.
            func admit(_ chunk: inout ValidatedChunk) throws -> Bool {
                total += chunk.count
                if let problem = chunk.problem { throw problem }
                for (k, (index, _)) in chunk.rejected.enumerated() {
                    if !chunk.plain, try known.isStored(chunk.rows[index]) { continue }
                    rejected.append(chunk.rejectedRows[k])
                }
                if chunk.hasUUIDs {
                    let rows = chunk.rows
                    chunk.accepted = try chunk.accepted.filter { try !known.isStored(rows[$0]) }
                }
                if (!rejected.isEmpty && !skipInvalid) || chunk.accepted.isEmpty { return false }
                if drawing.singleMarker, let last = chunk.accepted.last {
                    lastAccepted = (chunk, last)
                    return false
                }
                return true
            }
            // Streams the accepted rows of `chunk`, numbered from `firstNumber`; encoded on another thread.
            func send(_ chunk: ValidatedChunk, firstNumber: Int, _ writer: PostgresCopyFromWriter) async throws {
                let buffers: [ByteBuffer] = await withCheckedContinuation { continuation in
                    waiter.async { continuation.resume(returning: encoder.encode(chunk, firstNumber: firstNumber)) }
                }
                // Each buffer bounded by the connection's life and the watchdog (a lost connection during COPY left
                // postgres-nio's `write` waiting for ever).
                for buffer in buffers { try await writer.guardedWrite(buffer, connection: connection, logger: logger) }
            }

            var next = try await nextChunk()
            while var chunk = next {
                next = nil
                if chunk.hasUUIDs { try await known.lookUp(chunk.rows, connection, logger: logger) }
                guard try admit(&chunk) else {
                    next = try await nextChunk()
                    continue
                }
                // One COPY for this chunk and the following ones, up to a chunk with uuids (which needs queries).
                do {
                    try await Self.copy(connection, logger: logger) { writer in
                        try await send(chunk, firstNumber: first + stored, writer)
                        stored += chunk.accepted.count
                        while var following = try await nextChunk() {
                            if following.hasUUIDs {
                                next = following
                                return
                            }
                            guard try admit(&following) else { continue }
                            try await send(following, firstNumber: first + stored, writer)
                            stored += following.accepted.count
                        }
                    }
                } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" && error.serverInfo?[.constraintName] == "marker_uuid" {
                    raced()
                    throw error
                }
            }
            if !rejected.isEmpty && !skipInvalid {
                return (ImportOutcome(total: total, stored: 0, numbers: 0..<0, rejected: rejected, alreadyStored: known.count),
                        commit: false)
            }
            if let (chunk, index) = lastAccepted {
                try await Self.replaceAll(PostgresTransaction(connection: connection, logger: logger), drawing: drawing, by: first, at: now,
                                         author: author)
                var single = chunk
                single.accepted = [index]
                try await Self.copy(connection, logger: logger) { writer in
                    try await send(single, firstNumber: first, writer)
                }
                stored = 1
            }
            if stored > 0 {
                // The numbers, from the counter, for the whole import at once (the row is locked since the start).
                var reserved: Int? = nil
                for try await (value) in try await connection.query(
                    "UPDATE drawing SET nextNumber = nextNumber + \(stored) WHERE id = \(drawingID) RETURNING nextNumber - \(stored)",
                    logger: logger
                ).decode(Int.self) {
                    reserved = value
                }
                guard reserved == first else {
                    throw StoreError.io("\(self.url): drawing \"\(drawing.name)\"'s counter moved during an import under its row lock")
                }
                let last = first + stored - 1
                try await Self.appendHistory(PostgresTransaction(connection: connection, logger: logger), [
                    HistoryEntry(sequence: 0, drawingID: drawingID, number: first, lastNumber: last, action: .created, at: now,
                                 author: author, old: nil, new: nil),
                ])
                try await Self.importRange(PostgresTransaction(connection: connection, logger: logger), drawing: drawing, numbers: first...last)
            }
            return (ImportOutcome(total: total, stored: stored, numbers: first..<(first + stored), rejected: rejected,
                                  alreadyStored: known.count), commit: true)
        }
    }

    /// `COPY marker (CopyRowEncoder.columns) FROM STDIN` with the rows `writeData` writes, under the operation's
    /// watchdog's `copying` (the connection is not closed during it).
    ///
    /// How the COPY ends: postgres-nio 1.33 sends `CopyDone` (or `CopyFail`) when `writeData` returns (or throws), and
    /// traps ("Copy mode is only supported for extended queries") when that comes after the connection ended (its
    /// backend terminated) but before its channel handler is removed, a turn of the event loop later. So `writeData`
    /// runs on the operation's own event loop, as every other step does, and its end comes back to the connection's
    /// loop (`settle`): there the connection is seen open and the COPY ended in the same turn of that loop, or seen
    /// ended and waited for until its channel is wholly closed, when the COPY's end fails with "connection closed".
    static func copy(_ connection: PostgresConnection, logger: Logger,
                     _ writeData: (PostgresCopyFromWriter) async throws -> Void) async throws {
        let home = EventLoopExecutor(Watchdog.current?.loop ?? connection.eventLoop)
        func copy() async throws {
            try await connection.copyFrom(table: "marker", columns: CopyRowEncoder.columns, logger: logger) { writer in
                do {
                    try await withTaskExecutorPreference(home) { try await writeData(writer) }
                } catch {
                    await settle(connection)
                    throw error
                }
                await settle(connection)
            }
        }
        try await withTaskExecutorPreference(EventLoopExecutor(connection.eventLoop)) {
            if let watchdog = Watchdog.current { try await watchdog.copying(copy) } else { try await copy() }
        }
    }

    /// On the connection's event loop (this task's preferred executor when called): returns at once while `connection`
    /// is open, so that postgres-nio's `CopyDone` or `CopyFail` follows in this turn of the loop; once it has ended,
    /// when its channel is wholly closed (NIO removes its handlers and completes the close future in one later turn).
    static func settle(_ connection: PostgresConnection) async {
        // Swift hops back to the preferred executor (the connection's loop) when `withTaskExecutorPreference` returns;
        // should it not, this suspension resumes there.
        if !connection.eventLoop.inEventLoop { await Task.yield() }
        if !connection.eventLoop.inEventLoop {
            // Not expected; the connection's end can then come between this check and the COPY's, as before.
            Logger(label: "PlanMarkPostgres").debug("COPY ended off its connection's event loop")
        }
        guard connection.isClosed else { return }
        try? await connection.closeFuture.get()
    }
}

/// Encodes an import's rows for `COPY marker (...) FROM STDIN` in text format: tab-separated columns, `\N` for NULL,
/// and a backslash, tab, newline or carriage return in a text escaped (`\\`, `\t`, `\n`, `\r`).
struct CopyRowEncoder: Sendable {
    /// The columns each row gives, as PostgreSQL folded them (`copyFrom` quotes them). `updatedAt` is left NULL
    /// (= `createdAt`, v9), `needsPlacement` NULL.
    static let columns = ["drawingid", "number", "x", "y", "rooms", "createdat", "uuid", "ref", "note", "author", "status", "category",
                          "priority", "assignee", "due", "capturedat"]
    /// About how many bytes one `CopyData` message carries.
    static let bufferBytes = 64 * 1024

    let drawingID: Int64
    let time: Timestamp
    let author: String?

    /// The accepted rows of `chunk`, numbered from `firstNumber`, in buffers of about `bufferBytes`.
    /// - Complexity: O(bytes of the rows).
    func encode(_ chunk: ValidatedChunk, firstNumber: Int) -> [ByteBuffer] {
        var buffers: [ByteBuffer] = []
        let allocator = ByteBufferAllocator()
        var buffer = allocator.buffer(capacity: Self.bufferBytes + 1024)
        // The same for every row of the import: `\t` + time + `\t`, and the drawing id + `\t`.
        let drawingPrefix = Array("\(drawingID)\t".utf8)
        let timeField = Array("\t\(time.milliseconds)\t".utf8)
        // A plain row's fields after its rooms: uuid, ref, note as NULL, the author, status `open` (0), category NULL,
        // priority `normal` (1), assignee, due, capturedAt NULL.
        var plainTail = Array("\\N\t\\N\t\\N\t".utf8)
        if let author { Self.appendEscaped(author, to: &plainTail) } else { plainTail += Array("\\N".utf8) }
        plainTail += Array("\t0\t\\N\t1\t\\N\t\\N\t\\N\n".utf8)
        chunk.rooms.withUnsafeBufferPointer { rooms in
            for (offset, index) in chunk.accepted.enumerated() {
                buffer.writeBytes(drawingPrefix)
                Self.appendInteger(firstNumber + offset, to: &buffer)
                buffer.writeInteger(UInt8(ascii: "\t"))
                let position = chunk.positions[index]
                buffer.writeString(position.x.description)
                buffer.writeInteger(UInt8(ascii: "\t"))
                buffer.writeString(position.y.description)
                buffer.writeInteger(UInt8(ascii: "\t"))
                let start = index == 0 ? 0 : chunk.roomEnds[index - 1]
                Self.appendEscaped(UnsafeBufferPointer(rebasing: rooms[start..<chunk.roomEnds[index]]), to: &buffer)
                buffer.writeBytes(timeField)
                if chunk.plain {
                    buffer.writeBytes(plainTail)
                } else {
                    let row = chunk.rows[index]
                    // A row without uuid gets none stored: the store's own is made from the number (`DerivedUUID`).
                    Self.appendField(row.uuid?.text, to: &buffer)
                    Self.appendField(row.ref, to: &buffer)
                    Self.appendField(row.note, to: &buffer)
                    Self.appendField(row.author ?? author, to: &buffer)
                    // Codes (v9); both words were checked by `checkImported`.
                    let status = row.status.flatMap(MarkerStatus.init(text:)) ?? .open
                    let priority = row.priority.flatMap(MarkerPriority.init(rawValue:)) ?? .normal
                    Self.appendInteger(Int(status.storedCode), to: &buffer)
                    buffer.writeInteger(UInt8(ascii: "\t"))
                    Self.appendField(row.category, to: &buffer)
                    Self.appendInteger(Int(priority.storedCode), to: &buffer)
                    buffer.writeInteger(UInt8(ascii: "\t"))
                    Self.appendField(row.assignee, to: &buffer)
                    Self.appendField(row.due?.text, to: &buffer)
                    Self.appendField(row.capturedAt?.text, to: &buffer, last: true)
                }
                if buffer.readableBytes >= Self.bufferBytes {
                    buffers.append(buffer)
                    buffer = allocator.buffer(capacity: Self.bufferBytes + 1024)
                }
            }
        }
        if buffer.readableBytes > 0 { buffers.append(buffer) }
        return buffers
    }

    /// `text` escaped (or `\N`), then a tab, or a newline when `last`.
    static func appendField(_ text: String?, to buffer: inout ByteBuffer, last: Bool = false) {
        if var text {
            text.withUTF8 { appendEscaped($0, to: &buffer) }
        } else {
            buffer.writeBytes([UInt8(ascii: "\\"), UInt8(ascii: "N")])
        }
        buffer.writeInteger(last ? UInt8(ascii: "\n") : UInt8(ascii: "\t"))
    }

    /// The decimal digits of `value`.
    static func appendInteger(_ value: Int, to buffer: inout ByteBuffer) {
        if value >= 0 && value < 10 {
            buffer.writeInteger(UInt8(ascii: "0") + UInt8(value))
            return
        }
        buffer.writeString(String(value))
    }

    /// `bytes` with COPY's text escapes.
    static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to buffer: inout ByteBuffer) {
        var start = 0
        for (index, byte) in bytes.enumerated() {
            let escape: UInt8
            switch byte {
            case UInt8(ascii: "\\"): escape = UInt8(ascii: "\\")
            case UInt8(ascii: "\t"): escape = UInt8(ascii: "t")
            case UInt8(ascii: "\n"): escape = UInt8(ascii: "n")
            case UInt8(ascii: "\r"): escape = UInt8(ascii: "r")
            default: continue
            }
            buffer.writeBytes(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start..<index]))
            buffer.writeBytes([UInt8(ascii: "\\"), escape])
            start = index + 1
        }
        buffer.writeBytes(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start..<bytes.count]))
    }

    /// `text` with COPY's text escapes, appended to `bytes`.
    static func appendEscaped(_ text: String, to bytes: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\t"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case UInt8(ascii: "\n"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            default: bytes.append(byte)
            }
        }
    }
}

/// The uuids an import has met (as `KnownUUIDs` for SQLite): those stored (on any drawing; the uuid index is global),
/// those of the store's own form (`DerivedUUID`), and those of the file's earlier rows. A chunk's are looked up
/// together (`lookUp`) before its rows are checked one by one (`isStored`).
struct PostgresKnownUUIDs {
    private let drawing: Drawing
    private var seen: Set<MarkerUUID> = []
    /// Rows found stored already.
    private(set) var count = 0
    /// Markers stored with a uuid of the chunk: their drawing, number and drawing name.
    private var stored: [String: (drawingID: Int64, number: Int, owner: String)] = [:]
    /// Drawings by seed, for the chunk's uuids of the store's own form.
    private var owners: [Int64: Drawing] = [:]
    /// For the (drawing, number) those uuids name: whether a marker is there, and whether its uuid is the derived one.
    private var markerAt: [Pair: Bool] = [:]

    private struct Pair: Hashable {
        var drawingID: Int64
        var number: Int
    }

    init(drawing: Drawing) {
        self.drawing = drawing
    }

    /// Looks up the uuids of `rows` not met before: three statements.
    /// - Complexity: O(u log n) for the chunk's u uuids.
    mutating func lookUp(_ rows: [MarkerRow], _ connection: PostgresConnection, logger: Logger) async throws {
        stored = [:]
        markerAt = [:]
        var texts: [String] = []
        var seeds: Set<Int64> = []
        var derived: [(seed: Int64, number: Int)] = []
        for row in rows {
            guard let uuid = row.uuid, !seen.contains(uuid) else { continue }
            texts.append(uuid.text)
            if let parts = DerivedUUID.parts(of: uuid) {
                seeds.insert(parts.seed)
                derived.append(parts)
            }
        }
        guard !texts.isEmpty else { return }
        for try await (uuid, drawingID, number, owner) in try await connection.query("""
            SELECT m.uuid, m.drawingId, m.number, d.name FROM marker m JOIN drawing d ON d.id = m.drawingId WHERE m.uuid = ANY(\(texts))
            """, logger: logger).decode((String, Int64, Int, String).self) {
            stored[uuid] = (drawingID, number, owner)
        }
        guard !derived.isEmpty else { return }
        let seedList = seeds.filter { owners[$0] == nil }.map { $0 }
        if !seedList.isEmpty {
            var bindings = PostgresBindings()
            bindings.append(seedList)
            let sql = "SELECT \(PostgresStore.drawingColumns) FROM drawing WHERE uuidSeed = ANY($1)"
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger) {
                let owner = try PostgresStore.decodeDrawing(row)
                // This drawing as locked (its counter is the one the import started from).
                owners[owner.uuidSeed] = owner.id == drawing.id ? drawing : owner
            }
        }
        var drawingIDs: [Int64] = []
        var numbers: [Int64] = []
        for (seed, number) in derived {
            guard let owner = owners[seed], let id = owner.id else { continue }
            drawingIDs.append(id)
            numbers.append(Int64(number))
        }
        guard !drawingIDs.isEmpty else { return }
        for try await (drawingID, number, derivedUUID) in try await connection.query("""
            SELECT m.drawingId, m.number, m.uuid IS NULL FROM marker m
            JOIN unnest(\(drawingIDs)::bigint[], \(numbers)::bigint[]) AS k(drawingId, number)
              ON m.drawingId = k.drawingId AND m.number = k.number
            """, logger: logger).decode((Int64, Int, Bool).self) {
            markerAt[Pair(drawingID: drawingID, number: number)] = derivedUUID
        }
    }

    /// Whether `row`'s uuid is stored for the drawing or came earlier in the file (counted); a uuid stored on
    /// another drawing is `uuidConflict`. Rows without uuid are never stored already. After `lookUp` of its chunk.
    /// - Complexity: O(1).
    mutating func isStored(_ row: MarkerRow) throws(StoreError) -> Bool {
        guard let uuid = row.uuid else { return false }
        if seen.contains(uuid) {
            count += 1
            return true
        }
        seen.insert(uuid)
        var derived: (owner: Drawing, number: Int)?
        if let parts = DerivedUUID.parts(of: uuid), let owner = owners[parts.seed] { derived = (owner, parts.number) }
        // A store-made uuid of this drawing for a marker since removed: it was stored once; skipped as such.
        if let (owner, number) = derived, owner.id == drawing.id, number < owner.nextNumber,
           markerAt[Pair(drawingID: owner.id!, number: number)] == nil {
            count += 1
            return true
        }
        var found: (drawingID: Int64, number: Int, owner: String)?
        if let marker = stored[uuid.text] {
            found = marker
        } else if let (owner, number) = derived {
            if markerAt[Pair(drawingID: owner.id!, number: number)] == true {
                found = (owner.id!, number, owner.name)
            } else if number < owner.nextNumber {
                throw .uuidConflict(uuid: uuid, drawing: owner.name, number: number)
            } else {
                throw .refused(.uuidNotIssued(uuid: uuid, drawing: owner.name, number: number))
            }
        }
        guard let found else { return false }
        guard found.drawingID == drawing.id! else {
            throw .uuidConflict(uuid: uuid, drawing: found.owner, number: found.number)
        }
        count += 1
        return true
    }
}
