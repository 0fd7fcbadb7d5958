import ArgumentParser
import PlanMarkExport
import PlanMarkGeometry
import PlanMarkPDFProcess
import PlanMarkRender
import PlanMarkStore

/// `--tile-cache DIR` and `--no-tiles` of `drawing add` and `drawing revise`: once the drawing is stored, its tile
/// pyramid is written where the servers look for it (`TileFolder`), so a server opens even an A0 sheet at once instead of
/// decoding it when the page first asks.
struct TileCacheOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Write the drawing's tile pyramid to this folder, the servers' --tile-cache (default: STORE.tiles beside an SQLite store, "
            + "where a server on it looks; for a PostgreSQL store, only with this option: its servers make the pyramid themselves).",
        valueName: "dir"))
    var tileCache: String?

    @Flag(name: .long, help: "Do not write the tile pyramid (a server makes it when the drawing is first viewed).")
    var noTiles = false

    func validate() throws {
        if noTiles && tileCache != nil { throw ValidationError("--no-tiles and --tile-cache cannot go together") }
        if let tileCache, tileCache.isEmpty { throw ValidationError("--tile-cache needs a folder") }
    }

    /// The folder the pyramid goes to, or nil when none is written (`--no-tiles`, or a PostgreSQL store without
    /// `--tile-cache`).
    func folder(storeFile: String?) -> TileFolder? {
        if noTiles { return nil }
        if let tileCache { return TileFolder(root: tileCache) }
        return storeFile.map { TileFolder(root: TileFolder.defaultRoot(storeFile: $0)) }
    }

    /// Writes the pyramid of `drawing`'s image (`image`, the bytes stored: a PNG, or the PDF whose page `drawing.pdf`
    /// names) unless it is there already; says what it wrote in one line on stderr (progress before it when stderr is a
    /// terminal). The drawing is stored whatever happens here: a pyramid that cannot be written is a warning (a server
    /// makes it when the drawing is first viewed), and nothing half-written is left (the pyramid is renamed into place
    /// whole).
    ///
    /// A PDF drawing's pyramid goes under its `TileKey` (`<sha>-p<page>-<dpi>`) and is drawn by `renderer` (the child
    /// `planmark-pdf`, band by band, from the PDF's bytes written once to `ROOT/.pdf/<sha>.pdf`, where a server on the
    /// folder finds them for the levels it draws from the page's vectors); a PDF the renderer cannot draw is a warning too.
    /// - Complexity: O(image pixels) time; memory a few bands of 256 rows per level (for a PDF, in the child, plus a band
    ///   of the page).
    func writePyramid(of drawing: Drawing, image: [UInt8], storeFile: String?, renderer: PDFRenderer = PDFRenderer()) async {
        guard let folder = folder(storeFile: storeFile),
              let scheme = TileScheme(width: drawing.width, height: drawing.height, zoom: drawing.zoom) else { return }
        let key = drawing.tileKey
        let top = folder.path(of: TileCoordinate(z: scheme.minZoom, x: 0, y: 0), key: key)
        let progress = TileProgress(total: drawing.pdf == nil ? scheme.tileCount : scheme.height, shown: stderrIsTerminal,
                                    unit: drawing.pdf == nil ? "" : "rows ")
        do {
            if try folder.existing(key: key, check: top) != nil { return }
            if let pdf = drawing.pdf {
                let file = try folder.storePDF(sha256: drawing.imageSHA256, bytes: image)
                do {
                    _ = try await folder.write(key: key, scheme: scheme, pdf: file, page: pdf.page, dpi: pdf.dpi, renderer: renderer,
                                               name: "drawing \"\(drawing.name)\"") { progress.set($0) }
                } catch let error as PDFProcessError {
                    throw CommandFailure(pdf: error)
                }
            } else {
                _ = try folder.write(key: key, scheme: scheme, png: image, wrote: { progress.advance() })
            }
            progress.finish()
            let levels = scheme.levels
            printWrote("tiles", "\(counted(scheme.tileCount, "tile")) (\(counted(levels.count, "level")), zoom \(levels.lowerBound) to \(levels.upperBound)) to \(folder.pyramid(key))")
        } catch {
            progress.finish()
            printWarning("\(error) (the drawing is stored; a server makes its tiles when it is first viewed)")
        }
    }
}
