import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore

// TEMPORARY: each helper replaces its group with a real implementation and deletes these lines.
extension PostgresStore {
    public func replaceRegions(of drawing: String, with regions: [Region], force: Bool, author: String?) throws(StoreError) -> RegionsReplacement { throw .io("not implemented") }
    public func renameDrawing(_ name: String, to newName: String) throws(StoreError) -> Drawing { throw .io("not implemented") }
    public func removeDrawing(_ name: String, force: Bool) throws(StoreError) -> DrawingRemoval { throw .io("not implemented") }
    public func importMarkers<Source: MarkerRowSource>(into drawing: String, from source: inout Source, skipInvalid: Bool, author: String?) throws(StoreError) -> ImportOutcome { throw .io("not implemented") }
    public func calibrate(_ drawing: String, with calibration: Calibration) throws(StoreError) -> Drawing { throw .io("not implemented") }
    public func reviseDrawing(_ drawing: String, _ new: NewRevision, dryRun: Bool, author: String?) throws(StoreError) -> RevisionOutcome { throw .io("not implemented") }
    public func revisions(of drawing: String) throws(StoreError) -> [Revision] { throw .io("not implemented") }
    public func revisionImage(of drawing: String, revision number: Int) throws(StoreError) -> (Revision, DrawingImage) { throw .io("not implemented") }
    public func markerPositions(of drawing: String, onRevision number: Int) throws(StoreError) -> [Int: PixelPoint] { throw .io("not implemented") }
}
