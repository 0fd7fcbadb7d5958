import PlanMarkFormats
import PlanMarkGeometry
import Testing
@testable import PlanMarkStore

/// Replacing regions and importing marker files.
@Suite struct RegionsAndImportTests {
    func rows(_ points: [PixelPoint?]) -> MarkerRowList {
        MarkerRowList(points.enumerated().map { MarkerRow(id: "m\($0.offset + 1)", line: $0.offset + 2, position: $0.element) })
    }

    @Test(arguments: StoreFixtures.kinds) func importStoresAllWithConsecutiveNumbers(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 60), note: nil, author: nil)
        var source = rows([PixelPoint(x: 20, y: 20), PixelPoint(x: 200, y: 150), PixelPoint(x: 389.5, y: 289.5)])
        let outcome = try await store.importMarkers(into: "A", from: &source, skipInvalid: false, author: "bot")
        #expect(outcome == ImportOutcome(total: 3, stored: 3, numbers: 2..<5, rejected: []))
        var seen: [(Int, [String])] = []
        try await store.forEachMarker(in: "A", status: nil) { seen.append(($0.number, $0.rooms)); return true }
        #expect(seen.map(\.0) == [1, 2, 3, 4])
        #expect(seen.map(\.1) == [["R1"], ["R1"], ["R1", "R2"], ["R2"]])
        // One entry for the import's range; expanded for one marker with its values at creation.
        let all = try await store.history(of: "A", number: nil)
        #expect(all.map { "\($0.number)...\($0.lastNumber ?? $0.number) \($0.action)" } == ["1...1 created", "2...4 created"])
        let history = try await store.history(of: "A", number: 3)
        #expect(history.count == 1 && history[0].action == .created && history[0].author == "bot")
        #expect(history[0].number == 3 && history[0].lastNumber == nil)
        #expect(StoreFixtures.basic(history[0].new) == MarkerState(x: 200, y: 150, status: .open, note: .clear, rooms: ["R1", "R2"]))
    }

    /// An imported marker changed many times (and removed): its history still shows the values it was
    /// created with, rebuilt from the old values each change recorded.
    @Test(arguments: StoreFixtures.kinds) func importedMarkerHistoryAfterChanges(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        var source = MarkerRowList([MarkerRow(id: "a", line: 2, position: PixelPoint(x: 20, y: 20)),
                                    MarkerRow(id: "b", line: 3, position: PixelPoint(x: 30, y: 30), note: nil)])
        _ = try await store.importMarkers(into: "A", from: &source, skipInvalid: false, author: "bot")
        _ = try await store.moveMarker(2, in: "A", to: PixelPoint(x: 300, y: 40), author: "ana")
        _ = try await store.setNote("checked", ofMarker: 2, in: "A", author: "ana")
        _ = try await store.setStatus(.closed, ofMarker: 2, in: "A", author: "bo")
        _ = try await store.replaceRegions(of: "A", with: [StoreFixtures.rectangle("Z", .room, 0, 0, 400, 300)], force: false, author: "cy")
        _ = try await store.moveMarker(2, in: "A", to: PixelPoint(x: 5, y: 5), author: "ana")
        _ = try await store.removeMarker(2, in: "A", author: "ed")
        let history = try await store.history(of: "A", number: 2)
        #expect(history.map(\.action) == [.created, .moved, .edited, .resolved, .edited, .moved, .removed])
        // The whole state: every punch-item field, the file's id as the ref, the uuid the store made.
        let uuid = try #require(history[6].old?.uuid)
        func whole(_ x: Double, _ y: Double, _ status: MarkerStatus, _ note: String?, _ rooms: [String], ref: String?, uuid: MarkerUUID?) -> MarkerState {
            MarkerState(x: x, y: y, status: status, note: Update(note), rooms: rooms, uuid: uuid, ref: Update(ref), category: .clear,
                        priority: .normal, assignee: .clear, due: .clear, capturedAt: .clear)
        }
        #expect(history[0].new == whole(30, 30, .open, nil, ["R1"], ref: nil, uuid: uuid))
        #expect(history[0].author == "bot")
        #expect(history[6].old == whole(5, 5, .closed, "checked", ["Z"], ref: nil, uuid: uuid))
        // Marker 1 was untouched: its creation values are its current ones.
        let first = try await store.marker(1, in: "A")
        #expect(try await store.history(of: "A", number: 1)[0].new == whole(20, 20, .open, nil, ["R1"], ref: nil, uuid: first.uuid))
        #expect(first.uuid != uuid)
    }

    /// One bad row in the middle: nothing is stored, and every bad row is reported.
    @Test(arguments: StoreFixtures.kinds) func oneBadRowImportsNothing(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        let before = try await StoreFixtures.counts(store)
        var points: [PixelPoint?] = (0..<1001).map { PixelPoint(x: 20 + Double($0 % 300), y: 50) }
        points[500] = PixelPoint(x: 395, y: 50)
        points[700] = nil
        var source = rows(points)
        let outcome = try await store.importMarkers(into: "A", from: &source, skipInvalid: false, author: nil)
        #expect(outcome.stored == 0 && outcome.total == 1001)
        #expect(outcome.rejected == [
            RejectedRow(id: "m501", line: 502, position: PixelPoint(x: 395, y: 50), reason: .outsideAllowedArea),
            RejectedRow(id: "m701", line: 702, position: nil, reason: .invalidCoordinate),
        ])
        #expect(try await StoreFixtures.counts(store) == before)
    }

    /// An import of several validation chunks (`importChunkRows` rows each): invalid rows at a
    /// chunk's first and last row and in the last, partial chunk. With `skipInvalid` every other row is
    /// stored in file order with consecutive numbers and the rooms its x gives (R1 left of the wall
    /// x = 200, both on it, R2 right of it); without, nothing is stored and all three are reported.
    @Test(arguments: [false, true]) func importAcrossChunks(skipInvalid: Bool) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing()
        let before = try await StoreFixtures.counts(store)
        let chunk = importChunkRows
        let count = 2 * chunk + 1000
        var points: [PixelPoint?] = (0..<count).map { PixelPoint(x: 20 + Double($0 % 361), y: 20 + Double($0 % 251)) }
        let bad = [chunk, 2 * chunk - 1, count - 2]
        points[bad[0]] = PixelPoint(x: 5, y: 5)      // on the drawing, outside the allowed area
        points[bad[1]] = nil                          // did not parse
        points[bad[2]] = PixelPoint(x: 401, y: 30)    // right of the 400 px wide drawing
        var source = rows(points)
        let outcome = try await store.importMarkers(into: "A", from: &source, skipInvalid: skipInvalid, author: nil)
        #expect(outcome.rejected == [
            RejectedRow(id: "m\(bad[0] + 1)", line: bad[0] + 2, position: PixelPoint(x: 5, y: 5), reason: .outsideAllowedArea),
            RejectedRow(id: "m\(bad[1] + 1)", line: bad[1] + 2, position: nil, reason: .invalidCoordinate),
            RejectedRow(id: "m\(bad[2] + 1)", line: bad[2] + 2, position: PixelPoint(x: 401, y: 30), reason: .outsideDrawing),
        ])
        guard skipInvalid else {
            #expect(outcome.stored == 0 && outcome.total == count)
            #expect(try await StoreFixtures.counts(store) == before)
            return
        }
        #expect(outcome.stored == count - 3 && outcome.numbers == 1..<(count - 2))
        let expected = points.enumerated().filter { !bad.contains($0.offset) }.map { $0.element! }
        var seen: [(number: Int, position: PixelPoint, rooms: [String])] = []
        try await store.forEachMarker(in: "A", status: nil) { seen.append(($0.number, $0.position, $0.rooms)); return true }
        #expect(seen.map(\.number) == Array(1...(count - 3)))
        #expect(seen.map(\.position) == expected)
        #expect(seen.map(\.rooms) == expected.map { $0.x < 200 ? ["R1"] : $0.x == 200 ? ["R1", "R2"] : ["R2"] })
        #expect(try await store.history(of: "A", number: nil).map { "\($0.number)...\($0.lastNumber ?? 0) \($0.action)" }
                == ["1...\(count - 3) created"])
    }

    @Test(arguments: StoreFixtures.kinds) func skipInvalidStoresTheRest(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        var source = rows([PixelPoint(x: 20, y: 20), PixelPoint(x: 500, y: 20), PixelPoint(x: 30, y: 30)])
        let outcome = try await store.importMarkers(into: "A", from: &source, skipInvalid: true, author: nil)
        #expect(outcome.stored == 2 && outcome.numbers == 1..<3 && outcome.rejected.map(\.reason) == [.outsideDrawing])
        #expect(try await store.marker(2, in: "A").position == PixelPoint(x: 30, y: 30))
    }

    @Test(arguments: StoreFixtures.kinds) func singleMarkerImportKeepsTheLastValidRow(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind, singleMarker: true)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 60), note: nil, author: nil)
        var source = rows([PixelPoint(x: 20, y: 20), PixelPoint(x: 30, y: 30)])
        let outcome = try await store.importMarkers(into: "A", from: &source, skipInvalid: false, author: nil)
        #expect(outcome.stored == 1 && outcome.numbers == 2..<3)
        var numbers: [Int] = []
        try await store.forEachMarker(in: "A", status: nil) { numbers.append($0.number); return true }
        #expect(numbers == [2])
        #expect(try await store.marker(2, in: "A").position == PixelPoint(x: 30, y: 30))
    }

    /// A malformed source stores nothing and reports the file's error.
    @Test(arguments: StoreFixtures.kinds) func malformedFileIsAnInputError(kind: StoreKind) async throws {
        let (store, folder) = try await StoreFixtures.storeWithDrawing(kind)
        let url = folder.appendingPathComponent("bad.csv")
        try "a,b\n1,2\n".write(to: url, atomically: true, encoding: .utf8)
        await #expect {
            var reader = try MarkerFileReader(path: url.path, format: nil, conversion: nil)
            _ = try await store.importMarkers(into: "A", from: &reader, skipInvalid: false, author: nil)
        } throws: { error in
            (error as? FormatError)?.kind == .malformed
        }
    }

    /// A source that fails after the first batch: the store reports the file's error and stores nothing.
    @Test(arguments: StoreFixtures.kinds) func failingSourceStoresNothing(kind: StoreKind) async throws {
        struct Failing: MarkerRowSource {
            var calls = 0
            mutating func nextBatch(maxCount: Int) throws(FormatError) -> [MarkerRow]? {
                calls += 1
                if calls == 1 { return [MarkerRow(id: "1", line: 2, position: PixelPoint(x: 20, y: 20))] }
                throw FormatError(.malformed, source: "m.csv", line: 3, message: "expected 2 fields")
            }
        }
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        let before = try await StoreFixtures.counts(store)
        var source = Failing()
        await #expect(throws: StoreError.input(FormatError(.malformed, source: "m.csv", line: 3, message: "expected 2 fields"))) {
            try await store.importMarkers(into: "A", from: &source, skipInvalid: true, author: nil)
        }
        #expect(try await StoreFixtures.counts(store) == before)
    }

    @Test(arguments: StoreFixtures.kinds) func regionsReplacementReassignsRooms(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 60), note: nil, author: nil)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 300, y: 60), note: nil, author: nil)
        let new = [StoreFixtures.rectangle("A", .allowed, 0, 0, 400, 300), StoreFixtures.rectangle("Big", .room, 0, 0, 100, 100)]
        let result = try await store.replaceRegions(of: "A", with: new, force: false, author: "ana")
        #expect(result == RegionsReplacement(regionCount: 2, markersReassigned: 2, markersOutside: []))
        #expect(try await store.marker(1, in: "A").rooms == ["Big"])
        #expect(try await store.marker(2, in: "A").rooms == [])
        #expect(try await store.regions(of: "A") == new)
        let edits = try await store.history(of: "A", number: 1).filter { $0.action == .edited }
        #expect(edits.count == 1 && edits[0].old == MarkerState(rooms: ["R1"]) && edits[0].new == MarkerState(rooms: ["Big"]))
    }

    /// New regions that would leave a marker outside the allowed area: refused, unless forced.
    @Test(arguments: StoreFixtures.kinds) func regionsReplacementRefusedUnlessForced(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 60), note: nil, author: nil)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 300, y: 60), note: nil, author: nil)
        let before = try await StoreFixtures.counts(store)
        let old = try await store.regions(of: "A")
        let smaller = [StoreFixtures.rectangle("A2", .allowed, 0, 0, 100, 100)]
        await #expect(throws: StoreError.refused(.markersOutsideAllowedArea(drawing: "A", numbers: [2]))) {
            try await store.replaceRegions(of: "A", with: smaller, force: false, author: nil)
        }
        #expect(try await StoreFixtures.counts(store) == before)
        #expect(try await store.regions(of: "A") == old)
        let forced = try await store.replaceRegions(of: "A", with: smaller, force: true, author: nil)
        #expect(forced.markersOutside == [2])
        #expect(try await store.drawing(named: "A").markerCount == 2)
        #expect(try await store.drawing(named: "A").drawing.regionsRevision == 1)
    }

    /// Regions with holes and multipolygons, and a label's box, survive storage exactly.
    @Test(arguments: StoreFixtures.kinds) func complexRegionsRoundTrip(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        let ring = { (x0: Double, y0: Double, x1: Double, y1: Double) in
            [PixelPoint(x: x0, y: y0), PixelPoint(x: x1, y: y0), PixelPoint(x: x1, y: y1), PixelPoint(x: x0, y: y1)]
        }
        let holed = try Region(id: "H", kind: .room, name: "With \"hole\"", coordinates: [[ring(10, 10, 100, 100), ring(40, 40, 60, 60)]],
                               labelBox: BoundingBox(minX: 12.5, minY: 20, maxX: 38.25, maxY: 35.125))
        let multi = try Region(id: "7", kind: .room, coordinates: [[ring(200, 10, 250, 50)], [ring(300, 10, 350.25, 50.125)]])
        let regions = [StoreFixtures.rectangle("A", .allowed, 0, 0, 400, 300), holed, multi]
        _ = try await store.replaceRegions(of: "A", with: regions, force: false, author: nil)
        #expect(try await store.regions(of: "A") == regions)
        #expect(try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 50), note: nil, author: nil).rooms == [])
        #expect(try await store.addMarker(to: "A", at: PixelPoint(x: 40, y: 50), note: nil, author: nil).rooms == ["H"])
    }
}
