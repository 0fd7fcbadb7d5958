/// What a drawing's marker list was made from: the drawing's row, its latest history entry and its
/// regions' revision. Every marker write (add, import, move, edit, status, attach, detach, remove, a
/// region replacement that changes rooms) appends a history entry, and history ids come from an
/// AUTOINCREMENT key, so they only grow and are never given again (not even after the newest entries
/// are deleted with their drawing); drawing ids are AUTOINCREMENT too, so a drawing removed and added
/// again under the same name has another version.
public struct MarkersVersion: Hashable, Sendable, CustomStringConvertible {
    /// The drawing's row id.
    public var drawingID: Int64
    /// The id of the drawing's latest history entry, 0 when it has none.
    public var latestHistoryID: Int64
    /// The drawing's regions revision.
    public var regionsRevision: Int

    /// Creates a version.
    public init(drawingID: Int64, latestHistoryID: Int64, regionsRevision: Int) {
        self.drawingID = drawingID
        self.latestHistoryID = latestHistoryID
        self.regionsRevision = regionsRevision
    }

    /// `DRAWING.HISTORY.REVISION`, usable in an HTTP entity tag.
    public var description: String { "\(drawingID).\(latestHistoryID).\(regionsRevision)" }
}
