import ArgumentParser
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkRender
import PlanMarkStore

/// `planmark sheets add SET.pdf`: one drawing a page of a PDF sheet set, named from the PDF.
struct SheetsAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add every page of a PDF sheet set as a drawing, named from the PDF's bookmarks.",
        discussion: """
        Each page becomes a drawing, as 'planmark drawing add SET.pdf --page N' makes it: its size is the page's size at \
        --dpi (default 300), rounded up, and the PDF's bytes are kept once in the store. A page is named by the PDF's \
        outline (bookmark) entry that points at it, its title as written; else by its page label; else 'SET pN' (the \
        file's name without .pdf); --prefix goes before each name. A page whose name is a drawing already is reported \
        and skipped, and so is a page that cannot be drawn; the others are stored. One line a page: the page, the name, \
        its size in pixels, and 'stored' or why not (--format json: {"file","pages":[{"page","name","width","height",\
        "stored","result"|"reason"}]}). Exit status: 0 every page stored, 1 a page skipped because its name exists, \
        65 not a PDF, a PDF that cannot be read, or a page that cannot be drawn or has more pixels than --max-pixels \
        (the others stored), 64 bad options, 66 no such file or project, 69 planmark-pdf missing, 74 store I/O. Each \
        drawing's tile pyramid is written once it is stored, as 'drawing add' writes it (--tile-cache, --no-tiles).
        """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: ArgumentHelp("The sheet set: a PDF, one sheet a page.", valueName: "set.pdf"))
    var set: String

    @OptionGroup var resolution: PDFResolutionOption

    @Option(name: .long, help: ArgumentHelp("Text put before every drawing's name (for example \"Tower A \").", valueName: "text"))
    var prefix = ""

    @Option(name: .long, parsing: .unconditional, help: "The server zoom of the drawings, in -64...64: image pixels are CRS pixels at this zoom.")
    var zoom: Zoom = 8

    @Option(name: .long, help: "The CRS flavour of the map clients: leaflet or flutter.")
    var crs: CRSFlavour = .leaflet

    @Option(name: .long, help: ArgumentHelp("The project the drawings belong to (default: default).", valueName: "name"))
    var project: String?

    @Option(name: .long, help: "text or json.")
    var format: TextOrJSON = .text

    @Option(name: .long, help: "Refuse pages with more pixels than this at --dpi, as render refuses images.")
    var maxPixels: Int = PNGDecoder.defaultMaxPixels

    @OptionGroup var tiles: TileCacheOptions

    func validate() throws {
        guard maxPixels > 0 else { throw ValidationError("--max-pixels must be positive") }
        guard zoom.isSupported else { throw ValidationError("--zoom must be in \(Zoom.supportedDescription)") }
    }

    func run() async throws {
        let (bytes, pages) = try await SheetSet.read(set, dpi: resolution.value, maxPixels: maxPixels)
        try await storeCommand {
            let store = try await storeOptions.open(create: true)
            try await SheetSet.forEachPage(of: pages, prefix: prefix, format: format) { page, line in
                let image = try await pages.image(page: page.number)
                let new = NewDrawing(name: line.name, imagePath: set, imageBytes: bytes, zoom: zoom, crs: crs, project: project, pdf: image)
                try new.validate()
                let drawing = try await store.addDrawing(new, regions: [])
                line.done = "stored"
                await tiles.writePyramid(of: drawing, image: bytes, storeFile: store.file, renderer: pages.renderer)
            }
        }
    }
}
