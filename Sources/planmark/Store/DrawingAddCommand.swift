import ArgumentParser
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore

/// `planmark drawing add IMAGE --name NAME`: adds a drawing (creates the store if needed).
struct DrawingAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a drawing: a PNG floor plan (its size is read from the PNG header), optionally with regions.",
        discussion: "Creates the store if it does not exist. Exit status: 0 added, 1 a drawing has that name, 65 not a PNG or bad regions, 66 image missing, 74 store I/O."
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: ArgumentHelp("The drawing's PNG image.", valueName: "image"))
    var image: String

    @Option(name: .long, help: "The drawing's unique name.")
    var name: String

    @Option(name: .long, parsing: .unconditional, help: "The server zoom: image pixels are CRS pixels at this zoom.")
    var zoom: Zoom = 8

    @Option(name: .long, help: "The CRS flavour of the map clients: leaflet or flutter.")
    var crs: CRSFlavour = .leaflet

    @Flag(name: .long, help: "Keep one marker at most: a new marker replaces the existing one.")
    var singleMarker = false

    @Option(name: .long, help: ArgumentHelp("A regions GeoJSON file (rooms and allowed areas, in pixels).", valueName: "file"))
    var regions: String?

    func run() throws {
        var regionList: [Region] = []
        if let regions {
            do { regionList = try RegionsFile.read(path: regions) } catch { throw fail(error) }
        }
        try storeCommand {
            // Check the image before creating a store file for it.
            _ = try PNGHeader(path: image)
            let store = try storeOptions.open(create: true)
            let drawing = try store.addDrawing(NewDrawing(name: name, imagePath: image, zoom: zoom, crs: crs, singleMarker: singleMarker),
                                               regions: regionList)
            if !SimpleCRS(crs).representsWithoutClamping(drawing.size, at: zoom) {
                printError("warning: a \(drawing.width)x\(drawing.height) drawing does not fit flutter_map's CrsSimple at zoom \(zoom): latLng is clamped; use a lower zoom")
            }
            let out = StandardOutput()
            try out.write("added drawing \"\(drawing.name)\" (\(drawing.width)x\(drawing.height) px, zoom \(drawing.zoom), \(drawing.crs.rawValue), \(regionList.count) regions)\n")
            try out.flush()
        }
    }
}
