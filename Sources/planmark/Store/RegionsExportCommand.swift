import ArgumentParser
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore

/// `planmark regions export NAME [--latlng [--zoom Z]]`: the regions as GeoJSON.
struct RegionsExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a drawing's regions as a GeoJSON FeatureCollection, in pixels or as [lng, lat]."
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The drawing's name.")
    var name: String

    @Flag(name: .long, help: "Positions as [lng, lat] in the drawing's CRS flavour instead of pixels.")
    var latlng = false

    @Option(name: .long, parsing: .unconditional, help: "The client's zoom for --latlng (default: the drawing's zoom).")
    var zoom: Zoom?

    func run() throws {
        try storeCommand {
            let store = try storeOptions.open()
            let drawing = try store.drawing(named: name).drawing
            let regions = try store.regions(of: name)
            let crs = SimpleCRS(drawing.crs)
            let z = zoom ?? drawing.zoom
            let text = latlng
                ? RegionsGeoJSONWriter.featureCollection(regions) { let p = crs.latLng(from: $0, at: z); return (p.lng, p.lat) }
                : RegionsGeoJSONWriter.featureCollection(regions)
            let out = StandardOutput()
            try out.write(text + "\n")
            try out.flush()
        }
    }
}
