import PlanMarkFormats
import PlanMarkGeometry

/// A tile pyramid's description, the `tiles.json` that `planmark tiles` writes beside the tiles, so a
/// map client can set up its `TileLayer` from one file (and the service can give the same numbers).
public enum TilesJSON {
    /// The template tiles are written under, relative to the pyramid's folder.
    public static let template = "{z}/{x}/{y}.png"

    /// `{"tileSize":256,"minZoom":a,"maxZoom":b,"width":W,"height":H,"zoom":S,"crs":"leaflet",
    /// "bounds":{"southWest":[lat,lng],"northEast":[lat,lng]},"template":"{z}/{x}/{y}.png"}` and a line
    /// break: the bounds are the image's corners at the server zoom S in the CRS flavour (as a drawing's
    /// JSON gives them), `template` is `template` (relative by default).
    /// - Complexity: O(1).
    public static func object(_ scheme: TileScheme, crs: CRSFlavour, template: String = TilesJSON.template) -> String {
        let bounds = SimpleCRS(crs).bounds(of: DrawingSize(width: Double(scheme.width), height: Double(scheme.height)), at: scheme.zoom)
        var out = ReportBuffer(capacity: 256)
        out.append("{\"tileSize\":"); out.appendInteger(Int64(TileScheme.tileSize))
        out.append(",\"minZoom\":"); out.appendInteger(Int64(scheme.minZoom))
        out.append(",\"maxZoom\":"); out.appendInteger(Int64(scheme.maxZoom))
        out.append(",\"width\":"); out.appendInteger(Int64(scheme.width))
        out.append(",\"height\":"); out.appendInteger(Int64(scheme.height))
        out.append(",\"zoom\":"); out.append(JSONNumber.text(scheme.zoom.value))
        out.append(",\"crs\":"); out.appendJSONString(crs.rawValue)
        out.append(",\"bounds\":{\"southWest\":["); out.append(JSONNumber.text(bounds.southWest.lat))
        out.append(","); out.append(JSONNumber.text(bounds.southWest.lng))
        out.append("],\"northEast\":["); out.append(JSONNumber.text(bounds.northEast.lat))
        out.append(","); out.append(JSONNumber.text(bounds.northEast.lng))
        out.append("]},\"template\":"); out.appendJSONString(template)
        out.append("}\n")
        return out.text
    }
}
