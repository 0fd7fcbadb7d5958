import PlanMarkGeometry
import PlanMarkStore

/// A position in a request body: `{"x","y"}` in pixels, or `{"lat","lng"[,"zoom"]}` in the drawing's CRS
/// flavour at the client's zoom (default: the drawing's zoom).
enum MarkerPositionInput: Sendable {
    /// Pixels at the drawing's zoom.
    case pixel(PixelPoint)
    /// latLng at a zoom; nil zoom means the drawing's.
    case latLng(LatLng, zoom: Zoom?)

    /// Reads the position from `body`; nil when it gives none (allowed only when `required` is false).
    static func read(_ body: JSONObject, required: Bool) throws(APIError) -> MarkerPositionInput? {
        let x = try body.number("x"), y = try body.number("y")
        let lat = try body.number("lat"), lng = try body.number("lng")
        let zoom = try body.number("zoom")
        let hasPixel = x != nil || y != nil, hasLatLng = lat != nil || lng != nil
        if hasPixel && (hasLatLng || zoom != nil) {
            throw .invalidField(body.path, "give either x and y, or lat and lng (with zoom), not both")
        }
        if hasPixel {
            guard let x else { throw .invalidField(body.path("x"), "required with y") }
            guard let y else { throw .invalidField(body.path("y"), "required with x") }
            return .pixel(PixelPoint(x: x, y: y))
        }
        if hasLatLng {
            guard let lat else { throw .invalidField(body.path("lat"), "required with lng") }
            guard let lng else { throw .invalidField(body.path("lng"), "required with lat") }
            let checked = try zoom.map { (value) throws(APIError) in try QueryParameters.checkedZoom(value, field: body.path("zoom")) }
            return .latLng(LatLng(lat: lat, lng: lng), zoom: checked)
        }
        if zoom != nil { throw .invalidField(body.path("zoom"), "given without lat and lng") }
        if required { throw .invalidField(body.path, "give the position as x and y (pixels), or lat and lng (with zoom)") }
        return nil
    }

    /// The pixel position on `drawing`: latLng converted with the drawing's CRS flavour (a latLng
    /// position needs the drawing; a pixel position does not).
    func pixel(on drawing: Drawing?) -> PixelPoint {
        switch self {
        case .pixel(let point):
            return point
        case .latLng(let latLng, let zoom):
            guard let drawing else {
                assertionFailure("a latLng position needs the drawing")
                return PixelPoint(x: .nan, y: .nan)
            }
            return SimpleCRS(drawing.crs).pixel(from: latLng, at: zoom ?? drawing.zoom)
        }
    }

    /// The zoom the client gave, for echoing latLng back.
    var zoom: Zoom? {
        if case .latLng(_, let zoom) = self { return zoom }
        return nil
    }

    /// True for a latLng position.
    var isLatLng: Bool {
        if case .latLng = self { return true }
        return false
    }
}
