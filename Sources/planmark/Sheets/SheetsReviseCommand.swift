import ArgumentParser
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkRender
import PlanMarkStore

/// `planmark sheets revise SET.pdf`: a newer issue of a sheet set; each page whose name is a drawing becomes its next
/// revision.
struct SheetsReviseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revise",
        abstract: "Take a newer issue of a PDF sheet set: each page named as a drawing becomes that drawing's next revision.",
        discussion: """
        Pages are named as 'sheets add' names them (with the same --prefix). A page whose name is a drawing becomes its \
        next revision, and the markers are carried over as 'drawing revise' carries them with the identity: validated \
        again, rooms reassigned, flagged needsPlacement when they no longer fit. The page is counted in pixels at the \
        drawing's own resolution when it is a PDF drawing (else at --dpi, default 300); a page whose size is not the \
        drawing's needs point pairs, so it is listed and skipped: revise it with 'planmark drawing revise NAME SET.pdf \
        --page N --align ...'. A page that is the drawing's current sheet already is skipped. Pages without a drawing \
        of their name are listed (add them with 'sheets add'). One line a page, as 'sheets add' prints (--format json). \
        Each revised drawing's tile pyramid is written as 'drawing revise' writes it (--tile-cache, --no-tiles). \
        Exit status: 0 every page with a drawing revised, 1 a page skipped (its size changed, or it is the current \
        sheet), 65 not a PDF, a PDF that cannot be read or a page that cannot be drawn, 66 no such file or store, \
        69 planmark-pdf missing, 74 store I/O.
        """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: ArgumentHelp("The newer issue of the sheet set: a PDF, one sheet a page.", valueName: "set.pdf"))
    var set: String

    @OptionGroup var resolution: PDFResolutionOption

    @Option(name: .long, help: ArgumentHelp("Text before every drawing's name, as given to 'sheets add'.", valueName: "text"))
    var prefix = ""

    @Option(name: .long, help: "text or json.")
    var format: TextOrJSON = .text

    @Option(name: .long, help: "Refuse pages with more pixels than this, as render refuses images.")
    var maxPixels: Int = PNGDecoder.defaultMaxPixels

    @OptionGroup var tiles: TileCacheOptions

    @OptionGroup var author: AuthorOption

    func validate() throws {
        guard maxPixels > 0 else { throw ValidationError("--max-pixels must be positive") }
    }

    func run() async throws {
        let (bytes, pages) = try await SheetSet.read(set, dpi: resolution.value, maxPixels: maxPixels)
        let sha = SHA256.hexDigest(of: bytes)
        try await storeCommand {
            let store = try await storeOptions.open()
            let author = try await author.resolved(in: store)
            let drawings = Dictionary(try await store.drawings().map { ($0.drawing.name, $0.drawing) }, uniquingKeysWith: { first, _ in first })
            try await SheetSet.forEachPage(of: pages, prefix: prefix, format: format) { page, line in
                guard let drawing = drawings[line.name] else {
                    throw CommandFailure(place: set, message: "no drawing has this name (add it with 'planmark sheets add')", code: 0)
                }
                // The drawing's own resolution, so that a page of the same paper has the same pixels.
                let dpi = resolution.dpi ?? drawing.pdf?.dpi ?? PDFResolutionOption.defaultDPI
                let image = try await pages.image(page: page.number, dpi: dpi)
                (line.width, line.height) = (image.width, image.height)
                guard image.width == drawing.width, image.height == drawing.height else {
                    throw CommandFailure(place: set, message: "the page is \(image.width) x \(image.height) px at \(dpi) dpi, the drawing \(drawing.width) x \(drawing.height); "
                                         + "revise it with 'planmark drawing revise \(line.name) \(set) --page \(page.number) --align ...'", code: Exit.invalid)
                }
                guard !(drawing.imageSHA256 == sha && drawing.pdf == image.source) else {
                    throw CommandFailure(place: set, message: "the drawing's current sheet is this page already", code: Exit.invalid)
                }
                let outcome = try await store.reviseDrawing(line.name, NewRevision(imagePath: set, imageBytes: bytes, alignment: .identity, pdf: image),
                                                            dryRun: false, author: author)
                line.done = "revision \(outcome.revision.number): \(counted(outcome.carried, "marker")) carried, \(outcome.unplaced.count) need placement"
                await tiles.writePyramid(of: try await store.drawing(named: line.name).drawing, image: bytes, storeFile: store.file, renderer: pages.renderer)
            }
        }
    }
}
