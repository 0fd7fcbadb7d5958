import Foundation
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkPostgres
import PlanMarkTestSupport
import Testing
@testable import PlanMarkStore
@testable import PlanMarkSQLite

/// The history's hash chain (`HistoryChain`, docs/history.md) on every back end: every path that writes history chains
/// its entries, the hashes are the ones an independent implementation of the documented form gives
/// (`Fixtures/history_chain.py`, Python's hashlib), and `verifyHistory` finds an entry edited, deleted or moved with
/// SQL, and a head that is not the last hash.
@Suite struct HistoryChainTests {
    static let oracle = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/history_chain.py").path
    static let photo = StoreFixtures.pngHeader(width: 1, height: 1) + [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]

    /// The stored rows, id order: (id, the eight hashed columns as JSON, stored hash).
    static func storedRows(_ store: any AnnotationStore) async throws -> [(id: Int64, columns: String, hash: String)] {
        let sql = store is SQLiteStore
            ? "SELECT json_array(id, json_array(drawingId, number, lastNumber, action, at, author, oldValue, newValue), hash) FROM history ORDER BY id"
            : "SELECT json_build_array(id, json_build_array(drawingId, number, lastNumber, action, at, author, oldValue, newValue), hash)::text FROM history ORDER BY id"
        return try await StoreFixtures.texts(store, sql).map { text in
            let value = try JSONSerialization.jsonObject(with: Data((text ?? "").utf8)) as! [Any]
            let columns = String(decoding: try JSONSerialization.data(withJSONObject: value[1]), as: UTF8.self)
            return ((value[0] as! NSNumber).int64Value, columns, value[2] as! String)
        }
    }

    /// The hashes Python's hashlib gives the rows (independent of the store's SHA-256 and canonical form).
    static func oracleHashes(_ rows: [(id: Int64, columns: String, hash: String)], folder: URL) throws -> [String] {
        let input = folder.appendingPathComponent("history-\(UUID().uuidString).json")
        try Data(("[" + rows.map(\.columns).joined(separator: ",") + "]").utf8).write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [oracle, input.path]
        let output = ChildProcess.pipe()
        process.standardOutput = output
        try ChildProcess.run(process)
        let data = output.fileHandleForReading.readBytesToEnd()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    static func reader(_ store: any AnnotationStore) async throws -> any StoreTableReader {
        if let sqlite = store as? SQLiteStore { return try SQLiteTableReader(path: sqlite.path) }
        return try await PostgresTableReader(url: (store as! PostgresStore).url)
    }

    static func verify(_ store: any AnnotationStore, through kept: String? = nil) async throws -> HistoryVerification {
        let reader = try await reader(store)
        let result = try await verifyHistory(reader, through: kept)
        await reader.close()
        return result
    }

    /// Every kind of change, concurrent additions (PostgreSQL's group commit) and a removed drawing: each entry's hash
    /// is hashlib's, the head is the last one, and the chain verifies.
    @Test(arguments: StoreFixtures.kinds) func everyPathChainsItsEntries(kind: StoreKind) async throws {
        let (store, folder) = try await StoreFixtures.storeWithDrawing(kind)
        #expect(try await store.historyHead() == HistoryChain.genesis)
        #expect(try await Self.verify(store) == .verified(entries: 0, head: HistoryChain.genesis))
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 50), note: "crack\nwide", author: "ana")
        _ = try await store.moveMarker(1, in: "A", to: PixelPoint(x: 60, y: 50), author: nil)
        _ = try await store.setStatus(.inProgress, ofMarker: 1, in: "A", author: "bo")
        let attachment = try await store.attach(Self.photo, declaredType: nil, caption: "wall", toMarker: 1, in: "A", author: nil)
        _ = try await store.detach(attachment.id, fromMarker: 1, in: "A", author: nil)
        _ = try await store.comment("Tile cracked — «replace»", onMarker: 1, in: "A", author: "ana")
        var rows = MarkerRowList([MarkerRow(id: "a", line: 2, position: PixelPoint(x: 20, y: 20)),
                                  MarkerRow(id: "b", line: 3, position: PixelPoint(x: 300, y: 20))])
        _ = try await store.importMarkers(into: "A", from: &rows, skipInvalid: false, author: "bot")
        // Concurrent additions: on PostgreSQL, committed together in batches.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<24 {
                group.addTask { _ = try await store.addMarker(to: "A", at: PixelPoint(x: 20 + Double(index * 10), y: 100), note: nil, author: "c\(index)") }
            }
            try await group.waitForAll()
        }
        _ = try await store.updateMarkers([2, 3], in: "A", MarkerChange(assignee: .set("Acme")), author: nil)
        _ = try await store.replaceRegions(of: "A", with: [StoreFixtures.rectangle("A", .allowed, 10, 10, 390, 290),
                                                     StoreFixtures.rectangle("R1", .room, 200, 10, 390, 290),
                                                     StoreFixtures.rectangle("R2", .room, 10, 10, 200, 290)], force: false, author: nil)
        _ = try await store.removeMarker(2, in: "A", author: nil)
        _ = try await store.addDrawing(NewDrawing(name: "B", imagePath: try StoreFixtures.png(in: folder, name: "b.png")),
                                       regions: StoreFixtures.regions)
        _ = try await store.addMarker(to: "B", at: PixelPoint(x: 50, y: 50), note: nil, author: nil)
        _ = try await store.removeDrawing("B", force: true)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 70, y: 70), note: nil, author: nil)

        let stored = try await Self.storedRows(store)
        #expect(stored.count > 30)
        #expect(stored.map(\.hash) == (try Self.oracleHashes(stored, folder: folder)))
        #expect(try await store.historyHead() == stored.last?.hash)
        #expect(try await Self.verify(store) == .verified(entries: stored.count, head: stored.last!.hash))
        // A head kept halfway is passed through; one that is no entry's hash is not.
        #expect(try await Self.verify(store, through: stored[10].hash) == .verified(entries: stored.count, head: stored.last!.hash))
        guard case .broken(let broken) = try await Self.verify(store, through: String(repeating: "ab", count: 32)) else {
            Issue.record("a kept head that is in no entry verified")
            return
        }
        #expect(broken.entryID == nil)
        // The removed drawing's entry (its marker's creation) stays in the chain.
        #expect(try await StoreFixtures.int(store, "SELECT count(*) FROM history WHERE drawingId NOT IN (SELECT id FROM drawing)") == 1)
    }

    /// An entry edited, one deleted, two swapped, and the last deleted, each with SQL: `verifyHistory` names the first
    /// entry that does not verify (its id, drawing and marker), and the head when only the head disagrees.
    @Test(arguments: StoreFixtures.kinds) func tamperingWithSQLIsFound(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        for index in 0..<6 {
            _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50 + Double(index * 20), y: 50), note: "n\(index)", author: "ana")
        }
        let ids = try await Self.storedRows(store).map(\.id)
        func broken() async throws -> HistoryBreak? {
            if case .broken(let broken) = try await Self.verify(store) { return broken }
            return nil
        }
        // Edited: the author of the third entry.
        try await StoreFixtures.execute(store, "UPDATE history SET author = 'mallory' WHERE id = \(ids[2])")
        var found = try await broken()
        #expect(found?.entryID == ids[2])
        #expect(found?.drawing == "A")
        #expect(found?.number == 3)
        #expect(found?.verifiedBefore == 2)
        try await StoreFixtures.execute(store, "UPDATE history SET author = 'ana' WHERE id = \(ids[2])")
        #expect(try await broken() == nil)
        // Deleted: the second entry; the third no longer follows from the first. Put back as it was, all verifies.
        try await StoreFixtures.execute(store, "CREATE TABLE history_kept AS SELECT * FROM history WHERE id = \(ids[1])")
        try await StoreFixtures.execute(store, "DELETE FROM history WHERE id = \(ids[1])")
        found = try await broken()
        #expect(found?.entryID == ids[2])
        try await StoreFixtures.execute(store, "INSERT INTO history SELECT * FROM history_kept")
        #expect(try await broken() == nil)
        // Reordered: the fourth and fifth entries swap ids.
        try await StoreFixtures.execute(store, "UPDATE history SET id = -1 WHERE id = \(ids[3])")
        try await StoreFixtures.execute(store, "UPDATE history SET id = \(ids[3]) WHERE id = \(ids[4])")
        try await StoreFixtures.execute(store, "UPDATE history SET id = \(ids[4]) WHERE id = -1")
        found = try await broken()
        #expect(found?.entryID == ids[3])
        #expect(found?.number == 5)
        try await StoreFixtures.execute(store, "UPDATE history SET id = -1 WHERE id = \(ids[3])")
        try await StoreFixtures.execute(store, "UPDATE history SET id = \(ids[3]) WHERE id = \(ids[4])")
        try await StoreFixtures.execute(store, "UPDATE history SET id = \(ids[4]) WHERE id = -1")
        #expect(try await broken() == nil)
        // The last entry deleted: every entry left verifies, the head does not.
        try await StoreFixtures.execute(store, "DELETE FROM history WHERE id = \(ids[5])")
        found = try await broken()
        #expect(found?.entryID == nil)
        #expect(found?.verifiedBefore == 5)
    }

    /// Comments: a thread per marker, oldest first, each a history entry; text that cannot be a comment is refused and
    /// stores nothing.
    @Test(arguments: StoreFixtures.kinds) func commentsAreHistoryEntries(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 50), note: nil, author: nil)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 80, y: 50), note: nil, author: nil)
        let first = try await store.comment("Tile cracked\nnear the door", onMarker: 1, in: "A", author: "ana")
        let other = try await store.comment("Fixed", onMarker: 2, in: "A", author: nil)
        let second = try await store.comment("Still cracked", onMarker: 1, in: "A", author: "bo")
        #expect(first.text == "Tile cracked\nnear the door")
        #expect(first.author == "ana")
        #expect(first.id < other.id && other.id < second.id)
        let thread = try await StoreFixtures.reopen(store).comments(ofMarker: 1, in: "A")
        #expect(thread == [first, second])
        #expect(try await store.comments(in: "A") == [1: [first, second], 2: [other]])
        // In the history, with the comment's id as the entry's.
        let history = try await store.history(of: "A", number: 1)
        #expect(history.filter { $0.action == .commented }.map(\.sequence) == [first.id, second.id])
        #expect(history.last?.new?.comment == "Still cracked")
        let before = try await StoreFixtures.int(store, "SELECT count(*) FROM history")
        for text in ["", "  \n\t", String(repeating: "x", count: Comment.maxLength + 1), "nul\u{0}byte"] {
            await #expect(throws: StoreError.self, "\(text.prefix(8))") { try await store.comment(text, onMarker: 1, in: "A", author: nil) }
        }
        await #expect(throws: StoreError.unknownMarker(drawing: "A", number: 9)) { try await store.comment("x", onMarker: 9, in: "A", author: nil) }
        await #expect(throws: StoreError.unknownDrawing("Z")) { try await store.comment("x", onMarker: 1, in: "Z", author: nil) }
        #expect(try await StoreFixtures.int(store, "SELECT count(*) FROM history") == before)
        // Exactly the limit is taken.
        _ = try await store.comment(String(repeating: "é", count: Comment.maxLength), onMarker: 2, in: "A", author: nil)
    }

    /// A store made by planmark 1.1.0 (schema v4, `Fixtures/store-v4.sqlite`): the upgrade hashes its history in id
    /// order, as hashlib does.
    @Test func anOldStoresHistoryIsChainedOnUpgrade() async throws {
        let folder = try StoreFixtures.folder()
        let path = folder.appendingPathComponent("store.sqlite").path
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/store-v4.sqlite")
        try FileManager.default.copyItem(atPath: source.path, toPath: path)
        let store = try SQLiteStore(path: path, create: false)
        let stored = try await Self.storedRows(store)
        #expect(!stored.isEmpty)
        #expect(stored.map(\.hash) == (try Self.oracleHashes(stored, folder: folder)))
        #expect(try await Self.verify(store) == .verified(entries: stored.count, head: stored.last!.hash))
    }
}
