import PlanMarkFormats
import PlanMarkGeometry

/// A punch item that comes from another system whole (a BCF topic): the marker with who placed it, and its thread.
public struct ImportedItem: Hashable, Sendable {
    /// The marker: its uuid (required: what makes a second import of the same item store nothing), position and fields.
    public var marker: NewMarker
    /// Who placed it (the marker's `author`); nil when unknown.
    public var author: String?
    /// Set when the item came without a position of its own: it is placed at `marker.position` (the sheet's centre),
    /// stored without validation of that position, and flagged (`Marker.needsPlacement`, for example `no-position`)
    /// until a person moves it.
    public var needsPlacement: String?
    /// Its comments, oldest first.
    public var comments: [ImportedComment]

    /// Describes an item.
    public init(marker: NewMarker, author: String? = nil, needsPlacement: String? = nil, comments: [ImportedComment] = []) {
        self.marker = marker
        self.author = author
        self.needsPlacement = needsPlacement
        self.comments = comments
    }
}

/// One comment of an imported item's thread.
public struct ImportedComment: Hashable, Sendable {
    /// Who wrote it; nil when unknown.
    public var author: String?
    /// The text (`Comment.maxLength` characters at most, not blank).
    public var text: String

    /// Describes a comment.
    public init(author: String?, text: String) {
        self.author = author
        self.text = text
    }
}

/// What `importItems` did.
public struct ItemsImport: Hashable, Sendable {
    /// The markers stored, in the items' order.
    public var stored: [Marker]
    /// The items skipped because a marker of this drawing has their uuid already (an import of the same file twice).
    public var alreadyStored: [MarkerUUID]
    /// The comments stored with them.
    public var comments: Int

    /// Creates an outcome.
    public init(stored: [Marker], alreadyStored: [MarkerUUID], comments: Int) {
        self.stored = stored
        self.alreadyStored = alreadyStored
        self.comments = comments
    }
}
