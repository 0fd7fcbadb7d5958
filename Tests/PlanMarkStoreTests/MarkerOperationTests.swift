import PlanMarkFormats
import PlanMarkGeometry
import Testing
@testable import PlanMarkStore
@testable import PlanMarkSQLite

/// Marking, moving, resolving, removing: validation, numbering and history.
@Suite struct MarkerOperationTests {
    @Test(arguments: StoreFixtures.kinds) func markAssignsRoomsAndNumbers(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        let first = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 60), note: "crack", author: "ana")
        let wall = try await store.addMarker(to: "A", at: PixelPoint(x: 200, y: 100), note: nil, author: nil)
        #expect(first.number == 1 && first.rooms == ["R1"] && first.note == "crack" && first.author == "ana")
        #expect(wall.number == 2 && wall.rooms == ["R1", "R2"])
        #expect(try await store.marker(2, in: "A") == wall)
    }

    /// Off the drawing or outside the allowed area: the reason, and nothing written.
    @Test(arguments: StoreFixtures.kinds, [
        (PixelPoint(x: 5, y: 5), InvalidReason.outsideAllowedArea),
        (PixelPoint(x: 401, y: 5), .outsideDrawing),
        (PixelPoint(x: 100, y: -0.5), .outsideDrawing),
        (PixelPoint(x: .nan, y: 5), .invalidCoordinate),
    ])
    func refusedMarkerWritesNothing(kind: StoreKind, _ arguments: (PixelPoint, InvalidReason)) async throws {
        let (point, reason) = arguments
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        let before = try await StoreFixtures.counts(store)
        await #expect {
            try await store.addMarker(to: "A", at: point, note: nil, author: nil)
        } throws: { error in
            guard case StoreError.invalidMarker(let got, _) = error else { return false }
            return got == reason
        }
        #expect(try await StoreFixtures.counts(store) == before)
    }

    /// The allowed area's edge counts as inside (walls are covered).
    @Test(arguments: StoreFixtures.kinds) func markerOnAllowedEdgeIsAccepted(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        #expect(try await store.addMarker(to: "A", at: PixelPoint(x: 10, y: 10), note: nil, author: nil).rooms == ["R1"])
    }

    @Test(arguments: StoreFixtures.kinds) func numbersAreNeverReused(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        for _ in 0..<3 { _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 50), note: nil, author: nil) }
        _ = try await store.removeMarker(3, in: "A", author: nil)
        _ = try await store.removeMarker(2, in: "A", author: nil)
        #expect(try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 50), note: nil, author: nil).number == 4)
        var numbers: [Int] = []
        try await store.forEachMarker(in: "A", status: nil) { numbers.append($0.number); return true }
        #expect(numbers == [1, 4])
        await #expect(throws: StoreError.unknownMarker(drawing: "A", number: 2)) { try await store.marker(2, in: "A") }
    }

    /// A reader that stops early gets no marker after it said stop, and the store goes on serving (the rest of the
    /// query is drained, not left on the connection); markers come by number, each once.
    @Test(arguments: StoreFixtures.kinds) func aReaderThatStopsEarlyLeavesTheStoreServing(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        for k in 0..<8 { _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50 + Double(k), y: 50), note: nil, author: nil) }
        var seen: [Int] = []
        try await store.forEachMarker(in: "A", status: nil) { seen.append($0.number); return seen.count < 3 }
        #expect(seen == [1, 2, 3])
        for _ in 0..<3 {
            var all: [Int] = []
            try await store.forEachMarker(in: "A", status: nil) { all.append($0.number); return true }
            #expect(all == Array(1...8))
            #expect(try await store.marker(8, in: "A").number == 8)
        }
    }

    /// Past one query's worth of rows (PostgreSQL reads 10,000 markers a query and hands each on as it arrives):
    /// every marker once, by number, and a reader that stops in the second query gets nothing after it said stop.
    @Test(arguments: StoreFixtures.kinds) func aLongReadCrossesItsQueriesWithoutLossOrRepeat(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        let count = 10_003
        var rows = MarkerRowList((0..<count).map { k in
            MarkerRow(id: "m\(k)", line: k + 2, position: PixelPoint(x: 20 + Double(k % 300), y: 20 + Double(k / 300)))
        })
        _ = try await store.importMarkers(into: "A", from: &rows, skipInvalid: false, author: nil)
        // Compared whole, reported briefly (a failure would print ten thousand numbers).
        func misfit(_ read: [Int], _ expected: ClosedRange<Int>) -> String? {
            if read.elementsEqual(expected) { return nil }
            let at = zip(read, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(read.count, expected.count)
            return "\(read.count) markers read, \(expected.count) expected; first difference at position \(at)"
        }
        var all: [Int] = []
        try await store.forEachMarker(in: "A", status: nil) { all.append($0.number); return true }
        let allMisfit = misfit(all, 1...count)
        #expect(allMisfit == nil)
        var open: [Int] = []
        try await store.forEachMarker(in: "A", status: .open) { open.append($0.number); return $0.number < 10_001 }
        let openMisfit = misfit(open, 1...10_001)
        #expect(openMisfit == nil)
    }

    /// The whole drawing's history handed over one entry at a time, oldest first, another drawing's entries left out,
    /// and no more entries once the body says stop.
    @Test(arguments: StoreFixtures.kinds) func forEachHistoryEntryStreamsOldestFirstAndStops(kind: StoreKind) async throws {
        let (store, folder) = try await StoreFixtures.storeWithDrawing(kind)
        _ = try await store.addDrawing(NewDrawing(name: "B", imagePath: try StoreFixtures.png(in: folder, name: "b.png")), regions: [])
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 60), note: nil, author: "ana")
        _ = try await store.addMarker(to: "B", at: PixelPoint(x: 50, y: 60), note: nil, author: "zed")
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 200, y: 100), note: nil, author: "bo")
        _ = try await store.moveMarker(1, in: "A", to: PixelPoint(x: 300, y: 100), author: "cy")
        _ = try await store.removeMarker(2, in: "A", author: "di")
        var seen: [String] = []
        try await store.forEachHistoryEntry(in: "A") { seen.append("\($0.number) \($0.action) \($0.author ?? "")"); return true }
        #expect(seen == ["1 created ana", "2 created bo", "1 moved cy", "2 removed di"])
        var first: [String] = []
        try await store.forEachHistoryEntry(in: "A") { first.append("\($0.number) \($0.action)"); return first.count < 2 }
        #expect(first == ["1 created", "2 created"])
        await #expect(throws: StoreError.unknownDrawing("C")) { try await store.forEachHistoryEntry(in: "C") { _ in true } }
    }

    @Test(arguments: StoreFixtures.kinds) func historyKeepsOldAndNewValues(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 60), note: "n", author: "ana")
        _ = try await store.moveMarker(1, in: "A", to: PixelPoint(x: 300, y: 100), author: "bo")
        _ = try await store.setStatus(.closed, ofMarker: 1, in: "A", author: "cy")
        _ = try await store.setStatus(.open, ofMarker: 1, in: "A", author: "cy")
        _ = try await store.setNote("m", ofMarker: 1, in: "A", author: "di")
        _ = try await store.removeMarker(1, in: "A", author: "ed")
        let history = try await store.history(of: "A", number: 1)
        #expect(history.map(\.action) == [.created, .moved, .resolved, .reopened, .edited, .removed])
        #expect(history.map(\.author) == ["ana", "bo", "cy", "cy", "di", "ed"])
        #expect(history[0].old == nil)
        #expect(StoreFixtures.basic(history[0].new) == MarkerState(x: 50, y: 60, status: .open, note: "n", rooms: ["R1"]))
        #expect(history[0].new?.priority == .normal && history[0].new?.uuid != nil && history[0].new?.category == .clear)
        #expect(history[1].old == MarkerState(x: 50, y: 60, rooms: ["R1"]))
        #expect(history[1].new == MarkerState(x: 300, y: 100, rooms: ["R2"]))
        #expect(history[2].old == MarkerState(status: .open) && history[2].new == MarkerState(status: .closed))
        #expect(history[3].old == MarkerState(status: .closed) && history[3].new == MarkerState(status: .open))
        #expect(history[4].old == MarkerState(note: "n") && history[4].new == MarkerState(note: "m"))
        #expect(StoreFixtures.basic(history[5].old) == MarkerState(x: 300, y: 100, status: .open, note: "m", rooms: ["R2"]) && history[5].new == nil)
        #expect(history.map(\.sequence) == history.map(\.sequence).sorted())
        await #expect(throws: StoreError.unknownMarker(drawing: "A", number: 2)) { try await store.history(of: "A", number: 2) }
    }

    @Test(arguments: StoreFixtures.kinds) func refusedMoveAndRepeatedStatusChangeNothing(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 60), note: nil, author: nil)
        let before = try await StoreFixtures.counts(store)
        await #expect(throws: StoreError.invalidMarker(reason: .outsideAllowedArea, position: PixelPoint(x: 395, y: 100))) {
            try await store.moveMarker(1, in: "A", to: PixelPoint(x: 395, y: 100), author: nil)
        }
        await #expect(throws: StoreError.refused(.alreadyInStatus(drawing: "A", number: 1, status: .open))) {
            try await store.setStatus(.open, ofMarker: 1, in: "A", author: nil)
        }
        #expect(try await StoreFixtures.counts(store) == before)
        #expect(try await store.marker(1, in: "A").position == PixelPoint(x: 50, y: 60))
    }

    @Test(arguments: StoreFixtures.kinds) func singleMarkerModeReplaces(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind, singleMarker: true)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 60), note: "old", author: nil)
        let second = try await store.addMarker(to: "A", at: PixelPoint(x: 300, y: 60), note: "new", author: nil)
        #expect(second.number == 2)
        var numbers: [Int] = []
        try await store.forEachMarker(in: "A", status: nil) { numbers.append($0.number); return true }
        #expect(numbers == [2])
        let history = try await store.history(of: "A", number: nil)
        #expect(history.map { "\($0.number) \($0.action)" } == ["1 created", "1 removed", "2 created"])
        #expect(history[1].old?.note == "old" && history[1].new == MarkerState(replacedBy: 2))
    }

    @Test(arguments: StoreFixtures.kinds) func unknownDrawingAndDuplicate(kind: StoreKind) async throws {
        let (store, folder) = try await StoreFixtures.storeWithDrawing(kind)
        let before = try await StoreFixtures.counts(store)
        await #expect(throws: StoreError.unknownDrawing("B")) { try await store.addMarker(to: "B", at: PixelPoint(x: 50, y: 60), note: nil, author: nil) }
        await #expect(throws: StoreError.duplicateDrawing("A")) {
            try await store.addDrawing(NewDrawing(name: "A", imagePath: try StoreFixtures.png(in: folder, name: "other.png")), regions: [])
        }
        let text = folder.appendingPathComponent("plan.txt")
        try "not a png".write(to: text, atomically: true, encoding: .utf8)
        await #expect(throws: StoreError.notPNG(path: text.path, detail: "the file does not start with the PNG signature")) {
            try await store.addDrawing(NewDrawing(name: "C", imagePath: text.path), regions: [])
        }
        #expect(try await StoreFixtures.counts(store) == before)
    }

    @Test func drawingReadsSizeAndHash() async throws {
        let folder = try StoreFixtures.folder()
        let store = try SQLiteStore(path: folder.appendingPathComponent("s.sqlite").path, create: true)
        let path = try StoreFixtures.png(in: folder, width: 1234, height: 567)
        let drawing = try await store.addDrawing(NewDrawing(name: "D", imagePath: path, zoom: 2, crs: .flutter), regions: [])
        #expect(drawing.width == 1234 && drawing.height == 567 && drawing.zoom == 2 && drawing.crs == .flutter)
        #expect(drawing.imageSHA256 == (try SHA256.hexDigest(ofFile: path)))
        #expect(drawing.imagePath == path)
        // Leaflet-free check of the bounds: flutter scale at zoom 2 is 1024, so south-west lat = -567/1024.
        #expect(drawing.bounds().southWest == LatLng(lat: -567.0 / 1024, lng: 0))
        #expect(drawing.bounds().northEast == LatLng(lat: 0, lng: 1234.0 / 1024))
    }
}
