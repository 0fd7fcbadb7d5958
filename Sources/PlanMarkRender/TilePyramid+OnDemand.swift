import PlanMarkFormats
import PlanMarkGeometry

/// Tiles before their pyramid is made: the low levels in one pass, or one tile alone. Both run the pyramid's own
/// builder over the image's rows, so their bytes are exactly those the whole pyramid will have (same cache keys,
/// same `ETag`s); they save encoding every other tile and, for one tile, reading the rows below its row of tiles.
extension TilePyramid {
    /// The longest side, in pixels, of the levels `overviewZoom` gives: a screen's worth (a phone to a desktop)
    /// at the zoom a page opens the sheet at.
    public static let overviewSide = 2048

    /// The highest level whose image is at most `side` pixels on its longer side (at least `minZoom`): the levels
    /// up to it are the sheet as a page first shows it, 85 tiles or fewer for the default side.
    /// - Complexity: O(levels).
    public func overviewZoom(side: Int = TilePyramid.overviewSide) -> Int {
        var z = scheme.minZoom
        while z < scheme.maxZoom {
            let next = scheme.levelSize(at: z + 1)
            guard max(next.width, next.height) <= side else { break }
            z += 1
        }
        return z
    }

    /// Every tile of levels `minZoom...z` and its PNG bytes, from the PNG `data` (`source` names it in errors): one
    /// pass over the rows, the levels above `z` made (each level comes from the one above) but not encoded.
    /// - Throws: `RenderError` for the input (its size must be the scheme's), or `CancellationError` (checked
    ///   between bands).
    /// - Complexity: O(width × height) time; memory a band of 256 rows per level plus the tiles returned.
    public func tiles(ofPNG data: [UInt8], source: String, through z: Int, decoder: PNGDecoder = PNGDecoder(),
                      progress: ((Int) -> Void)? = nil) throws -> [TileCoordinate: [UInt8]] {
        let encoder = self.encoder
        var tiles: [TileCoordinate: [UInt8]] = [:]
        let builder = PyramidBuilder(scheme: scheme, lowest: scheme.minZoom) { batch in
            guard batch.z <= z else { return }
            let encoded = try parallelMap(batch.columns) { column in try encoder.encode(batch.tile(column: column)) }
            for (column, bytes) in encoded.enumerated() { tiles[TileCoordinate(z: batch.z, x: column, y: batch.row)] = bytes }
        }
        try data.withUnsafeBufferPointer { bytes in
            let session = try PNGReadSession(bytes: bytes, source: source, decoder: decoder)
            try feed(session: session, decoder: decoder, into: builder, progress: progress)
        }
        return tiles
    }

    /// The PNG bytes of tile `coordinate` alone, from the PNG `data`; nil when the pyramid has no such tile. The
    /// rows are read until the tile's row of tiles is complete at its level, and no further.
    /// - Throws: `RenderError` for the input, or `CancellationError` (checked between bands).
    /// - Complexity: O(width × (the tile's last source row)) time; memory a band of 256 rows per level from the
    ///   tile's level up.
    public func tile(_ coordinate: TileCoordinate, ofPNG data: [UInt8], source: String, decoder: PNGDecoder = PNGDecoder()) throws -> [UInt8]? {
        guard scheme.contains(coordinate) else { return nil }
        struct Found: Error { let tile: RGBAImage }
        let builder = PyramidBuilder(scheme: scheme, lowest: coordinate.z) { batch in
            if batch.z == coordinate.z && batch.row == coordinate.y { throw Found(tile: batch.tile(column: coordinate.x)) }
        }
        do {
            try data.withUnsafeBufferPointer { bytes in
                let session = try PNGReadSession(bytes: bytes, source: source, decoder: decoder)
                try feed(session: session, decoder: decoder, into: builder)
            }
        } catch let found as Found {
            return try encoder.encode(found.tile)
        }
        return nil
    }
}
