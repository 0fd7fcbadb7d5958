import ArgumentParser
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkRender
import PlanMarkStore

/// `planmark drawing add IMAGE --name NAME`: adds a drawing (creates the store if needed); IMAGE is a PNG or a PDF
/// (`--page`, `--dpi`).
struct DrawingAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a drawing: a PNG floor plan, or a page of a PDF, optionally with regions.",
        discussion: """
        A PNG's size is read from its header. A PDF's page (--page, default 1) is counted in pixels at --dpi (default \
        300): the drawing's size is the page's size at that resolution, rounded up, and everything PlanMark does with \
        pixels works on it unchanged. The PDF is read, measured and drawn once by planmark-pdf, a child process with a \
        time limit, before anything is stored; the PDF's bytes are kept in the store with the page and resolution. \
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

    @Argument(help: ArgumentHelp("The drawing's image: a PNG, or a PDF (one page of it).", valueName: "image"))
    var image: String

    @Option(name: .long, help: ArgumentHelp("For a PDF: the page to add, from 1 (default 1).", valueName: "n"))
    var page: Int?

    @OptionGroup var resolution: PDFResolutionOption

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
        if let page, page < 1 { throw ValidationError("--page must be 1 or more (pages are counted from 1)") }
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
        var pdf: PDFPageImage?
        do {
            bytes = try InputFile.readAll(path: image)
            // Check the image (all of it, as render decodes it; a PDF's page drawn once) before creating a store file for it.
            let size: DrawingSize
            if PDFPages.isPDF(bytes) {
                let page = try await PDFPages(file: image, dpi: resolution.value, maxPixels: maxPixels).image(page: self.page ?? 1)
                size = DrawingSize(width: Double(page.width), height: Double(page.height))
                pdf = page
            } else {
                guard page == nil, resolution.dpi == nil else {
                    throw CommandFailure(place: image, message: "--page and --dpi are for a PDF; this is not one", code: Exit.usage)
                }
                let header = try PNGDecoder(maxPixels: maxPixels).verify(data: bytes, source: image)
                size = DrawingSize(width: Double(header.width), height: Double(header.height))
            }
            if let regionsInput, let regions {
                try regionsInput.check(drawingSize: size, source: regions)
            }
        } catch let error as FormatError where error.kind == .missingInput {
            throw fail(StoreError.missingImage(path: image))
        } catch {
            throw fail(error)
        }
        let new = NewDrawing(name: name, imagePath: image, imageBytes: bytes, zoom: zoom, crs: crs, singleMarker: singleMarker, project: project,
                             pdf: pdf)
        try await storeCommand {
            try new.validate()
            let store = try await storeOptions.open(create: true)
            let drawing = try await store.addDrawing(new, regions: regionList)
            if !SimpleCRS(crs).representsWithoutClamping(drawing.size, at: zoom) {
                printWarning("a \(drawing.width)x\(drawing.height) drawing does not fit flutter_map's CrsSimple at zoom \(zoom): latLng is clamped; use a lower zoom")
            }
            try StandardOutput.print("added drawing \"\(drawing.name)\" (\(drawing.width)x\(drawing.height) px\(drawing.pdf.map { ", \($0)" } ?? ""), zoom \(drawing.zoom), \(drawing.crs.rawValue), \(regionList.count) regions)\n")
            await tiles.writePyramid(of: drawing, image: bytes, storeFile: store.file)
        }
    }
}
