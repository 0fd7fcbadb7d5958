import PlanMarkGeometry

/// Drawings, their regions and numbered markers, with history. SQLite (`SQLiteStore`) is the embedded
/// implementation; a server database can implement the same protocol.
///
/// Every marker write is validated by the geometry core first; a refused write stores nothing.
/// Marker numbers are 1, 2, 3 ... per drawing, given in the same transaction as the insert, never reused.
public protocol AnnotationStore: AnyObject {
    /// Adds a drawing (size read from its PNG header) with `regions`.
    func addDrawing(_ drawing: NewDrawing, regions: [Region]) throws(StoreError) -> Drawing
    /// Every drawing with its counts, by name.
    func drawings() throws(StoreError) -> [DrawingSummary]
    /// The drawing named `name` with its counts.
    func drawing(named name: String) throws(StoreError) -> DrawingSummary
    /// The image the drawing was added with, byte for byte.
    func image(of drawing: String) throws(StoreError) -> DrawingImage
    /// The drawing's regions, in file order.
    func regions(of drawing: String) throws(StoreError) -> [Region]
    /// Replaces the drawing's regions in one transaction; refused when stored markers would be left
    /// outside the new allowed area, unless `force`.
    func replaceRegions(of drawing: String, with regions: [Region], force: Bool, author: String?) throws(StoreError) -> RegionsReplacement
    /// Validates and stores a new marker; returns it with its number.
    func addMarker(to drawing: String, at position: PixelPoint, note: String?, author: String?) throws(StoreError) -> Marker
    /// Imports rows atomically: all valid rows or, when some are invalid and not `skipInvalid`, none.
    func importMarkers<Source: MarkerRowSource>(into drawing: String, from source: inout Source, skipInvalid: Bool, author: String?) throws(StoreError) -> ImportOutcome
    /// One marker.
    func marker(_ number: Int, in drawing: String) throws(StoreError) -> Marker
    /// Calls `body` with each marker by number (optionally only those of `status`) until it returns false.
    func forEachMarker(in drawing: String, status: MarkerStatus?, _ body: (Marker) -> Bool) throws(StoreError)
    /// Moves a marker (validated like a new one).
    func moveMarker(_ number: Int, in drawing: String, to position: PixelPoint, author: String?) throws(StoreError) -> Marker
    /// Resolves or reopens a marker.
    func setStatus(_ status: MarkerStatus, ofMarker number: Int, in drawing: String, author: String?) throws(StoreError) -> Marker
    /// Changes a marker's note.
    func setNote(_ note: String?, ofMarker number: Int, in drawing: String, author: String?) throws(StoreError) -> Marker
    /// Applies every field of `change` in one transaction, or none, with one history entry.
    func updateMarker(_ number: Int, in drawing: String, _ change: MarkerChange, author: String?) throws(StoreError) -> Marker
    /// Removes a marker; its number is never given again and its history is kept.
    func removeMarker(_ number: Int, in drawing: String, author: String?) throws(StoreError) -> Marker
    /// The drawing's history (of one marker when `number` is given), oldest first.
    func history(of drawing: String, number: Int?) throws(StoreError) -> [HistoryEntry]
}
