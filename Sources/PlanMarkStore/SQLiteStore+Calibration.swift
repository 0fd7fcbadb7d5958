import GRDB
import PlanMarkGeometry

extension SQLiteStore {
    /// Sets the drawing's scale from `calibration` (replacing any earlier one); refused with
    /// `invalidArgument` when the calibration gives no scale (two equal points, a distance or dpi that is
    /// not positive).
    /// - Complexity: O(log d) for d drawings.
    public func calibrate(_ name: String, with calibration: Calibration) async throws(StoreError) -> Drawing {
        guard let metresPerPixel = calibration.metresPerPixel else {
            throw StoreError.invalidArgument("drawing \"\(name)\": the calibration gives no scale (the points coincide, or a number is not positive)")
        }
        return try await write { db in
            var drawing = try Self.fetchDrawing(db, named: name)
            drawing.metresPerPixel = metresPerPixel
            drawing.calibration = calibration
            try drawing.update(db, columns: ["metresPerPixel", "calibration"])
            return drawing
        }
    }
}
