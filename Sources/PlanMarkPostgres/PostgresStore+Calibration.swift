import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore
import PostgresNIO

extension PostgresStore {
    /// Sets the drawing's scale from `calibration` (replacing any earlier one); refused with `invalidArgument` when
    /// the calibration gives no scale (two equal points, a distance or dpi that is not positive).
    /// - Complexity: O(log d) for d drawings.
    public func calibrate(_ name: String, with calibration: Calibration) async throws(StoreError) -> Drawing {
        guard let metresPerPixel = calibration.metresPerPixel else {
            throw StoreError.invalidArgument("drawing \"\(name)\": the calibration gives no scale (the points coincide, or a number is not positive)")
        }
        return try await write(lockDrawing: name) { connection, logger, locked in
            guard var drawing = locked, let drawingID = drawing.id else { throw StoreError.unknownDrawing(name) }
            let text = CalibrationJSON.object(calibration)
            try await connection.query(
                "UPDATE drawing SET metresPerPixel = \(metresPerPixel), calibration = \(text) WHERE id = \(drawingID)", logger: logger)
            drawing.metresPerPixel = metresPerPixel
            drawing.calibration = calibration
            return drawing
        }
    }
}
