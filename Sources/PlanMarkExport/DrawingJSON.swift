import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore

/// A drawing as JSON, the one shape of `planmark drawing show|list --format json` and the service's
/// `GET /drawings[/{name}]`.
public enum DrawingJSON {
    /// `{"name","image","sha256","width","height","zoom","crs","project","singleMarker","markers","regions","nextNumber",
    /// "revision","createdAt","bounds":{"southWest":[lat,lng],"northEast":[lat,lng]}}`, bounds at the drawing's zoom in
    /// its CRS flavour. A calibrated drawing adds `"metresPerPixel":S,"calibration":{...}` (`CalibrationJSON`)
    /// after `bounds`; an uncalibrated one has neither key. A drawing whose image is a page of a PDF then adds
    /// `"pdf":{"page":P,"dpi":D}` (`PDFSourceJSON`); a PNG drawing has no `pdf` key. `image` is where the caller's user gets the image: the service gives its URL path
    /// (it never names a server file), the CLI the file the drawing was added from.
    ///
    /// With `tiles` (the service's), the object ends with `"tiles":{"template":TILES,"minZoom":a,"maxZoom":b,
    /// "tileSize":256}`, the levels of the drawing's `tileScheme` (`maxZoom` its `topZoom`: for a page of a PDF two above
    /// its pyramid's, drawn from the page); without it (the CLI's) it has no `tiles`.
    /// - Complexity: O(length of the text + log(max(width, height))).
    /// `tilesProgress` (with `tiles`): how much of the tile pyramid is made, 0...1, as `tiles.progress`.
    public static func object(_ summary: DrawingSummary, image: String, tiles: String? = nil, tilesProgress: Double? = nil) -> String {
        var out = ReportBuffer(capacity: 320)
        append(summary, image: image, tiles: tiles, tilesProgress: tilesProgress, to: &out)
        return out.text
    }

    /// `{"drawings":[...]}` and a line break, each drawing's `image` given by `image` and its tile URL
    /// template (when `tiles` is given) by `tiles`.
    /// - Complexity: O(length of the text).
    public static func list(_ summaries: [DrawingSummary], image: (Drawing) -> String, tiles: ((Drawing) -> String)? = nil) -> String {
        var out = ReportBuffer(capacity: 64 + 320 * summaries.count)
        out.append("{\"drawings\":[")
        for (index, summary) in summaries.enumerated() {
            if index > 0 { out.append(",") }
            append(summary, image: image(summary.drawing), tiles: tiles?(summary.drawing), to: &out)
        }
        out.append("]}\n")
        return out.text
    }

    /// Appends the object of `object(_:image:tiles:)`.
    static func append(_ summary: DrawingSummary, image: String, tiles: String?, tilesProgress: Double? = nil, to out: inout ReportBuffer) {
        let d = summary.drawing
        let bounds = d.bounds()
        out.append("{\"name\":"); out.appendJSONString(d.name)
        out.append(",\"image\":"); out.appendJSONString(image)
        out.append(",\"sha256\":"); out.appendJSONString(d.imageSHA256)
        out.append(",\"width\":"); out.appendInteger(Int64(d.width))
        out.append(",\"height\":"); out.appendInteger(Int64(d.height))
        out.append(",\"zoom\":"); out.append(JSONNumber.text(d.zoom.value))
        out.append(",\"crs\":"); out.appendJSONString(d.crs.rawValue)
        out.append(",\"project\":"); out.appendJSONString(summary.project)
        out.append(",\"singleMarker\":"); out.append(d.singleMarker ? String("true") : String("false"))
        out.append(",\"markers\":"); out.appendInteger(Int64(summary.markerCount))
        out.append(",\"regions\":"); out.appendInteger(Int64(summary.regionCount))
        out.append(",\"nextNumber\":"); out.appendInteger(Int64(d.nextNumber))
        out.append(",\"revision\":"); out.appendInteger(Int64(d.revision))
        out.append(",\"createdAt\":"); out.appendJSONString(d.createdAt.text)
        out.append(",\"bounds\":{\"southWest\":["); out.append(JSONNumber.text(bounds.southWest.lat))
        out.append(","); out.append(JSONNumber.text(bounds.southWest.lng))
        out.append("],\"northEast\":["); out.append(JSONNumber.text(bounds.northEast.lat))
        out.append(","); out.append(JSONNumber.text(bounds.northEast.lng))
        out.append("]}")
        // A calibrated drawing's scale and how it was set; both keys absent until it is calibrated.
        if let scale = d.metresPerPixel, let calibration = d.calibration {
            out.append(",\"metresPerPixel\":"); out.append(JSONNumber.text(scale))
            out.append(",\"calibration\":"); out.append(CalibrationJSON.object(calibration))
        }
        if let pdf = d.pdf {
            out.append(",\"pdf\":"); PDFSourceJSON.append(pdf, to: &out)
        }
        if let tiles, let scheme = d.tileScheme {
            out.append(",\"tiles\":{\"template\":"); out.appendJSONString(tiles)
            out.append(",\"minZoom\":"); out.appendInteger(Int64(scheme.minZoom))
            out.append(",\"maxZoom\":"); out.appendInteger(Int64(scheme.topZoom))
            out.append(",\"tileSize\":"); out.appendInteger(Int64(TileScheme.tileSize))
            if let tilesProgress {
                // To the hundredth, rounded down: 1 only once the pyramid is made.
                out.append(",\"progress\":"); out.append(JSONNumber.text((tilesProgress * 100).rounded(.down) / 100))
            }
            out.append("}")
        }
        out.append("}")
    }
}

/// Where a drawing's or a revision's image comes from when it is a page of a PDF, as JSON: `{"page":P,"dpi":D}`.
public enum PDFSourceJSON {
    /// `{"page":P,"dpi":D}`.
    /// - Complexity: O(1).
    public static func object(_ source: PDFSource) -> String {
        var out = ReportBuffer(capacity: 32)
        append(source, to: &out)
        return out.text
    }

    static func append(_ source: PDFSource, to out: inout ReportBuffer) {
        out.append("{\"page\":"); out.appendInteger(Int64(source.page))
        out.append(",\"dpi\":"); out.appendInteger(Int64(source.dpi))
        out.append("}")
    }
}
