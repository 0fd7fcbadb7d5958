import PlanMarkGeometry

/// A floor-plan image that markers are placed on.
public struct Drawing: Hashable, Sendable {
    /// The store's id (nil before it is stored).
    public var id: Int64?
    /// Unique name, as users refer to it.
    public var name: String
    /// The image file's absolute path (a PNG, or the PDF that `pdf` names a page of).
    public var imagePath: String
    /// SHA-256 of the image file, hexadecimal.
    public var imageSHA256: String
    /// Image width in pixels: from the PNG header, or a PDF page's width at its resolution (`pdf`).
    public var width: Int
    /// Image height in pixels: from the PNG header, or a PDF page's height at its resolution (`pdf`).
    public var height: Int
    /// The server zoom: image pixels are CRS pixels at this zoom.
    public var zoom: Zoom
    /// The map library's CRS flavour clients use.
    public var crs: CRSFlavour
    /// When true, a new marker replaces the existing one.
    public var singleMarker: Bool
    /// The number the next marker gets (numbers are never reused).
    public var nextNumber: Int
    /// Incremented whenever the regions are replaced (lets an import detect a concurrent change).
    public var regionsRevision: Int
    /// When the drawing was added.
    public var createdAt: Timestamp
    /// 60 random bits that, with a marker's number, make the uuid of a marker the store numbered without
    /// one from its client (`MarkerUUID.derived`); 0 before the drawing is stored.
    public var uuidSeed: Int64
    /// Metres in reality per pixel of the image; nil until the drawing is calibrated (`calibrate`). Always
    /// `calibration.metresPerPixel` (the stores derive it again from the calibration, kept as given, when read).
    public var metresPerPixel: Double? = nil
    /// How the scale was set; nil exactly when `metresPerPixel` is.
    public var calibration: Calibration? = nil
    /// The number of the drawing's current revision (1 until `reviseDrawing` gives it a new image); the image
    /// columns above are that revision's.
    public var revision: Int = 1
    /// The store's id of the project the drawing belongs to (`StoreTables.project`); 1 is the project `default`,
    /// which every store has.
    public var projectID: Int64 = 1
    /// When the image is a page of a PDF: which page, at which resolution (the current revision's); nil for a PNG.
    public var pdf: PDFSource? = nil

    /// Creates a drawing.
    public init(id: Int64? = nil, name: String, imagePath: String, imageSHA256: String, width: Int, height: Int,
                zoom: Zoom = 8, crs: CRSFlavour = .leaflet, singleMarker: Bool = false, nextNumber: Int = 1,
                regionsRevision: Int = 0, createdAt: Timestamp, uuidSeed: Int64 = 0) {
        self.id = id
        self.name = name
        self.imagePath = imagePath
        self.imageSHA256 = imageSHA256
        self.width = width
        self.height = height
        self.zoom = zoom
        self.crs = crs
        self.singleMarker = singleMarker
        self.nextNumber = nextNumber
        self.regionsRevision = regionsRevision
        self.createdAt = createdAt
        self.uuidSeed = uuidSeed
    }

    /// The image size for validation.
    public var size: DrawingSize { DrawingSize(width: Double(width), height: Double(height)) }

    /// The image's corners in latLng at `zoom` (default: the server zoom), for a client's image overlay.
    public func bounds(at zoom: Zoom? = nil) -> LatLngBounds {
        SimpleCRS(crs).bounds(of: size, at: zoom ?? self.zoom)
    }
}
