import PlanMarkFormats
import PlanMarkStore

/// A drawing as JSON, the one shape of `planmark drawing show|list --format json` and the service's
/// `GET /drawings[/{name}]`.
public enum DrawingJSON {
    /// `{"name","image","sha256","width","height","zoom","crs","singleMarker","markers","regions","nextNumber",
    /// "createdAt","bounds":{"southWest":[lat,lng],"northEast":[lat,lng]}}`, bounds at the drawing's zoom in
    /// its CRS flavour. `image` is where the caller's user gets the image: the service gives its URL path
    /// (it never names a server file), the CLI the file the drawing was added from.
    /// - Complexity: O(length of the text).
    public static func object(_ summary: DrawingSummary, image: String) -> String {
        var out = ReportBuffer(capacity: 320)
        append(summary, image: image, to: &out)
        return out.text
    }

    /// `{"drawings":[...]}` and a line break, each drawing's `image` given by `image`.
    /// - Complexity: O(length of the text).
    public static func list(_ summaries: [DrawingSummary], image: (Drawing) -> String) -> String {
        var out = ReportBuffer(capacity: 64 + 320 * summaries.count)
        out.append("{\"drawings\":[")
        for (index, summary) in summaries.enumerated() {
            if index > 0 { out.append(",") }
            append(summary, image: image(summary.drawing), to: &out)
        }
        out.append("]}\n")
        return out.text
    }

    /// Appends the object of `object(_:image:)`.
    static func append(_ summary: DrawingSummary, image: String, to out: inout ReportBuffer) {
        let d = summary.drawing
        let bounds = d.bounds()
        out.append("{\"name\":"); out.appendJSONString(d.name)
        out.append(",\"image\":"); out.appendJSONString(image)
        out.append(",\"sha256\":"); out.appendJSONString(d.imageSHA256)
        out.append(",\"width\":"); out.appendInteger(Int64(d.width))
        out.append(",\"height\":"); out.appendInteger(Int64(d.height))
        out.append(",\"zoom\":"); out.append(JSONNumber.text(d.zoom.value))
        out.append(",\"crs\":"); out.appendJSONString(d.crs.rawValue)
        out.append(",\"singleMarker\":"); out.append(d.singleMarker ? String("true") : String("false"))
        out.append(",\"markers\":"); out.appendInteger(Int64(summary.markerCount))
        out.append(",\"regions\":"); out.appendInteger(Int64(summary.regionCount))
        out.append(",\"nextNumber\":"); out.appendInteger(Int64(d.nextNumber))
        out.append(",\"createdAt\":"); out.appendJSONString(d.createdAt.text)
        out.append(",\"bounds\":{\"southWest\":["); out.append(JSONNumber.text(bounds.southWest.lat))
        out.append(","); out.append(JSONNumber.text(bounds.southWest.lng))
        out.append("],\"northEast\":["); out.append(JSONNumber.text(bounds.northEast.lat))
        out.append(","); out.append(JSONNumber.text(bounds.northEast.lng))
        out.append("]}}")
    }
}
