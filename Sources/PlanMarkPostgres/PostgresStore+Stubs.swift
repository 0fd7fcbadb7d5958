import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore

// TEMPORARY: each helper replaces its group with a real implementation and deletes these lines.
extension PostgresStore {
    public func replaceRegions(of drawing: String, with regions: [Region], force: Bool, author: String?) throws(StoreError) -> RegionsReplacement { throw .io("not implemented") }
    public func renameDrawing(_ name: String, to newName: String) throws(StoreError) -> Drawing { throw .io("not implemented") }
    public func removeDrawing(_ name: String, force: Bool) throws(StoreError) -> DrawingRemoval { throw .io("not implemented") }
    public func addMarker(to drawing: String, _ marker: NewMarker, author: String?) throws(StoreError) -> MarkerCreation { throw .io("not implemented") }
    public func marker(_ number: Int, in drawing: String) throws(StoreError) -> Marker { throw .io("not implemented") }
    public func forEachMarker(in drawing: String, filter: MarkerFilter, _ body: (Marker) -> Bool) throws(StoreError) { throw .io("not implemented") }
    public func summary(of drawing: String, filter: MarkerFilter) throws(StoreError) -> MarkerSummary { throw .io("not implemented") }
    public func moveMarker(_ number: Int, in drawing: String, to position: PixelPoint, author: String?) throws(StoreError) -> Marker { throw .io("not implemented") }
    public func setStatus(_ status: MarkerStatus, reason: String?, ofMarker number: Int, in drawing: String, author: String?) throws(StoreError) -> Marker { throw .io("not implemented") }
    public func setNote(_ note: String?, ofMarker number: Int, in drawing: String, author: String?) throws(StoreError) -> Marker { throw .io("not implemented") }
    public func updateMarker(_ number: Int, in drawing: String, _ change: MarkerChange, author: String?) throws(StoreError) -> Marker { throw .io("not implemented") }
    public func updateMarkers(_ numbers: [Int], in drawing: String, _ change: MarkerChange, author: String?) throws(StoreError) -> [Marker] { throw .io("not implemented") }
    public func attach(_ bytes: [UInt8], declaredType: AttachmentType?, caption: String?, toMarker number: Int, in drawing: String,
                author: String?) throws(StoreError) -> Attachment { throw .io("not implemented") }
    public func attachments(ofMarker number: Int, in drawing: String) throws(StoreError) -> [Attachment] { throw .io("not implemented") }
    public func attachment(_ id: Int64, ofMarker number: Int, in drawing: String) throws(StoreError) -> (Attachment, [UInt8]) { throw .io("not implemented") }
    public func detach(_ id: Int64, fromMarker number: Int, in drawing: String, author: String?) throws(StoreError) -> Attachment { throw .io("not implemented") }
    public func removeMarker(_ number: Int, in drawing: String, author: String?) throws(StoreError) -> Marker { throw .io("not implemented") }
    public func history(of drawing: String, number: Int?) throws(StoreError) -> [HistoryEntry] { throw .io("not implemented") }
    public func markersVersion(of drawing: String) throws(StoreError) -> MarkersVersion { throw .io("not implemented") }
    public func calibrate(_ drawing: String, with calibration: Calibration) throws(StoreError) -> Drawing { throw .io("not implemented") }
    public func reviseDrawing(_ drawing: String, _ new: NewRevision, dryRun: Bool, author: String?) throws(StoreError) -> RevisionOutcome { throw .io("not implemented") }
    public func revisions(of drawing: String) throws(StoreError) -> [Revision] { throw .io("not implemented") }
    public func revisionImage(of drawing: String, revision number: Int) throws(StoreError) -> (Revision, DrawingImage) { throw .io("not implemented") }
    public func markerPositions(of drawing: String, onRevision number: Int) throws(StoreError) -> [Int: PixelPoint] { throw .io("not implemented") }
}
