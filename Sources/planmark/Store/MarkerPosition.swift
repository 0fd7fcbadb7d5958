import ArgumentParser
import PlanMarkGeometry
import PlanMarkStore

/// `X Y` in pixels, or `--lat LAT --lng LNG [--zoom Z]` in the drawing's CRS flavour.
struct MarkerPosition: ParsableArguments {
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The position in pixels of the full-resolution image (x right, y down).", valueName: "x y"))
    var pixels: [String] = []

    @Option(name: .long, parsing: .unconditional, help: "Latitude in the drawing's CRS flavour (with --lng instead of X Y).")
    var lat: DecimalArgument?

    @Option(name: .long, parsing: .unconditional, help: "Longitude in the drawing's CRS flavour (with --lat).")
    var lng: DecimalArgument?

    @Option(name: .long, parsing: .unconditional, help: "The client's zoom the latLng was taken at, in -64...64 (default: the drawing's zoom).")
    var zoom: Zoom?

    func validate() throws {
        switch (pixels.isEmpty, lat, lng) {
        case (false, nil, nil):
            guard pixels.count == 2 else { throw ValidationError("give the position as X Y (two numbers), or as --lat and --lng") }
            for text in pixels where decimalNumber(text) == nil {
                throw ValidationError(text.hasPrefix("-") && Double(text) == nil ? "unknown option '\(text)'" : "'\(text)' is not a finite decimal number")
            }
        case (true, .some, .some):
            break
        case (true, nil, nil):
            throw ValidationError("give the position as X Y, or as --lat LAT --lng LNG")
        default:
            throw ValidationError("give either X Y or --lat and --lng together, not both")
        }
    }

    /// The position in pixels for `drawing`; a latLng that converts to a number too large to represent
    /// at the zoom is refused as the arguments of `command` (exit 64, the wording of `planmark crs`).
    func pixel(on drawing: Drawing, command: String) throws(CommandFailure) -> PixelPoint {
        if let lat, let lng {
            let zoom = zoom ?? drawing.zoom
            let pixel = SimpleCRS(drawing.crs).pixel(from: LatLng(lat: lat.value, lng: lng.value), at: zoom)
            guard pixel.x.isFinite && pixel.y.isFinite else {
                throw CommandFailure.notRepresentable(command, lat.value, lng.value, zoom: zoom, code: Exit.usage)
            }
            return pixel
        }
        return PixelPoint(x: decimalNumber(pixels[0]) ?? .nan, y: decimalNumber(pixels[1]) ?? .nan)
    }
}
