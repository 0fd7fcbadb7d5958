import PlanMarkFormats
import PlanMarkStore

/// A drawing as the service describes it to clients (no server file paths).
enum DrawingJSON {
    /// `{"name","width","height","zoom","crs","singleMarker","markers","regions","nextNumber","createdAt",
    /// "image","bounds":{"southWest":[lat,lng],"northEast":[lat,lng]}}`, bounds at the drawing's zoom in
    /// its CRS flavour, `image` the URL path of the PNG.
    /// - Complexity: O(length of the text).
    static func object(_ summary: DrawingSummary) -> String {
        let d = summary.drawing
        let bounds = d.bounds()
        let sw = bounds.southWest, ne = bounds.northEast
        var out = "{\"name\":" + JSONString.quoted(d.name)
        out += ",\"width\":\(d.width),\"height\":\(d.height),\"zoom\":" + JSONNumber.text(d.zoom.value)
        out += ",\"crs\":\"\(d.crs.rawValue)\",\"singleMarker\":\(d.singleMarker)"
        out += ",\"markers\":\(summary.markerCount),\"regions\":\(summary.regionCount),\"nextNumber\":\(d.nextNumber)"
        out += ",\"createdAt\":\"\(d.createdAt.text)\",\"image\":" + JSONString.quoted("/drawings/" + PathComponent.encode(d.name) + "/image")
        out += ",\"bounds\":{\"southWest\":[" + JSONNumber.text(sw.lat) + "," + JSONNumber.text(sw.lng)
        out += "],\"northEast\":[" + JSONNumber.text(ne.lat) + "," + JSONNumber.text(ne.lng) + "]}}"
        return out
    }

    /// `{"drawings":[...]}`.
    static func list(_ summaries: [DrawingSummary]) -> String {
        "{\"drawings\":[" + summaries.map(object).joined(separator: ",") + "]}\n"
    }
}
