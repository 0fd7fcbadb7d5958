import ArgumentParser
import PlanMarkGeometry
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

    /// Writes the pyramid of `drawing`'s image (`image`, the bytes stored) unless it is there already; says what it wrote
    /// in one line on stderr (progress before it when stderr is a terminal). The drawing is stored whatever happens here:
    /// a pyramid that cannot be written is a warning (a server makes it when the drawing is first viewed), and nothing
    /// half-written is left (the pyramid is renamed into place whole).
    /// - Complexity: O(image pixels) time; memory a few bands of 256 rows per level.
    func writePyramid(of drawing: Drawing, image: [UInt8], storeFile: String?) async {
        guard let folder = folder(storeFile: storeFile),
              let scheme = TileScheme(width: drawing.width, height: drawing.height, zoom: drawing.zoom) else { return }
        let sha = drawing.imageSHA256
        let top = folder.path(of: TileCoordinate(z: scheme.minZoom, x: 0, y: 0), sha: sha)
        let progress = TileProgress(total: scheme.tileCount, shown: stderrIsTerminal)
        do {
            if try folder.existing(sha: sha, check: top) != nil { return }
            _ = try folder.write(sha: sha, scheme: scheme, png: image, wrote: { progress.advance() })
            progress.finish()
            let levels = scheme.levels
            printWrote("tiles", "\(counted(scheme.tileCount, "tile")) (\(counted(levels.count, "level")), zoom \(levels.lowerBound) to \(levels.upperBound)) to \(folder.pyramid(sha))")
        } catch {
            progress.finish()
            printWarning("\(error) (the drawing is stored; a server makes its tiles when it is first viewed)")
        }
    }
}
