import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore

/// A drawing as JSON, the one shape of `planmark drawing show|list --format json` and the service's
/// `GET /drawings[/{name}]`: `{"name","image","sha256","width","height","zoom","crs","project","singleMarker","markers",
/// "regions","nextNumber","revision","createdAt","bounds":{"southWest":[lat,lng],"northEast":[lat,lng]}}` (members in
/// the order declared below, as `JSONDocument` writes every shape), bounds at the drawing's zoom in its CRS flavour.
///
/// A calibrated drawing adds `"metresPerPixel":S,"calibration":{...}` (`CalibrationShape`); an uncalibrated one has
/// neither key. A drawing whose image is a page of a PDF adds `"pdf":{"page":P,"dpi":D}`; a PNG drawing has no `pdf`
/// key. `image` is where the caller's user gets the image: the service gives its URL path (it never names a server
/// file), the CLI the file the drawing was added from. The service's adds `"tiles":{"template":TILES,"minZoom":a,
/// "maxZoom":b,"tileSize":256}`, the levels of the drawing's `tileScheme` (`maxZoom` its `topZoom`: for a page of a
/// PDF two above its pyramid's, drawn from the page), and `progress` (0...1, to the hundredth, rounded down: 1 only
/// once the pyramid is made) when it is asked for. `drawing show` adds `revisions` (`RevisionJSON`).
public struct DrawingJSON: Encodable, Sendable {
    public var name: String
    public var image: String
    public var sha256: String
    public var width: Int
    public var height: Int
    public var zoom: Double
    public var crs: String
    public var project: String
    public var singleMarker: Bool
    public var markers: Int
    public var regions: Int
    public var nextNumber: Int
    public var revision: Int
    public var createdAt: Timestamp
    public var bounds: LatLngBounds
    public var metresPerPixel: Double?
    public var calibration: CalibrationShape?
    public var pdf: PDFSource?
    public var tiles: Tiles?
    public var revisions: [RevisionJSON]?

    /// A drawing's tile pyramid as a map client sets up its tile layer.
    public struct Tiles: Encodable, Sendable {
        public var template: String
        public var minZoom: Int
        public var maxZoom: Int
        public var tileSize = TileScheme.tileSize
        public var progress: Double?
    }

    /// The drawing of `summary`, its image given as `image`; with `tiles` (the service's URL template) and a tile
    /// scheme, its `tiles`, and `tilesProgress` as their `progress`.
    /// - Complexity: O(log(max(width, height))).
    public init(_ summary: DrawingSummary, image: String, tiles: String? = nil, tilesProgress: Double? = nil) {
        let d = summary.drawing
        name = d.name
        self.image = image
        sha256 = d.imageSHA256
        width = d.width
        height = d.height
        zoom = d.zoom.value
        crs = d.crs.rawValue
        project = summary.project
        singleMarker = d.singleMarker
        markers = summary.markerCount
        regions = summary.regionCount
        nextNumber = d.nextNumber
        revision = d.revision
        createdAt = d.createdAt
        bounds = d.bounds()
        // A calibrated drawing's scale and how it was set; both keys absent until it is calibrated.
        if let scale = d.metresPerPixel, let calibration = d.calibration {
            metresPerPixel = scale
            self.calibration = CalibrationShape(calibration)
        }
        pdf = d.pdf
        if let tiles, let scheme = d.tileScheme {
            self.tiles = Tiles(template: tiles, minZoom: scheme.minZoom, maxZoom: scheme.topZoom,
                               progress: tilesProgress.map { ($0 * 100).rounded(.down) / 100 })
        }
    }

    /// `{"drawings":[...]}` and a line break, each drawing's `image` given by `image` and its tile URL
    /// template (when `tiles` is given) by `tiles`.
    /// - Complexity: O(length of the text).
    public static func list(_ summaries: [DrawingSummary], image: (Drawing) -> String, tiles: ((Drawing) -> String)? = nil) -> String {
        struct List: Encodable { var drawings: [DrawingJSON] }
        return JSONDocument.line(List(drawings: summaries.map { DrawingJSON($0, image: image($0.drawing), tiles: tiles?($0.drawing)) }))
    }
}
