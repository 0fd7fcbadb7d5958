import Foundation
import PlanMarkFormats
import PlanMarkGeometry
import Testing
@testable import PlanMarkStore

/// Each marker's `version` (issue 26, item 4): 1 when created, one more with every change, through every path that
/// changes a marker; `ifVersion` (`If-Match`) refuses a stale change and changes nothing. Both back ends.
@Suite struct MarkerVersionTests {
    /// The version as each read path gives it: one marker, the list, and the marker the change answered.
    static func versions(_ store: any AnnotationStore, _ number: Int) async throws -> (one: Int, listed: Int?) {
        var listed: Int?
        try await store.forEachMarker(in: "A", status: nil) { marker in
            if marker.number == number { listed = marker.version }
            return true
        }
        return (try await store.marker(number, in: "A").version, listed)
    }

    /// Counted by hand: every kind of change adds one, a change that changes nothing adds none, and the other marker
    /// only counts its own changes.
    @Test(arguments: StoreFixtures.kinds) func everyChangeCountsOnce(kind: StoreKind) async throws {
        let (store, folder) = try await StoreFixtures.storeWithDrawing(kind)
        let first = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 50), note: nil, author: "ana")
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 300, y: 100), note: nil, author: "ana")
        #expect(first.version == 1)
        var expected = 1
        func check(_ what: String, _ answered: Int? = nil) async throws {
            let (one, listed) = try await Self.versions(store, 1)
            #expect(one == expected && listed == expected, "\(what): \(one), listed \(String(describing: listed)), expected \(expected)")
            if let answered { #expect(answered == expected, "\(what): answered \(answered)") }
        }
        expected += 1; try await check("note", try await store.setNote("crack", ofMarker: 1, in: "A", author: "ana").version)
        try await check("the same note again", try await store.setNote("crack", ofMarker: 1, in: "A", author: "ana").version)
        expected += 1; try await check("move", try await store.moveMarker(1, in: "A", to: PixelPoint(x: 60, y: 60), author: "ana").version)
        expected += 1
        try await check("status", try await store.updateMarker(1, in: "A", MarkerChange(status: .inProgress), author: "ana").version)
        expected += 1; _ = try await store.comment("seen", onMarker: 1, in: "A", author: "bo"); try await check("comment")
        expected += 1
        let attachment = try await store.attach(AttachmentTests.jpeg, declaredType: nil, caption: nil, toMarker: 1, in: "A", author: "bo")
        try await check("attach")
        expected += 1; _ = try await store.detach(attachment.id, fromMarker: 1, in: "A", author: "bo"); try await check("detach")
        // New regions: marker 1 moves from room R1 to room Z (its rooms change), so does marker 2 (from R2).
        expected += 1
        _ = try await store.replaceRegions(of: "A", with: [StoreFixtures.rectangle("A", .allowed, 10, 10, 390, 290),
                                                          StoreFixtures.rectangle("Z", .room, 0, 0, 400, 300)], force: true, author: "cy")
        try await check("rooms")
        // A new revision of the sheet at twice the size carries every marker.
        expected += 1
        let png = try StoreFixtures.png(in: folder, name: "rev2.png", width: 800, height: 600)
        let alignment = try Alignment.fit([AlignmentPair(from: PixelPoint(x: 0, y: 0), to: PixelPoint(x: 0, y: 0)),
                                           AlignmentPair(from: PixelPoint(x: 100, y: 0), to: PixelPoint(x: 200, y: 0))])
        _ = try await store.reviseDrawing("A", NewRevision(imagePath: png, alignment: alignment), dryRun: false, author: "ben")
        try await check("revision")
        // Marker 2 saw only the rooms and the revision.
        #expect(try await Self.versions(store, 2).one == 3)
        // Kept as stored: a store opened again reads the same.
        let reopened = try await StoreFixtures.reopen(store)
        #expect(try await reopened.marker(1, in: "A").version == expected)
    }

    /// A stale `ifVersion` refuses the change with the marker as stored and changes nothing (no field, no version, no
    /// history entry); the current one is applied. The same for removal.
    @Test(arguments: StoreFixtures.kinds) func aStaleVersionChangesNothing(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 50), note: "first", author: "ana")
        _ = try await store.setNote("second", ofMarker: 1, in: "A", author: "ana")  // version 2
        let history = try await store.history(of: "A", number: 1).count
        var stale = MarkerChange(note: .set("from an old copy"))
        stale.ifVersion = 1
        do {
            _ = try await store.updateMarker(1, in: "A", stale, author: "bo")
            Issue.record("a change at version 1 was applied to version 2")
        } catch {
            guard case .versionConflict(let drawing, let current) = error else { Issue.record("\(error)"); return }
            #expect(drawing == "A" && current.version == 2 && current.note == "second" && error.code == "version-conflict")
        }
        let after = try await store.marker(1, in: "A")
        #expect(after.note == "second" && after.version == 2)
        #expect(try await store.history(of: "A", number: 1).count == history)

        var current = MarkerChange(note: .set("third"))
        current.ifVersion = 2
        let changed = try await store.updateMarker(1, in: "A", current, author: "bo")
        #expect(changed.note == "third" && changed.version == 3)

        await #expect(throws: StoreError.self) { try await store.removeMarker(1, in: "A", author: "bo", ifVersion: 2) }
        #expect(try await store.marker(1, in: "A").version == 3)
        let removed = try await store.removeMarker(1, in: "A", author: "bo", ifVersion: 3)
        #expect(removed.number == 1)
        await #expect(throws: StoreError.unknownMarker(drawing: "A", number: 1)) { try await store.marker(1, in: "A") }
    }
}

/// `IdempotentWrite` (issue 26, item 4): a keyed write is kept with its answer in its own transaction; the same request
/// again is replayed and changes nothing, another request under the key is refused, keys are per scope, and a refused
/// write keeps nothing. Both back ends.
@Suite struct IdempotentWriteTests {
    static func keyed(_ key: String, scope: String = "ana", fingerprint: String) -> IdempotentWrite {
        IdempotentWrite(scope: scope, key: key, fingerprint: fingerprint) { result in
            (result as? PlanMarkStore.Comment).map { StoredAnswer(status: 201, headers: ["Location": "/c/\($0.id)"], body: $0.text) }
        }
    }

    @Test(arguments: StoreFixtures.kinds) func aKeyedCommentIsStoredOnce(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 50), note: nil, author: "ana")
        let first = try await IdempotentWrite.$current.withValue(Self.keyed("k1", fingerprint: "f1")) {
            try await store.comment("seen", onMarker: 1, in: "A", author: "ana")
        }
        // Again: the kept answer, nothing stored.
        do {
            _ = try await IdempotentWrite.$current.withValue(Self.keyed("k1", fingerprint: "f1")) {
                try await store.comment("seen", onMarker: 1, in: "A", author: "ana")
            }
            Issue.record("the same keyed request was made twice")
        } catch let error as StoreError {
            #expect(error == .replayed(StoredAnswer(status: 201, headers: ["Location": "/c/\(first.id)"], body: "seen")))
        }
        // Another request under the key: refused.
        await #expect(throws: StoreError.idempotencyKeyReused(key: "k1")) {
            try await IdempotentWrite.$current.withValue(Self.keyed("k1", fingerprint: "f2")) {
                try await store.comment("other", onMarker: 1, in: "A", author: "ana")
            }
        }
        // The same key in another scope is another key.
        _ = try await IdempotentWrite.$current.withValue(Self.keyed("k1", scope: "bo", fingerprint: "f2")) {
            try await store.comment("bo's", onMarker: 1, in: "A", author: "bo")
        }
        #expect(try await store.comments(ofMarker: 1, in: "A").map(\.text) == ["seen", "bo's"])
        #expect(try await store.marker(1, in: "A").version == 3)

        // A refused write keeps nothing: sent again, it is decided again (refused again), not replayed.
        for _ in 0..<2 {
            await #expect(throws: StoreError.unknownMarker(drawing: "A", number: 9)) {
                try await IdempotentWrite.$current.withValue(Self.keyed("k2", fingerprint: "f3")) {
                    try await store.comment("now", onMarker: 9, in: "A", author: "ana")
                }
            }
        }
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 60, y: 60), note: nil, author: "ana")  // 2
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 70, y: 70), note: nil, author: "ana")  // 3
        for number in 4...9 { _ = try await store.addMarker(to: "A", at: PixelPoint(x: Double(70 + number), y: 70), note: nil, author: nil) }
        _ = try await IdempotentWrite.$current.withValue(Self.keyed("k2", fingerprint: "f3")) {
            try await store.comment("now", onMarker: 9, in: "A", author: "ana")
        }
        #expect(try await store.comments(ofMarker: 9, in: "A").map(\.text) == ["now"])
    }
    /// Keys older than 24 hours are forgotten by later keyed writes, two a write (anyone's keys); younger ones stay.
    @Test(arguments: StoreFixtures.kinds) func oldKeysArePruned(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 50), note: nil, author: "ana")
        func comment(_ key: String, scope: String = "ana") async throws {
            _ = try await IdempotentWrite.$current.withValue(Self.keyed(key, scope: scope, fingerprint: "f-\(key)")) {
                try await store.comment(key, onMarker: 1, in: "A", author: scope)
            }
        }
        for key in ["k1", "k2", "k3", "k4"] { try await comment(key, scope: key == "k2" ? "bo" : "ana") }
        func keys() async throws -> [String] {
            try await StoreFixtures.texts(store, "SELECT requestKey FROM idempotencyKey ORDER BY requestKey").compactMap { $0 }
        }
        #expect(try await keys() == ["k1", "k2", "k3", "k4"])
        // k1 to k3 made 25 hours older than they are (25 h = 90,000,000 ms).
        try await StoreFixtures.execute(store, "UPDATE idempotencyKey SET createdAt = createdAt - 90000000 WHERE requestKey IN ('k1', 'k2', 'k3')")
        try await comment("k5")
        let left = try await keys()
        #expect(left.count == 3 && left.suffix(2) == ["k4", "k5"] && ["k1", "k2", "k3"].contains(left[0]))
        try await comment("k6", scope: "bo")
        #expect(try await keys() == ["k4", "k5", "k6"])
        #expect(try await store.comments(ofMarker: 1, in: "A").count == 6)
    }
}
