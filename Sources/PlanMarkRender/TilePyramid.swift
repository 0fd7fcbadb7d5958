import PlanMarkFormats
import PlanMarkGeometry

/// The tile pyramid of a drawing: 256x256 PNG tiles at every level of a `TileScheme`, each tile pixel
/// the area average of the full-resolution pixels it covers, averaged with premultiplied alpha.
/// Tiles that reach past the right or bottom edge are 256x256, transparent outside the image.
///
/// Level `maxZoom` is the full image averaged over `f x f` areas (`f = 2^(S - maxZoom)` in [1, 2), with
/// fractional weights at the area edges; for an integer S it is the image itself); every lower level
/// halves the one above exactly (2x2 average, transparent beyond the edge). Levels are kept as
/// premultiplied 16-bit samples (value x 256), so repeated halving stays within one step per channel.
///
/// The pyramid is made in one pass over the image's rows: each level keeps one band of 256 rows (one
/// row of tiles; rows pair up for the level below inside it), so memory is a band per level, not the image.
/// Bands are handed to the encoders as they fill, and tiles are encoded on every core while the
/// next band is made (and, for PNG input, decoded).
///
/// A pure function of the image's pixels and the scheme.
public struct TilePyramid: Sendable {
    /// Which tiles.
    public let scheme: TileScheme
    /// How tiles are encoded.
    public var encoder: PNGEncoder

    /// Creates a pyramid maker.
    public init(scheme: TileScheme, encoder: PNGEncoder = PNGEncoder()) {
        self.scheme = scheme
        self.encoder = encoder
    }

    /// Calls `emit` on the calling thread with every tile of the pyramid and its PNG bytes, one row of
    /// tiles at a time as the rows complete (a level's rows in order; the levels interleaved); each
    /// row's tiles are encoded on every core first.
    /// - Precondition: `image` is `scheme.width` x `scheme.height`.
    /// - Complexity: O(width × height) time; memory one band of 256 rows per level besides the image.
    public func makeTiles(of image: RGBAImage, emit: (TileCoordinate, [UInt8]) throws -> Void) throws {
        precondition(image.width == scheme.width && image.height == scheme.height, "TilePyramid: image size differs from the scheme")
        let encoder = self.encoder
        try withoutActuallyEscaping(emit) { emit in
            let builder = PyramidBuilder(scheme: scheme, lowest: scheme.minZoom) { batch in
                let tiles = try parallelMap(batch.columns) { column in try encoder.encode(batch.tile(column: column)) }
                for (column, bytes) in tiles.enumerated() {
                    try emit(TileCoordinate(z: batch.z, x: column, y: batch.row), bytes)
                }
            }
            try builder.feed(image)
            try builder.finish()
        }
    }

    /// Calls `emit` with every tile and its PNG bytes from several threads at once (in no set order),
    /// making and encoding tiles on every core. The first error thrown stops the work and is rethrown.
    /// - Precondition: `image` is `scheme.width` x `scheme.height`.
    /// - Complexity: O(width × height) time; memory a few bands of 256 rows per level besides the image.
    public func makeTilesConcurrently(of image: RGBAImage, emit: @escaping @Sendable (TileCoordinate, [UInt8]) throws -> Void) throws {
        precondition(image.width == scheme.width && image.height == scheme.height, "TilePyramid: image size differs from the scheme")
        try concurrently(emit: emit) { builder in
            try builder.feed(image)
            try builder.finish()
        }
    }

    /// Makes the pyramid of an image given band by band: `produce` is called once, on the calling thread, with `feed`,
    /// which it calls with the image's rows in order, top to bottom, `count` rows at a time (8-bit straight RGBA,
    /// `scheme.width` pixels a row, rows one after another), until all `scheme.height` rows are given. Tiles are made as
    /// the rows come and `emit` is called with each and its PNG bytes from several threads at once (in no set order),
    /// as `makeTilesConcurrently(of:emit:)` does: a PNG decoded band by band and a PDF page drawn band by band go
    /// through this one path. The rows may be dropped once `feed` returns.
    /// - Throws: what `produce`, `feed` or `emit` throw (the first error stops the work).
    /// - Precondition: `produce` gives exactly `scheme.height` rows (more is refused by `feed` at once).
    /// - Complexity: O(width × height) time; memory a few bands of 256 rows per level besides the caller's rows.
    public func makeTilesConcurrently(
        feeding produce: (_ feed: (_ rows: UnsafePointer<UInt8>, _ count: Int) throws -> Void) throws -> Void,
        emit: @escaping @Sendable (TileCoordinate, [UInt8]) throws -> Void
    ) throws {
        let height = scheme.height
        try concurrently(emit: emit) { builder in
            var given = 0
            try produce { rows, count in
                precondition(count >= 0 && given + count <= height, "TilePyramid: more than \(height) rows fed")
                try builder.feed(rows: rows, count: count)
                given += count
            }
            try builder.finish()
        }
    }

    /// Runs `body` with a builder of every level whose full bands are encoded on every core while `body` goes on, then
    /// waits for the encoders: the one way tiles are made for a whole pyramid (an image in memory, a PNG, rows fed).
    /// - Complexity: that of `body`, plus the encoding.
    private func concurrently(emit: @escaping @Sendable (TileCoordinate, [UInt8]) throws -> Void, _ body: (PyramidBuilder) throws -> Void) throws {
        let pipeline = EncodePipeline(encoder: encoder, emit: emit)
        defer { pipeline.drain() }
        let builder = PyramidBuilder(scheme: scheme, lowest: scheme.minZoom) { try pipeline.submit($0) }
        try body(builder)
        try pipeline.finish()
    }

    /// Decodes the PNG file at `path` band by band and calls `emit` with every tile from several
    /// threads at once (see `makeTilesConcurrently(of:emit:)`). The image is never held whole (except an
    /// interlaced PNG, which is decoded whole first).
    /// - Throws: `RenderError` for the input (its size must be the scheme's), what `emit` throws, or `CancellationError`
    ///   when the calling task is cancelled (checked between bands of 256 rows).
    /// - Complexity: O(width × height) time; memory a few bands of 256 rows per level.
    public func makeTilesConcurrently(ofPNGFile path: String, decoder: PNGDecoder = PNGDecoder(), emit: @escaping @Sendable (TileCoordinate, [UInt8]) throws -> Void) throws {
        let session = try PNGReadSession(path: path, decoder: decoder)
        try makeTiles(session: session, decoder: decoder, emit: emit)
    }

    /// `makeTilesConcurrently(ofPNGFile:...)` for PNG bytes in memory (a stored drawing); `source` names them in errors.
    /// - Complexity: O(width × height) time; memory the bytes plus a few bands of 256 rows per level.
    /// `progress` is told how many of the image's rows have been read, after each band of them.
    public func makeTilesConcurrently(ofPNG data: [UInt8], source: String, decoder: PNGDecoder = PNGDecoder(),
                                      progress: ((Int) -> Void)? = nil,
                                      emit: @escaping @Sendable (TileCoordinate, [UInt8]) throws -> Void) throws {
        try data.withUnsafeBufferPointer { bytes in
            let session = try PNGReadSession(bytes: bytes, source: source, decoder: decoder)
            try makeTiles(session: session, decoder: decoder, progress: progress, emit: emit)
        }
    }

    private func makeTiles(session: PNGReadSession, decoder: PNGDecoder, progress: ((Int) -> Void)? = nil,
                           emit: @escaping @Sendable (TileCoordinate, [UInt8]) throws -> Void) throws {
        try concurrently(emit: emit) { builder in try feed(session: session, decoder: decoder, into: builder, progress: progress) }
    }

    /// Reads the PNG of `session` (its size must be the scheme's) band by band into `builder` and finishes it;
    /// `progress` is told the rows read so far after each band.
    /// - Throws: `RenderError`, what `builder` throws, or `CancellationError` (checked between bands).
    /// - Complexity: O(width × height).
    func feed(session: PNGReadSession, decoder: PNGDecoder, into builder: PyramidBuilder, progress: ((Int) -> Void)? = nil) throws {
        let header = try session.readHeader()
        try decoder.checkLimits(header, source: session.source)
        guard header.width == scheme.width, header.height == scheme.height else {
            throw RenderError.corruptPNG(
                source: session.source,
                reason: "the image is \(header.width)x\(header.height), the drawing \(scheme.width)x\(scheme.height)")
        }
        if try session.beginRows(header) {
            var done = 0
            try BandReader(session: session, width: header.width, height: header.height).read { rows, count in
                // Run in a task (the service's tile requests), a cancelled one stops between bands.
                try Task.checkCancellation()
                try builder.feed(rows: rows, count: count)
                done += count
                progress?(done)
            }
        } else {
            let pixels = try session.readPixels(header)
            try pixels.withUnsafeBufferPointer { try builder.feed(rows: $0.baseAddress!, count: header.height) }
            progress?(header.height)
        }
        if let handler = decoder.warningHandler {
            for warning in session.warnings { handler(warning) }
        }
        try builder.finish()
    }

    /// The pixels of one tile, or nil when `coordinate` is not in the pyramid.
    /// - Complexity: O(width × height) time (the levels above it are made down to its row of tiles);
    ///   memory one band of 256 rows per level.
    public func tile(_ coordinate: TileCoordinate, of image: RGBAImage) -> RGBAImage? {
        guard scheme.contains(coordinate) else { return nil }
        precondition(image.width == scheme.width && image.height == scheme.height, "TilePyramid: image size differs from the scheme")
        struct Found: Error { let tile: RGBAImage }
        let builder = PyramidBuilder(scheme: scheme, lowest: coordinate.z) { batch in
            if batch.z == coordinate.z && batch.row == coordinate.y { throw Found(tile: batch.tile(column: coordinate.x)) }
        }
        do {
            try builder.feed(image)
            try builder.finish()
        } catch let found as Found {
            return found.tile
        } catch {
            preconditionFailure("TilePyramid: \(error)")
        }
        preconditionFailure("TilePyramid: tile \(coordinate) was not made")
    }
}
