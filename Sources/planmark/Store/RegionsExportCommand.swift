import ArgumentParser
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore

/// The format of `planmark regions export`.
enum RegionsExportFormat: String, ExpressibleByArgument, CaseIterable { case geojson, labelme }

/// `planmark regions export NAME [--latlng [--zoom Z]]` or `--format labelme [--markers]`.
struct RegionsExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a drawing's regions as a GeoJSON FeatureCollection (in pixels or as [lng, lat]) or a LabelMe file.",
        discussion: """
        GeoJSON: on a calibrated drawing ('planmark drawing calibrate') each feature's properties carry area \
        (square metres, holes subtracted, to 0.01 m2) and perimeter (metres, holes' rings included, to 1 mm), rounded \
        half away from zero, then areaExact and perimeterExact unrounded; without a scale the keys are absent. LabelMe (--format labelme): one polygon shape per polygon labelled with the region's name (or \
        id), a multipolygon's polygons sharing a group_id, allowed areas labelled 'allowed ...'; with --markers the \
        markers follow as point shapes labelled with their numbers. LabelMe polygons have no holes: a region's holes \
        are left out with a warning on stderr. imagePath is the drawing's image file name, imageData null.
        """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The drawing's name.")
    var name: String

    @Option(name: .long, help: "geojson (default) or labelme.")
    var format: RegionsExportFormat = .geojson

    @Flag(name: .long, help: "Positions as [lng, lat] in the drawing's CRS flavour instead of pixels (GeoJSON only).")
    var latlng = false

    @Option(name: .long, parsing: .unconditional, help: "The client's zoom for --latlng (default: the drawing's zoom).")
    var zoom: Zoom?

    @Flag(name: .long, help: "Add the markers as point shapes labelled with their numbers (LabelMe only).")
    var markers = false

    func validate() throws {
        if format == .labelme && (latlng || zoom != nil) { throw ValidationError("--latlng and --zoom go with GeoJSON; LabelMe is in pixels") }
        if format == .geojson && markers { throw ValidationError("--markers goes with --format labelme") }
    }

    func run() async throws {
        try await storeCommand {
            let store = try await storeOptions.open()
            let drawing = try await store.drawing(named: name).drawing
            let regions = try await store.regions(of: name)
            let text: String
            switch format {
            case .geojson:
                let crs = SimpleCRS(drawing.crs)
                let z = zoom ?? drawing.zoom
                let collection = latlng
                    ? RegionsGeoJSONWriter.featureCollection(regions, metresPerPixel: drawing.metresPerPixel) {
                        let p = crs.latLng(from: $0, at: z); return (p.lng, p.lat)
                    }
                    : RegionsGeoJSONWriter.featureCollection(regions, metresPerPixel: drawing.metresPerPixel)
                text = collection + "\n"
            case .labelme:
                var points: [LabelMePoint] = []
                if markers {
                    try await store.forEachMarker(in: name, filter: MarkerFilter()) { marker in
                        points.append(LabelMePoint(label: String(marker.number), position: marker.position))
                        return true
                    }
                }
                let fileName = drawing.imagePath.split(separator: "/").last.map(String.init) ?? drawing.imagePath
                let document = LabelMeFile.document(regions: regions, points: points, imagePath: fileName,
                                                    imageWidth: drawing.width, imageHeight: drawing.height)
                for omission in document.omissions { printWarning(omission.description) }
                text = document.text
            }
            try StandardOutput.print(text)
        }
    }
}
