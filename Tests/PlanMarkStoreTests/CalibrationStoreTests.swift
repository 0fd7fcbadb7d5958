import Foundation
import GRDB
import PlanMarkGeometry
import Testing
@testable import PlanMarkStore
@testable import PlanMarkSQLite

/// A drawing's scale: stored, read back, replaced, refused when it gives none, kept by the schema's checks.
@Suite struct CalibrationStoreTests {
    @Test(arguments: StoreFixtures.kinds) func calibrateStoresTheScale(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        #expect(try await store.drawingRecord(named: "A").metresPerPixel == nil)
        #expect(try await store.drawingRecord(named: "A").calibration == nil)

        // 400 px = 4 m: 0.01 m per pixel.
        let twoPoints = Calibration.twoPoints(from: PixelPoint(x: 0, y: 10), to: PixelPoint(x: 400, y: 10), distance: 4, unit: .m)
        let drawing = try await store.calibrate("A", with: twoPoints)
        #expect(abs(drawing.metresPerPixel! - 0.01) < 1e-15)
        let read = try await store.drawing(named: "A").drawing
        #expect(read.metresPerPixel == drawing.metresPerPixel)
        #expect(read.calibration == twoPoints)

        // A later calibration replaces it: 1:50 at 254 dpi is 0.005 m per pixel.
        let paper = Calibration.paperScale(paper: 1, reality: 50, dpi: 254)
        _ = try await store.calibrate("A", with: paper)
        await #expect(abs(try store.drawingRecord(named: "A").metresPerPixel! - 0.005) < 1e-15)
        #expect(try await store.drawingRecord(named: "A").calibration == paper)
        // Other columns are untouched.
        #expect(try await store.drawingRecord(named: "A").width == 400)
    }

    /// A paper scale is kept as given and the scale derived from it exactly: 1:100 at 254 dpi is 0.01 m per
    /// pixel (the double nearest 0.01). A drawing calibrated before that (its column holding the doubles'
    /// 0.0254 / 254 * 100 = 0.009999999999999998) reads 0.01 too: the scale is derived again when read.
    @Test(arguments: StoreFixtures.kinds) func paperScaleKeptExactly(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        let paper = Calibration.paperScale(paper: 1, reality: 100, dpi: 254)
        #expect(try await store.calibrate("A", with: paper).metresPerPixel == 0.01)
        try await StoreFixtures.execute(store, "UPDATE drawing SET metresPerPixel = 0.009999999999999998")
        #expect(try await store.drawingRecord(named: "A").metresPerPixel == 0.01)
        #expect(try await store.drawing(named: "A").drawing.metresPerPixel == 0.01)
        #expect(try await store.drawingRecord(named: "A").calibration == paper)
    }

    @Test(arguments: StoreFixtures.kinds) func refusals(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        let same = Calibration.twoPoints(from: PixelPoint(x: 5, y: 5), to: PixelPoint(x: 5, y: 5), distance: 4, unit: .m)
        await #expect(throws: StoreError.self) { try await store.calibrate("A", with: same) }
        #expect(try await store.drawingRecord(named: "A").metresPerPixel == nil)
        await #expect(throws: StoreError.unknownDrawing("B")) { try await store.calibrate("B", with: .paperScale(paper: 1, reality: 100, dpi: 300)) }
        // The schema keeps the scale positive, and the two columns set together.
        await #expect(throws: (any Error).self) {
            try await StoreFixtures.execute(store, "UPDATE drawing SET metresPerPixel = 0, calibration = '{}'")
        }
        await #expect(throws: (any Error).self) {
            try await StoreFixtures.execute(store, "UPDATE drawing SET metresPerPixel = 0.5")
        }
        await #expect(throws: (any Error).self) {
            try await StoreFixtures.execute(store, "UPDATE drawing SET calibration = '{}'")
        }
    }
}
