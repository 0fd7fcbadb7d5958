import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore

/// A drawing's revision as JSON, the one shape of `planmark drawing show --format json`'s `revisions` and the
/// service's `GET /drawings/{name}/revisions`: `{"number","sha256","width","height","createdAt","author",
/// "transform":{"a".."f"},"maxResidual"}` (`author`, `transform` and `maxResidual` null when there is none: revision 1
/// has no transform), `"pdf":{"page":P,"dpi":D}` last when the revision's image is a page of a PDF (no `pdf` key for a PNG), and
/// `image` after `number`, where the caller's user gets the revision's image (the CLI: the file it was added from; the service leaves
/// it out, it never names a server file).
public struct RevisionJSON: Encodable, Sendable {
    public var number: Int
    public var image: String?
    public var sha256: String
    public var width: Int
    public var height: Int
    public var createdAt: Timestamp
    @NullWhenAbsent public var author: String?
    @NullWhenAbsent public var transform: AffineMap?
    @NullWhenAbsent public var maxResidual: Double?
    public var pdf: PDFSource?

    /// The shape of `revision`, its image given as `image` (nil: no `image` key).
    /// - Complexity: O(1).
    public init(_ revision: Revision, image: String?) {
        number = revision.number
        self.image = image
        sha256 = revision.imageSHA256
        width = revision.width
        height = revision.height
        createdAt = revision.createdAt
        author = revision.author
        transform = revision.transform
        maxResidual = revision.maxResidual
        pdf = revision.pdf
    }
}
