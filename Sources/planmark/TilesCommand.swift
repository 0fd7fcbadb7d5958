import ArgumentParser
import PlanMarkExport
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkPDFCore
import PlanMarkPDFProcess
import PlanMarkRender
import PlanMarkStore

#if canImport(Glibc)
import Glibc
#endif

/// `planmark tiles`: the drawing's tile pyramid as a folder of PNGs a map client's `TileLayer` reads.
struct TilesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiles",
        abstract: "Write a drawing's tile pyramid: DIR/{z}/{x}/{y}.png and DIR/tiles.json, for a TileLayer on CRS.Simple.",
        discussion: """
        From the store:  planmark tiles NAME -o DIR
        From a file:     planmark tiles --image PLAN.png --zoom S [--crs leaflet|flutter] -o DIR

        Tiles are 256x256 PNGs addressed as Leaflet's TileLayer on CRS.Simple and flutter_map's TileLayer on \
        CrsSimple ask for them: z is a zoom in the drawing's CRS flavour (image pixels are CRS pixels at its zoom \
        S), x counts columns from the left, y rows from the top. Levels run from floor(S) (full resolution, no \
        upsampling: let the client over-zoom with maxNativeZoom) down to the first zoom at which the whole \
        drawing fits in one tile. Each tile pixel is the area average of the pixels it covers, transparent \
        beyond the right and bottom edges. tiles.json gives tileSize, minZoom, maxZoom, width, height, zoom, \
        crs, bounds (latLng) and the URL template.

        A stored drawing that is a page of a PDF is drawn from the PDF at its dpi by planmark-pdf (a child process \
        with a time limit), band by band, into the same pyramid a PNG of the page at that dpi would give. (A server \
        also draws its two levels above floor(S) from the page's vectors; this folder has the pyramid's levels.)

        DIR must not exist or be an empty folder: the pyramid is written to a temporary folder beside it and \
        renamed into place, so it appears whole or not at all. Progress is shown on stderr when stderr is a \
        terminal; at the end one line on stderr says what was written: planmark: tiles: wrote N tiles (L levels, \
        zoom A to B) to DIR.

        Exit status: 0 written, 64 bad usage, 65 corrupt or refused image (a PDF that cannot be drawn, or takes \
        too long), 66 missing image or drawing, 69 planmark-pdf missing, 73 cannot create DIR (it exists and is not \
        empty, or its folder cannot be written), 74 I/O error.
        """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "A stored drawing's name (leave out with --image).")
    var name: String?

    @Option(name: .long, help: ArgumentHelp("The drawing's PNG (tiles a file instead of a stored drawing).", valueName: "png"))
    var image: String?

    @Option(name: .long, parsing: .unconditional, help: "With --image: the server zoom S at which image pixels are CRS pixels (\(Zoom.supportedDescription)).")
    var zoom: Zoom?

    @Option(name: .long, help: "With --image: the CRS flavour, leaflet or flutter (written to tiles.json).")
    var crs: CRSFlavour?

    @Option(name: .long, help: "Refuse images with more pixels than this (checked before decoding).")
    var maxPixels: Int = PNGDecoder.defaultMaxPixels

    @Option(name: .long, help: ArgumentHelp("zlib level of the tiles, 0 (fastest) to 9 (smallest).", valueName: "level"))
    var compression: Int = PNGEncoder.defaultCompressionLevel

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The folder to create.", valueName: "dir"))
    var output: String

    func validate() throws {
        if (name == nil) == (image == nil) {
            throw ValidationError("give a stored drawing's NAME or --image PLAN.png (one of them)")
        }
        if name != nil && (zoom != nil || crs != nil) {
            throw ValidationError("--zoom and --crs go with --image; a stored drawing has its own")
        }
        if image != nil && zoom == nil {
            throw ValidationError("--image needs --zoom S, the zoom at which image pixels are CRS pixels")
        }
        guard maxPixels > 0 else { throw ValidationError("--max-pixels must be positive") }
        guard (0...9).contains(compression) else { throw ValidationError("--compression takes a level from 0 to 9") }
        guard !output.isEmpty, output != "-" else { throw ValidationError("-o needs a folder name") }
    }

    func run() async throws {
        let decoder = PNGDecoder(maxPixels: maxPixels)
        do {
            let scheme: TileScheme
            let flavour: CRSFlavour
            let make: (TilePyramid, @escaping @Sendable (TileCoordinate, [UInt8]) throws -> Void) throws -> Void
            var pdf: (bytes: [UInt8], page: Int, dpi: Int, source: String)?
            if let image {
                let header = try decoder.readHeader(path: image)
                try decoder.checkLimits(header, source: image)
                scheme = TileScheme(width: header.width, height: header.height, zoom: zoom!)!
                flavour = crs ?? .leaflet
                make = { pyramid, emit in try pyramid.makeTilesConcurrently(ofPNGFile: image, decoder: decoder, emit: emit) }
            } else {
                let store = try await storeOptions.open()
                let drawing = try await store.drawing(named: name!).drawing
                let bytes = try await store.image(of: drawing.name).bytes
                guard let stored = TileScheme(width: drawing.width, height: drawing.height, zoom: drawing.zoom) else {
                    throw CommandFailure(place: "drawing \"\(drawing.name)\"", message: "zoom \(drawing.zoom) cannot be tiled", code: Exit.dataError)
                }
                scheme = stored
                flavour = drawing.crs
                let source = "drawing \"\(drawing.name)\""
                make = { pyramid, emit in try pyramid.makeTilesConcurrently(ofPNG: bytes, source: source, decoder: decoder, emit: emit) }
                if let page = drawing.pdf { pdf = (bytes, page.page, page.dpi, source) }
            }
            let folder = try OutputFolder(path: output, what: "tiles go", folders: scheme.levels.flatMap { z in ["\(z)"] + (0..<scheme.columns(at: z)).map { "\(z)/\($0)" } })
            let progress = TileProgress(total: pdf == nil ? scheme.tileCount : scheme.height, shown: stderrIsTerminal, unit: pdf == nil ? "" : "rows ")
            do {
                if let pdf {
                    try await drawPyramid(pdf, scheme: scheme, into: folder, progress: progress)
                } else {
                    try make(TilePyramid(scheme: scheme, encoder: PNGEncoder(compressionLevel: compression))) { tile, bytes in
                        try folder.writeFile("\(tile.z)/\(tile.x)/\(tile.y).png", bytes)
                        progress.advance()
                    }
                }
                progress.finish()
                try folder.writeFile("tiles.json", Array(JSONDocument.line(TilesJSON(scheme, crs: flavour)).utf8))
                try folder.commit()
                let levels = scheme.levels
                printWrote("tiles", "\(counted(scheme.tileCount, "tile")) (\(counted(levels.count, "level")), zoom \(levels.lowerBound) to \(levels.upperBound)) to \(output)")
            } catch {
                // Every tile writer has returned by now (the pyramid waits for its encoders); the encoders'
                // threads may still hold the folder a moment, so it is removed here, not left to deinit.
                progress.finish()
                folder.discard()
                throw error
            }
        } catch let error as ExitCode {
            throw error
        } catch {
            throw fail(error)
        }
    }
}

extension TilesCommand {
    /// Writes the pyramid of a stored PDF drawing's page into `folder`: the PDF's bytes to a file in the folder (removed
    /// again), then `planmark-pdf pyramid` draws the page band by band and writes the tiles there (`PDFRenderer.pyramid`).
    /// - Throws: `CommandFailure` (65 a PDF that cannot be drawn or runs out of time, 69 no `planmark-pdf`, 74 I/O),
    ///   `OutputError`.
    /// - Complexity: O(page pixels) in the child; its memory a band of the page and a few bands of 256 rows per level.
    func drawPyramid(_ pdf: (bytes: [UInt8], page: Int, dpi: Int, source: String), scheme: TileScheme, into folder: OutputFolder,
                     progress: TileProgress) async throws {
        let file = ".drawing.pdf"
        try folder.writeFile(file, pdf.bytes)
        defer { folder.removeFile(file) }
        var limits = PDFLimits()
        limits.maxPixels = maxPixels
        do throws(PDFProcessError) {
            _ = try await PDFRenderer(limits: limits).pyramid(
                file: folder.path(of: file), page: pdf.page, dpi: Double(pdf.dpi), scheme: scheme, into: folder.path(of: ""),
                compression: compression, name: pdf.source) { progress.set($0) }
        } catch {
            throw CommandFailure(pdf: error)
        }
    }
}

/// `N of M tiles` (or `rows N of M`) on stderr (when shown), at most every 1% of the total.
final class TileProgress: @unchecked Sendable {
    private let total: Int
    private let shown: Bool
    private let unit: String
    private var done = 0
    private var lastShown = -1
    private var lock = pthread_mutex_t()

    /// `unit` goes before the numbers: "" for tiles, "rows " for the rows of a PDF page drawn.
    init(total: Int, shown: Bool, unit: String = "") {
        self.total = max(1, total)
        self.shown = shown
        self.unit = unit
        pthread_mutex_init(&lock, nil)
    }

    deinit { pthread_mutex_destroy(&lock) }

    func advance() {
        guard shown else { return }
        pthread_mutex_lock(&lock)
        done += 1
        show()
        pthread_mutex_unlock(&lock)
    }

    /// `count` of the total are done.
    func set(_ count: Int) {
        guard shown else { return }
        pthread_mutex_lock(&lock)
        done = count
        show()
        pthread_mutex_unlock(&lock)
    }

    /// Under the lock.
    private func show() {
        let percent = done * 100 / total
        if percent != lastShown {
            lastShown = percent
            printProgress("tiles: \(unit)\(done) of \(total) (\(percent)%)")
        }
    }

    func finish() {
        if shown { printProgress(nil) }
    }
}
