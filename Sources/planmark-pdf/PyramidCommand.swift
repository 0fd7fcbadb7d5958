import ArgumentParser
import PlanMarkGeometry
import PlanMarkPDF
import PlanMarkPDFCore
import PlanMarkRender

/// `planmark-pdf pyramid FILE --page N --dpi D --zoom S --output DIR`: the tile pyramid of a page drawn at D dpi,
/// written as `DIR/{z}/{x}/{y}.png`, exactly the pyramid a PNG of the page at D dpi would have (`TilePyramid`, the same
/// code, fed the page band by band instead of a PNG decoded band by band).
struct PyramidCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pyramid",
        abstract: "Write the tile pyramid of a page drawn at --dpi into the empty folder --output: {z}/{x}/{y}.png.",
        discussion: """
        The page is drawn at --dpi on white paper, --width x --height pixels from its top-left corner (default: the \
        page's own size, ceil(points * dpi / 72) a side), in bands of rows (32 MiB of RGBA, at least 256 rows), each \
        fed to the pyramid as it is drawn and dropped: levels floor(S) down to the first at which the page fits in one \
        256x256 tile, as planmark tiles makes them from a PNG of the page (area averages with premultiplied alpha, \
        transparent beyond the page's pixels, PNG tiles at --compression with no row filter). \
        The whole page's pixels are checked against --max-pixels first. \
        Standard output: "rows R" after each band, then "tiles T B" (T tiles, B bytes) once every tile is written. \
        --output must be an empty folder; on failure what is in it is not a pyramid (the caller removes it).
        """
    )

    @Argument(help: "The PDF file.")
    var file: String

    @Option(help: ArgumentHelp("The page, from 1.", valueName: "number"))
    var page: Int

    @Option(help: ArgumentHelp("The resolution the page's pixels are counted at, in pixels per inch.", valueName: "dpi"))
    var dpi: Double

    @Option(help: ArgumentHelp("The drawing's server zoom S: image pixels are CRS pixels at S.", valueName: "zoom"))
    var zoom: Double

    @Option(help: ArgumentHelp("The image's width in pixels (default: the page's at --dpi).", valueName: "pixels"))
    var width: Int?

    @Option(help: ArgumentHelp("The image's height in pixels (default: the page's at --dpi).", valueName: "pixels"))
    var height: Int?

    @Option(help: ArgumentHelp("zlib level of the tiles, 0 to 9.", valueName: "level"))
    var compression = PNGEncoder.defaultCompressionLevel

    @Option(help: ArgumentHelp("Rows drawn at a time (default: 32 MiB of RGBA, a multiple of 256, at least 256).", valueName: "rows"))
    var bandRows: Int?

    @Option(help: ArgumentHelp("The empty folder the tiles go into.", valueName: "dir"))
    var output: String

    @OptionGroup var options: LimitOptions

    func validate() throws {
        guard (0...9).contains(compression) else { throw ValidationError("--compression takes a level from 0 to 9") }
        if let width, width < 1 { throw ValidationError("--width must be 1 or more") }
        if let height, height < 1 { throw ValidationError("--height must be 1 or more") }
        if let bandRows, bandRows < 1 { throw ValidationError("--band-rows must be 1 or more") }
        guard Zoom(zoom).isSupported else { throw ValidationError("--zoom must be in \(Zoom.supportedDescription)") }
    }

    func run() throws {
        try ChildIO.reporting { () throws(ChildFailure) in
            guard TileFiles.isFolder(output) else { throw ChildFailure(place: output, message: "no such folder", status: .io) }
            let document = try options.open(file)
            let source = document.source
            let scheme: TileScheme
            do throws(PDFError) {
                let size = try document.size(page: page, dpi: dpi, width: width, height: height)
                let (count, overflow) = size.width.multipliedReportingOverflow(by: size.height)
                guard !overflow, count <= options.maxPixels else {
                    throw .tooManyPixels(source: source, page: page, width: size.width, height: size.height, max: options.maxPixels)
                }
                guard let tiled = TileScheme(width: size.width, height: size.height, zoom: Zoom(zoom)) else {
                    throw .invalidArea(source: source, page: page, reason: "a \(size.width)x\(size.height) image at zoom \(zoom) cannot be tiled")
                }
                scheme = tiled
            } catch {
                throw ChildFailure(error)
            }
            try write(document, scheme: scheme)
        }
    }

    /// Draws the page band by band into the pyramid and writes its tiles, then the last line.
    /// - Complexity: O(width × height) pixels, and the page's drawing operations once a band.
    private func write(_ document: PDFDocument, scheme: TileScheme) throws(ChildFailure) {
        let bandRows = self.bandRows ?? PDFPyramidReport.bandRows(width: scheme.width)
        let pyramid = TilePyramid(scheme: scheme, encoder: PNGEncoder(compressionLevel: compression))
        let page = self.page, dpi = self.dpi
        do {
            let bytes = try TileFolder.fill(output) { emit in
                try pyramid.makeTilesConcurrently(feeding: { feed in
                    for top in stride(from: 0, to: scheme.height, by: bandRows) {
                        let rows = min(bandRows, scheme.height - top)
                        let band = try document.render(page: page, dpi: dpi, x: 0, y: top, width: scheme.width, height: rows)
                        try band.pixels.withUnsafeBufferPointer { try feed($0.baseAddress!, rows) }
                        try ChildIO.writeOut(Array(PDFPyramidReport.rows(top + rows).line.utf8))
                    }
                }, emit: emit)
            }
            try ChildIO.writeOut(Array(PDFPyramidReport.done(tiles: scheme.tileCount, bytes: bytes).line.utf8))
        } catch let error as ChildFailure {
            throw error
        } catch let error as PDFError {
            throw ChildFailure(error)
        } catch let error as TileFileError {
            throw ChildFailure(place: output, message: error.description, status: .io)
        } catch {
            throw ChildFailure(place: output, message: "cannot write the tiles: \(error)", status: .io)
        }
    }
}
