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
