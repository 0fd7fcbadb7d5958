import PlanMarkGeometry

/// What to store for a new drawing (width and height come from the image's PNG header, or with `pdf` from the caller).
public struct NewDrawing: Hashable, Sendable {
    /// Unique name.
    public var name: String
    /// Path of the image, a PNG or (with `pdf`) a PDF (kept as where the drawing came from).
    public var imagePath: String
    /// The image's bytes, when the caller has read (and checked) them already; nil reads `imagePath`.
    public var imageBytes: [UInt8]?
    /// Server zoom (default 8).
    public var zoom: Zoom
    /// CRS flavour clients use (default Leaflet).
    public var crs: CRSFlavour
    /// Whether a new marker replaces the existing one.
    public var singleMarker: Bool
    /// The project it belongs to (`Project.defaultName` when nil).
    public var project: String?
    /// When the image is a page of a PDF: the page, its resolution and its size in pixels (which the store cannot
    /// measure); nil for a PNG, whose size comes from its header.
    public var pdf: PDFPageImage?

    /// Describes a new drawing.
    public init(name: String, imagePath: String, imageBytes: [UInt8]? = nil, zoom: Zoom = 8, crs: CRSFlavour = .leaflet,
                singleMarker: Bool = false, project: String? = nil, pdf: PDFPageImage? = nil) {
        self.project = project
        self.pdf = pdf
        self.name = name
        self.imagePath = imagePath
        self.imageBytes = imageBytes
        self.zoom = zoom
        self.crs = crs
        self.singleMarker = singleMarker
    }
}

extension NewDrawing {
    /// Checks what can be checked before anything is opened or written: a name without control
    /// characters, a supported zoom and, for a PDF page, its page, resolution and size (`PDFPageImage.validate`).
    public func validate() throws(StoreError) {
        try TextField.checkName(name, field: "name")
        guard zoom.isSupported else {
            throw .invalidArgument("zoom: \(zoom) is outside the supported range \(Zoom.supportedDescription)")
        }
        try pdf?.validate()
    }
}

/// A drawing's (or a revision's) image as stored: the bytes it was added with, a PNG file's or, with `pdf`, a PDF
/// file's. A reader that decodes the image must branch on `pdf`: those bytes are the whole PDF, and the image is
/// its page `pdf.page` drawn at `pdf.dpi`.
public struct DrawingImage: Hashable, Sendable {
    /// SHA-256 of `bytes`, hexadecimal (a strong ETag).
    public var sha256: String
    /// The file's bytes: a PNG, or the PDF that `pdf` names a page of.
    public var bytes: [UInt8]
    /// When the image is a page of a PDF: which page, at which resolution; nil for a PNG.
    public var pdf: PDFSource?

    /// Creates an image.
    public init(sha256: String, bytes: [UInt8], pdf: PDFSource? = nil) {
        self.sha256 = sha256
        self.bytes = bytes
        self.pdf = pdf
    }
}

/// A drawing with its counts, as listed.
public struct DrawingSummary: Hashable, Sendable {
    /// The drawing.
    public var drawing: Drawing
    /// How many markers it has (removed ones excluded).
    public var markerCount: Int
    /// How many regions it has.
    public var regionCount: Int
    /// The name of the project it belongs to.
    public var project: String

    /// Creates a summary.
    public init(drawing: Drawing, markerCount: Int, regionCount: Int, project: String) {
        self.project = project
        self.drawing = drawing
        self.markerCount = markerCount
        self.regionCount = regionCount
    }
}

/// A row an import did not store, and why.
public struct RejectedRow: Hashable, Sendable {
    /// The row's id in the file.
    public var id: String
    /// Its line in a CSV file (0 when unknown).
    public var line: Int
    /// Its position, if the coordinates parsed.
    public var position: PixelPoint?
    /// Why the geometry core refused it.
    public var reason: InvalidReason

    /// Creates a rejected row.
    public init(id: String, line: Int, position: PixelPoint?, reason: InvalidReason) {
        self.id = id
        self.line = line
        self.position = position
        self.reason = reason
    }
}

/// The result of an import.
public struct ImportOutcome: Hashable, Sendable {
    /// Rows read.
    public var total: Int
    /// Markers stored.
    public var stored: Int
    /// The numbers given to the stored markers (consecutive).
    public var numbers: Range<Int>
    /// Rows refused by validation, in file order. Without `skipInvalid`, any of these means nothing was stored.
    public var rejected: [RejectedRow]
    /// Rows skipped because their uuid is stored already (offline capture synced twice).
    public var alreadyStored: Int

    /// Creates an outcome.
    public init(total: Int, stored: Int, numbers: Range<Int>, rejected: [RejectedRow], alreadyStored: Int = 0) {
        self.total = total
        self.stored = stored
        self.numbers = numbers
        self.rejected = rejected
        self.alreadyStored = alreadyStored
    }
}

/// The result of replacing a drawing's regions.
public struct RegionsReplacement: Hashable, Sendable {
    /// Regions now stored.
    public var regionCount: Int
    /// Markers whose rooms changed.
    public var markersReassigned: Int
    /// Numbers of markers now outside the allowed area (kept only with `force`).
    public var markersOutside: [Int]

    /// Creates a result.
    public init(regionCount: Int, markersReassigned: Int, markersOutside: [Int]) {
        self.regionCount = regionCount
        self.markersReassigned = markersReassigned
        self.markersOutside = markersOutside
    }
}

/// What removing a drawing removed.
public struct DrawingRemoval: Hashable, Sendable {
    /// The drawing's name.
    public var name: String
    /// Markers removed with it.
    public var markers: Int
    /// Attachments removed with it.
    public var attachments: Int

    /// Creates a result.
    public init(name: String, markers: Int, attachments: Int) {
        self.name = name
        self.markers = markers
        self.attachments = attachments
    }
}
