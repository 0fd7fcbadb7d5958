import ArgumentParser
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkRender
import PlanMarkStore

/// `planmark drawing add IMAGE --name NAME`: adds a drawing (creates the store if needed).
struct DrawingAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a drawing: a PNG floor plan (its size is read from the PNG header), optionally with regions.",
        discussion: """
        The image is decoded in full under the same limits as 'planmark render' (a PNG that render would \
        refuse, truncated or a decompression bomb, is refused here), and its bytes are kept in the store, \
        so the drawing always serves and renders the image it was added with. Creates the store if it does \
        not exist. Exit status: 0 added, 1 a drawing has that name, 64 bad zoom, 65 not a PNG, a refused \
        PNG, bad regions or a name with control characters, 66 image missing, 74 store I/O.
        """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: ArgumentHelp("The drawing's PNG image.", valueName: "image"))
    var image: String

    @Option(name: .long, help: "The drawing's unique name.")
    var name: String

    @Option(name: .long, parsing: .unconditional, help: "The server zoom, in -64...64: image pixels are CRS pixels at this zoom.")
    var zoom: Zoom = 8

    @Option(name: .long, help: "The CRS flavour of the map clients: leaflet or flutter.")
    var crs: CRSFlavour = .leaflet

    @Flag(name: .long, help: "Keep one marker at most: a new marker replaces the existing one.")
    var singleMarker = false

    @Option(name: .long, help: ArgumentHelp("A regions GeoJSON file (rooms and allowed areas, in pixels).", valueName: "file"))
    var regions: String?

    @Option(name: .long, help: "Refuse images with more pixels than this (checked before decoding), as render does.")
    var maxPixels: Int = PNGDecoder.defaultMaxPixels

    func validate() throws {
        guard maxPixels > 0 else { throw ValidationError("--max-pixels must be positive") }
    }

    func run() throws {
        var regionList: [Region] = []
        if let regions {
            do { regionList = try RegionsFile.read(path: regions) } catch { throw fail(error) }
        }
        let bytes: [UInt8]
        do {
            bytes = try InputFile.readAll(path: image)
            // Check the image (all of it, as render decodes it) before creating a store file for it.
            _ = try PNGDecoder(maxPixels: maxPixels).verify(data: bytes, source: image)
        } catch let error as FormatError where error.kind == .missingInput {
            throw fail(StoreError.missingImage(path: image))
        } catch {
            throw fail(error)
        }
        let new = NewDrawing(name: name, imagePath: image, imageBytes: bytes, zoom: zoom, crs: crs, singleMarker: singleMarker)
        try storeCommand {
            try new.validate()
            let store = try storeOptions.open(create: true)
            let drawing = try store.addDrawing(new, regions: regionList)
            if !SimpleCRS(crs).representsWithoutClamping(drawing.size, at: zoom) {
                printWarning("a \(drawing.width)x\(drawing.height) drawing does not fit flutter_map's CrsSimple at zoom \(zoom): latLng is clamped; use a lower zoom")
            }
            let out = StandardOutput()
            try out.write("added drawing \"\(drawing.name)\" (\(drawing.width)x\(drawing.height) px, zoom \(drawing.zoom), \(drawing.crs.rawValue), \(regionList.count) regions)\n")
            try out.flush()
        }
    }
}
