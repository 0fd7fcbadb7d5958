import ArgumentParser
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkRender
import PlanMarkStore

/// `planmark drawing add IMAGE --name NAME`: adds a drawing (creates the store if needed).
struct DrawingAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a drawing: a PNG floor plan (its size is read from the PNG header), optionally with regions.",
        discussion: """
        The image is decoded in full under the same limits as 'planmark render' (a PNG that render would \
        refuse, truncated or a decompression bomb, is refused here), and its bytes are kept in the store, \
        so the drawing always serves and renders the image it was added with. Creates the store if it does \
        not exist. Then the drawing's tile pyramid is written where a server on the store looks for it (STORE.tiles \
        beside an SQLite store, or --tile-cache DIR), so the review page opens even an A0 sheet at once; one line on \
        stderr says so, and a pyramid that cannot be written is only a warning. Exit status: 0 added, 1 a drawing has that name, 64 bad zoom, 65 not a PNG, a refused \
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

    @Option(name: .long, help: ArgumentHelp("The project the drawing belongs to (made with 'planmark project add'; default: default).", valueName: "name"))
    var project: String?

    @Flag(name: .long, help: "Keep one marker at most: a new marker replaces the existing one.")
    var singleMarker = false

    @Option(name: .long, help: ArgumentHelp("A regions file (rooms and allowed areas): GeoJSON in pixels, or LabelMe JSON made on this image.", valueName: "file"))
    var regions: String?

    @Option(name: .long, help: "Refuse images with more pixels than this (checked before decoding), as render does.")
    var maxPixels: Int = PNGDecoder.defaultMaxPixels

    @OptionGroup var tiles: TileCacheOptions

    func validate() throws {
        guard maxPixels > 0 else { throw ValidationError("--max-pixels must be positive") }
    }

    func run() async throws {
        var regionList: [Region] = []
        // A GeoJSON regions file is read (and its faults reported) before the image, as always; a LabelMe
        // one is checked against the image's size once that is known.
        var regionsInput: RegionsInput?
        if let regions {
            do {
                regionsInput = try readRegionsFile(regions, drawingSize: nil)
                regionList = regionsInput!.regions
            } catch {
                throw fail(error)
            }
        }
        let bytes: [UInt8]
        do {
            bytes = try InputFile.readAll(path: image)
            // Check the image (all of it, as render decodes it) before creating a store file for it.
            let header = try PNGDecoder(maxPixels: maxPixels).verify(data: bytes, source: image)
            if let regionsInput, let regions {
                try regionsInput.check(drawingSize: DrawingSize(width: Double(header.width), height: Double(header.height)), source: regions)
            }
        } catch let error as FormatError where error.kind == .missingInput {
            throw fail(StoreError.missingImage(path: image))
        } catch {
            throw fail(error)
        }
        let new = NewDrawing(name: name, imagePath: image, imageBytes: bytes, zoom: zoom, crs: crs, singleMarker: singleMarker, project: project)
        try await storeCommand {
            try new.validate()
            let store = try await storeOptions.open(create: true)
            let drawing = try await store.addDrawing(new, regions: regionList)
            if !SimpleCRS(crs).representsWithoutClamping(drawing.size, at: zoom) {
                printWarning("a \(drawing.width)x\(drawing.height) drawing does not fit flutter_map's CrsSimple at zoom \(zoom): latLng is clamped; use a lower zoom")
            }
            let out = StandardOutput()
            try out.write("added drawing \"\(drawing.name)\" (\(drawing.width)x\(drawing.height) px, zoom \(drawing.zoom), \(drawing.crs.rawValue), \(regionList.count) regions)\n")
            try out.flush()
            await tiles.writePyramid(of: drawing, image: bytes, storeFile: store.file)
        }
    }
}
