import PlanMarkGeometry

/// One revision of a drawing's sheet: its image and the transform that carried the markers onto it.
public struct Revision: Hashable, Sendable {
    /// 1, 2, 3 ... per drawing; the highest is the drawing's current one.
    public var number: Int
    /// The image file's absolute path (where it was added from; the bytes are kept in the store): a PNG, or the PDF
    /// that `pdf` names a page of.
    public var imagePath: String
    /// SHA-256 of the image, hexadecimal.
    public var imageSHA256: String
    /// Image width in pixels (a PDF page's at its resolution).
    public var width: Int
    /// Image height in pixels (a PDF page's at its resolution).
    public var height: Int
    /// When it was stored.
    public var createdAt: Timestamp
    /// Who stored it, if known.
    public var author: String?
    /// The transform from the previous revision's pixels to this one's; nil for revision 1.
    public var transform: AffineMap?
    /// The largest alignment residual of that transform in pixels (0 for the identity and a similarity of
    /// two pairs); nil for revision 1.
    public var maxResidual: Double?
    /// When the image is a page of a PDF: which page, at which resolution; nil for a PNG.
    public var pdf: PDFSource?

    /// Creates a revision record.
    public init(number: Int, imagePath: String, imageSHA256: String, width: Int, height: Int, createdAt: Timestamp,
                author: String? = nil, transform: AffineMap? = nil, maxResidual: Double? = nil, pdf: PDFSource? = nil) {
        self.number = number
        self.imagePath = imagePath
        self.imageSHA256 = imageSHA256
        self.width = width
        self.height = height
        self.createdAt = createdAt
        self.author = author
        self.transform = transform
        self.maxResidual = maxResidual
        self.pdf = pdf
    }
}

/// A new revision to store: the image, how the previous sheet maps onto it, and optionally its own regions.
public struct NewRevision: Sendable {
    /// Path of the image, a PNG or (with `pdf`) a PDF (kept as where the revision came from).
    public var imagePath: String
    /// The image's bytes when the caller has read (and checked) them; nil reads `imagePath`.
    public var imageBytes: [UInt8]?
    /// The fitted alignment from the previous revision to this one (`Alignment.identity` without pairs).
    public var alignment: Alignment
    /// The new sheet's regions; nil carries the current regions through the transform.
    public var regions: [Region]?
    /// When the image is a page of a PDF: the page, its resolution and its size in pixels (which the store cannot
    /// measure); nil for a PNG, whose size comes from its header.
    public var pdf: PDFPageImage?

    /// Describes a new revision.
    public init(imagePath: String, imageBytes: [UInt8]? = nil, alignment: Alignment = .identity, regions: [Region]? = nil,
                pdf: PDFPageImage? = nil) {
        self.imagePath = imagePath
        self.imageBytes = imageBytes
        self.alignment = alignment
        self.regions = regions
        self.pdf = pdf
    }
}

/// A marker that no longer validates on the new revision: kept where the transform put it, flagged.
public struct UnplacedMarker: Hashable, Sendable {
    /// The marker's number.
    public var number: Int
    /// Its position on the previous revision.
    public var from: PixelPoint
    /// Where the transform put it on the new revision (where it is kept).
    public var to: PixelPoint
    /// Why it needs placing again (`outside-drawing`, `outside-allowed-area`, `outside-rooms`).
    public var reason: String

    /// Creates an entry.
    public init(number: Int, from: PixelPoint, to: PixelPoint, reason: String) {
        self.number = number
        self.from = from
        self.to = to
        self.reason = reason
    }
}

/// What `reviseDrawing` did (or, for a dry run, would do).
public struct RevisionOutcome: Hashable, Sendable {
    /// The new revision (its number is the drawing's new current revision).
    public var revision: Revision
    /// The previous revision's number.
    public var previous: Int
    /// The alignment's residuals, one per pair.
    public var residuals: [Double]
    /// How many markers were carried through the transform.
    public var carried: Int
    /// How many of them changed rooms.
    public var roomsChanged: Int
    /// The markers that need placing again, by number.
    public var unplaced: [UnplacedMarker]
    /// How many regions the new revision has.
    public var regionCount: Int
    /// True when nothing was stored (`dryRun`).
    public var dryRun: Bool

    /// Creates an outcome.
    public init(revision: Revision, previous: Int, residuals: [Double], carried: Int, roomsChanged: Int,
                unplaced: [UnplacedMarker], regionCount: Int, dryRun: Bool) {
        self.revision = revision
        self.previous = previous
        self.residuals = residuals
        self.carried = carried
        self.roomsChanged = roomsChanged
        self.unplaced = unplaced
        self.regionCount = regionCount
        self.dryRun = dryRun
    }
}
