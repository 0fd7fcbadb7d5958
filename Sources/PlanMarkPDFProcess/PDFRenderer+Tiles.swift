import PlanMarkGeometry
import PlanMarkPDFCore
import PlanMarkRender

/// Tiles of a page of a PDF: its pyramid drawn by the child in one run (`pyramid`), and any one tile drawn from the
/// page's vectors at the tile's own resolution (`tile`), for the levels above the pyramid's.
extension PDFRenderer {
    /// What `pyramid` wrote.
    public struct PyramidWritten: Hashable, Sendable {
        /// The tiles written (every tile of the scheme's levels).
        public var tiles: Int
        /// Their bytes.
        public var bytes: Int
    }

    /// Writes the tile pyramid of page `page` drawn at `dpi` into `folder`, an existing empty folder, as
    /// `folder/{z}/{x}/{y}.png`: the levels of `scheme` (`scheme.width` x `scheme.height` pixels of the page from its
    /// top-left corner, the drawing's size), exactly as `TilePyramid` makes them from a PNG of the page drawn at `dpi`.
    /// The child draws the page in bands of rows (`PDFPyramidReport.bandRows`) and holds one at a time, encoding tiles on
    /// every core (`bandRows` rows at a time when given). `progress` is told the rows drawn so far after each band (on a
    /// queue of the child's).
    ///
    /// On an error `folder` holds part of a pyramid: the caller removes it (`TileFolder.write(key:scheme:pdf:...)` does).
    /// - Throws: `refused` (as `render`; `too_many_pixels` for a page over `limits.maxPixels`), `timedOut`, `crashed`,
    ///   `fileMissing`, `programMissing`, `io` (also: a tile that cannot be written), `childFailed`, `cancelled`.
    /// - Complexity: O(width × height) in the child, plus the page's drawing operations once a band; the child's memory
    ///   is a band of the page (`PDFPyramidReport.defaultBandBytes`, 32 MiB, or 256 rows of a wider page) plus a few bands
    ///   of 256 rows per level (8 bytes a pixel: about 4 KiB per pixel of width), whatever the page's height.
    public func pyramid(
        file: String, page: Int, dpi: Double, scheme: TileScheme, into folder: String, compression: Int = PNGEncoder.defaultCompressionLevel,
        bandRows: Int? = nil, name: String? = nil, progress: (@Sendable (Int) -> Void)? = nil
    ) async throws(PDFProcessError) -> PyramidWritten {
        let source = name ?? file
        let arguments = [
            "pyramid", "--page", String(page), "--dpi", String(dpi), "--zoom", String(scheme.zoom.value),
            "--width", String(scheme.width), "--height", String(scheme.height), "--compression", String(compression), "--output", folder,
        ] + (bandRows.map { ["--band-rows", String($0)] } ?? []) + common(name: name) + ["--", file]
        let maxBytes = PDFPyramidReport.maxBytes(height: scheme.height, minimumBandRows: min(256, max(1, bandRows ?? 256)))
        let output = try await run(arguments, shape: .lines(maxBytes: maxBytes) { line in
            if case .rows(let rows)? = PDFPyramidReport(line: line) { progress?(rows) }
        }, source: source, file: file)
        guard case .text(let bytes) = output else { throw .childFailed(source: source, reason: "an image instead of the pyramid's report") }
        let last = String(decoding: bytes, as: UTF8.self).split(separator: "\n").last
        guard let last, case .done(let tiles, let written)? = PDFPyramidReport(line: last) else {
            throw .childFailed(source: source, reason: "the pyramid's report has no last line")
        }
        guard tiles == scheme.tileCount else {
            throw .childFailed(source: source, reason: "\(tiles) tiles written, \(scheme.tileCount) in the pyramid")
        }
        return PyramidWritten(tiles: tiles, bytes: written)
    }

    /// One 256x256 tile of `scheme` (the drawing of page `page` counted at `dpi`), drawn from the page's vectors at the
    /// tile's own resolution: level z at `dpi / f` with `f = 2^(S - z)` (`dpi x 2^(z - S)`), so tile pixel (i, j) is
    /// page pixel (i, j) at that resolution. Any level may be drawn: the levels above the pyramid's (`scheme.vectorLevels`)
    /// are drawn only so; a level of the pyramid drawn so is close to the pyramid's tile, not the same bytes. Pixels
    /// beyond the drawing's `scheme.width` x `scheme.height` pixels (`scheme.extent(at:)`) are transparent, and the
    /// pixels the edge crosses as transparent as they are uncovered, like the pyramid's edge tiles.
    /// - Throws: as `render(file:page:dpi:x:y:width:height:name:)`.
    /// - Complexity: O(256 × 256) and the page's drawing operations, in the child.
    public func tile(_ tile: TileCoordinate, of scheme: TileScheme, file: String, page: Int, dpi: Double,
                     name: String? = nil) async throws(PDFProcessError) -> RGBAImage {
        let side = TileScheme.tileSize
        let resolution = dpi / scheme.factor(at: tile.z)
        var image = try await render(file: file, page: page, dpi: resolution, x: tile.x * side, y: tile.y * side, width: side, height: side, name: name)
        let extent = scheme.extent(at: tile.z)
        Self.fade(&image, left: tile.x * side, top: tile.y * side, extent: extent)
        return image
    }

    /// Makes the pixels of `image` (whose top-left is pixel (`left`, `top`) of its level) beyond `extent` transparent,
    /// and those the edge crosses as transparent as they are uncovered (alpha times the covered share), in place.
    /// - Complexity: O(pixels of `image`).
    static func fade(_ image: inout RGBAImage, left: Int, top: Int, extent: (width: Double, height: Double)) {
        let width = image.width, height = image.height
        func cover(_ index: Int, _ limit: Double) -> Double { min(1, max(0, limit - Double(index))) }
        let columns = (0..<width).map { cover(left + $0, extent.width) }
        let rows = (0..<height).map { cover(top + $0, extent.height) }
        guard columns.last! < 1 || rows.last! < 1 else { return }
        image.pixels.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<height {
                for x in 0..<width {
                    let covered = columns[x] * rows[y]
                    guard covered < 1 else { continue }
                    let p = (y * width + x) * 4
                    let alpha = (Double(pixels[p + 3]) * covered).rounded()
                    if alpha == 0 {
                        pixels[p] = 0; pixels[p + 1] = 0; pixels[p + 2] = 0; pixels[p + 3] = 0
                    } else {
                        pixels[p + 3] = UInt8(alpha)
                    }
                }
            }
        }
    }
}

extension TileFolder {
    /// Writes the pyramid of page `page` of the PDF at `pdf` drawn at `dpi` (the child `planmark-pdf` draws and writes it,
    /// `PDFRenderer.pyramid`) to `temporary` (default: a new `temporaryFolder`), then renames it to `ROOT/<key>`, as
    /// `write(key:scheme:png:...)` does for a PNG: a reader sees the whole pyramid or none of it. Returns the bytes of
    /// tiles written, or of the pyramid found in place when another process renamed its copy first (`made` false).
    /// On any error the temporary folder is removed and the error rethrown: `PDFProcessError` (the PDF cannot be drawn:
    /// refused, crashed, timed out ...; `cancelled` when the task is), `TileFileError` (the folder cannot be written).
    /// `progress` is told how many of the page's rows have been drawn.
    /// - Complexity: O(page pixels) in the child; memory a band of the page and a few bands of 256 rows per level there.
    package func write(key: TileKey, scheme: TileScheme, pdf: String, page: Int, dpi: Int, renderer: PDFRenderer,
                       compression: Int = PNGEncoder.defaultCompressionLevel, temporary: String? = nil, name: String? = nil,
                       progress: (@Sendable (Int) -> Void)? = nil) async throws -> (bytes: Int, made: Bool) {
        let temporary = temporary ?? temporaryFolder(key: key)
        try TileFiles.makeFolders(root)
        try TileFiles.makeFolder(temporary)
        do {
            let written = try await renderer.pyramid(file: pdf, page: page, dpi: Double(dpi), scheme: scheme, into: temporary, compression: compression,
                                                     name: name, progress: progress)
            return try install(temporary, key: key, bytes: written.bytes)
        } catch {
            TileFiles.removeTree(temporary)
            throw error
        }
    }
}
