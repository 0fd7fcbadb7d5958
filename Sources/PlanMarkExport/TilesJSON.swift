import PlanMarkFormats
import PlanMarkGeometry

/// A tile pyramid's description, the `tiles.json` that `planmark tiles` writes beside the tiles, so a
/// map client can set up its `TileLayer` from one file (and the service can give the same numbers):
/// `{"tileSize":256,"minZoom":a,"maxZoom":b,"width":W,"height":H,"zoom":S,"crs":"leaflet",
/// "bounds":{"southWest":[lat,lng],"northEast":[lat,lng]},"template":"{z}/{x}/{y}.png"}`: the bounds are the image's corners at the server
/// zoom S in the CRS flavour (as a drawing's JSON gives them), `template` relative to the pyramid's folder by default.
public struct TilesJSON: Encodable, Sendable {
    /// The template tiles are written under, relative to the pyramid's folder.
    public static let template = "{z}/{x}/{y}.png"

    public var tileSize = TileScheme.tileSize
    public var minZoom: Int
    public var maxZoom: Int
    public var width: Int
    public var height: Int
    public var zoom: Double
    public var crs: String
    public var bounds: LatLngBounds
    public var template: String

    /// The description of `scheme` in `crs`.
    /// - Complexity: O(1).
    public init(_ scheme: TileScheme, crs: CRSFlavour, template: String = TilesJSON.template) {
        minZoom = scheme.minZoom
        maxZoom = scheme.maxZoom
        width = scheme.width
        height = scheme.height
        zoom = scheme.zoom.value
        self.crs = crs.rawValue
        bounds = SimpleCRS(crs).bounds(of: DrawingSize(width: Double(scheme.width), height: Double(scheme.height)), at: scheme.zoom)
        self.template = template
    }
}
