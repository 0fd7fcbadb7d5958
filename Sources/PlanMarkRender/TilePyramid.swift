import Dispatch
import Foundation
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
        let pipeline = EncodePipeline(encoder: encoder, emit: emit)
        defer { pipeline.drain() }
        let builder = PyramidBuilder(scheme: scheme, lowest: scheme.minZoom) { try pipeline.submit($0) }
        try builder.feed(image)
        try builder.finish()
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
    public func makeTilesConcurrently(ofPNG data: [UInt8], source: String, decoder: PNGDecoder = PNGDecoder(), emit: @escaping @Sendable (TileCoordinate, [UInt8]) throws -> Void) throws {
        try data.withUnsafeBufferPointer { bytes in
            let session = try PNGReadSession(bytes: bytes, source: source, decoder: decoder)
            try makeTiles(session: session, decoder: decoder, emit: emit)
        }
    }

    private func makeTiles(session: PNGReadSession, decoder: PNGDecoder, emit: @escaping @Sendable (TileCoordinate, [UInt8]) throws -> Void) throws {
        let header = try session.readHeader()
        try decoder.checkLimits(header, source: session.source)
        guard header.width == scheme.width, header.height == scheme.height else {
            throw RenderError.corruptPNG(
                source: session.source,
                reason: "the image is \(header.width)x\(header.height), the drawing \(scheme.width)x\(scheme.height)")
        }
        let pipeline = EncodePipeline(encoder: encoder, emit: emit)
        defer { pipeline.drain() }
        let builder = PyramidBuilder(scheme: scheme, lowest: scheme.minZoom) { try pipeline.submit($0) }
        if try session.beginRows(header) {
            try BandReader(session: session, width: header.width, height: header.height).read { rows, count in
                // Run in a task (the service's tile requests), a cancelled one stops between bands.
                try Task.checkCancellation()
                try builder.feed(rows: rows, count: count)
            }
        } else {
            let pixels = try session.readPixels(header)
            try pixels.withUnsafeBufferPointer { try builder.feed(rows: $0.baseAddress!, count: header.height) }
        }
        if let handler = decoder.warningHandler {
            for warning in session.warnings { handler(warning) }
        }
        try builder.finish()
        try pipeline.finish()
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

// MARK: - Bands

/// 256 rows of one level's premultiplied samples, owned by whoever holds the last reference (the level
/// while it fills them, then the encoders).
final class BandStorage: @unchecked Sendable {
    let samples: UnsafeMutablePointer<UInt16>
    let count: Int

    init(width: Int) {
        count = TileScheme.tileSize * width * 4
        // Rows are written before they are read; the unfilled rest is zeroed when a short band is handed on.
        samples = .allocate(capacity: count)
    }

    deinit { samples.deallocate() }
}

/// One row of tiles of one level, ready to encode: `width` premultiplied pixels a row (16-bit, value x
/// 256), rows past the image zero (transparent).
struct TileBatch: Sendable {
    let z: Int
    let row: Int
    let width: Int
    let columns: Int
    let band: BandStorage

    /// The 256x256 tile at `column`, un-premultiplied to 8-bit straight alpha, transparent beyond the image.
    /// - Complexity: O(256 × 256).
    func tile(column: Int) -> RGBAImage {
        let side = TileScheme.tileSize
        let x0 = column * side
        let span = max(0, min(side, width - x0))
        var pixels = [UInt8](repeating: 0, count: side * side * 4)
        let band = UnsafePointer(self.band.samples)
        pixels.withUnsafeMutableBufferPointer { buffer in
            let out = buffer.baseAddress!
            for ty in 0..<side {
                let source = band + (ty * width + x0) * 4
                let target = out + ty * side * 4
                // Opaque pixels (alpha 255 x 256) only need rounding: (s + 128) >> 8 <= 255 for s <= 65280,
                // which turns alpha into 255 too. One loop the compiler vectorises; the rest fixed below.
                for i in 0..<span * 4 {
                    target[i] = UInt8(truncatingIfNeeded: (UInt32(source[i]) &+ 128) >> 8)
                }
                for x in 0..<span {
                    let s = source + x * 4
                    let a = Int(s[3])
                    guard a < 65280 else { continue }
                    let d = target + x * 4
                    let a8 = (a + 128) >> 8
                    if a8 == 0 {
                        d[0] = 0; d[1] = 0; d[2] = 0; d[3] = 0
                        continue
                    }
                    // straight = premultiplied / alpha, both in the same x256 units.
                    let half = a >> 1
                    d[0] = UInt8(truncatingIfNeeded: min(255, (Int(s[0]) * 255 + half) / a))
                    d[1] = UInt8(truncatingIfNeeded: min(255, (Int(s[1]) * 255 + half) / a))
                    d[2] = UInt8(truncatingIfNeeded: min(255, (Int(s[2]) * 255 + half) / a))
                    d[3] = UInt8(truncatingIfNeeded: a8)
                }
            }
        }
        return RGBAImage(width: side, height: side, pixels: pixels)
    }
}

/// One level being made: the band of rows not yet handed on. Rows pair up for the level below inside a
/// band (bands start at multiples of 256 rows, an even number).
final class LevelBand {
    let z: Int
    let width: Int
    let columns: Int
    let below: LevelBand?
    private let deliver: (TileBatch) throws -> Void
    private var band: BandStorage
    private var filled = 0
    private var tileRow = 0

    init(z: Int, width: Int, columns: Int, below: LevelBand?, deliver: @escaping (TileBatch) throws -> Void) {
        self.z = z
        self.width = width
        self.columns = columns
        self.below = below
        self.deliver = deliver
        band = BandStorage(width: width)
    }

    /// Takes the next row of this level, written in place by `fill` (`width * 4` samples).
    /// - Complexity: O(width), plus the rows this makes below.
    func add(_ fill: (UnsafeMutablePointer<UInt16>) throws -> Void) throws {
        let n = width * 4
        try fill(band.samples + filled * n)
        filled += 1
        if let below, filled % 2 == 0 {
            let a = UnsafePointer(band.samples + (filled - 2) * n), b = UnsafePointer(band.samples + (filled - 1) * n)
            let width = self.width
            try below.add { Self.halve(a, b, width, $0) }
        }
        if filled == TileScheme.tileSize { try flush() }
    }

    /// Hands on what is left (an odd last row paired with transparency, a short band) at this level and below.
    func finish() throws {
        if let below, filled % 2 == 1 {
            let n = width * 4
            let zeros = [UInt16](repeating: 0, count: n)
            let a = UnsafePointer(band.samples + (filled - 1) * n), width = self.width
            try zeros.withUnsafeBufferPointer { b in try below.add { Self.halve(a, b.baseAddress!, width, $0) } }
        }
        if filled > 0 { try flush() }
        try below?.finish()
    }

    private func flush() throws {
        let n = width * 4
        if filled < TileScheme.tileSize {
            (band.samples + filled * n).update(repeating: 0, count: (TileScheme.tileSize - filled) * n)
        }
        let batch = TileBatch(z: z, row: tileRow, width: width, columns: columns, band: band)
        band = BandStorage(width: width)
        filled = 0
        tileRow += 1
        try deliver(batch)
    }

    /// Averages two rows of `width` pixels in 2x2 blocks into `(width + 1) / 2` pixels; an odd last
    /// column is averaged with transparency.
    /// - Complexity: O(width).
    static func halve(_ a: UnsafePointer<UInt16>, _ b: UnsafePointer<UInt16>, _ width: Int, _ out: UnsafeMutablePointer<UInt16>) {
        let pairs = width / 2
        for ox in 0..<pairs {
            let i = ox * 8, o = ox * 4
            for c in 0..<4 {
                let sum = UInt32(a[i + c]) &+ UInt32(a[i + 4 + c]) &+ UInt32(b[i + c]) &+ UInt32(b[i + 4 + c])
                out[o + c] = UInt16(truncatingIfNeeded: (sum &+ 2) >> 2)
            }
        }
        if width % 2 == 1 {
            let i = (width - 1) * 4, o = pairs * 4
            for c in 0..<4 {
                out[o + c] = UInt16(truncatingIfNeeded: (UInt32(a[i + c]) &+ UInt32(b[i + c]) &+ 2) >> 2)
            }
        }
    }
}

/// Turns full-resolution rows into the top level's rows and pushes them down the levels.
final class PyramidBuilder {
    let scheme: TileScheme
    private let top: LevelBand
    private let factor: Double
    private let topWidth: Int
    private let topHeight: Int
    private var sourceRow = 0
    // Fractional factor only: each source column's first target column and its share there.
    private var columnTarget: [Int] = []
    private var columnShare: [Double] = []
    private var horizontal: [Double] = []
    private var accumulated: [Double] = []
    private var next: [Double] = []
    private var accumulatedRow = 0

    /// Builds levels `scheme.maxZoom` down to `lowest`, handing each full (or last) band to `deliver`.
    init(scheme: TileScheme, lowest: Int, deliver: @escaping (TileBatch) throws -> Void) {
        self.scheme = scheme
        var level: LevelBand?
        for z in lowest...scheme.maxZoom {
            level = LevelBand(z: z, width: scheme.levelSize(at: z).width, columns: scheme.columns(at: z), below: level, deliver: deliver)
        }
        top = level!
        factor = scheme.factor(at: scheme.maxZoom)
        (topWidth, topHeight) = scheme.levelSize(at: scheme.maxZoom)
        if factor != 1 {
            columnTarget = [Int](repeating: 0, count: scheme.width)
            columnShare = [Double](repeating: 1, count: scheme.width)
            for i in 0..<scheme.width {
                let (j, w) = Self.share(i, factor, topWidth)
                columnTarget[i] = j
                columnShare[i] = w
            }
            horizontal = [Double](repeating: 0, count: topWidth * 4)
            accumulated = [Double](repeating: 0, count: topWidth * 4)
            next = [Double](repeating: 0, count: topWidth * 4)
        }
    }

    /// The output cell `j` that full-resolution cell `i` starts in, and the share of `[i, i+1)` inside
    /// `[j f, (j+1) f)`; the rest (if any) falls in `j + 1` (f >= 1).
    static func share(_ i: Int, _ f: Double, _ count: Int) -> (Int, Double) {
        let j = min(Int(Double(i) / f), count - 1)
        return (j, min(1, max(0, Double(j + 1) * f - Double(i))))
    }

    /// Feeds every row of `image`.
    func feed(_ image: RGBAImage) throws {
        try image.pixels.withUnsafeBufferPointer { try feed(rows: $0.baseAddress!, count: image.height) }
    }

    /// Feeds the next `count` full-resolution rows (8-bit straight RGBA, `scheme.width` pixels each).
    /// - Complexity: O(count × width).
    func feed(rows: UnsafePointer<UInt8>, count: Int) throws {
        let width = scheme.width
        for r in 0..<count {
            let row = rows.advanced(by: r * width * 4)
            if factor == 1 {
                try top.add { Self.premultiply(row, width, $0) }
            } else {
                try addFractional(row)
            }
            sourceRow += 1
        }
    }

    /// 8-bit straight RGBA to premultiplied 16-bit (value x 256); opaque pixels are shifted only.
    /// - Complexity: O(width).
    static func premultiply(_ row: UnsafePointer<UInt8>, _ width: Int, _ out: UnsafeMutablePointer<UInt16>) {
        // Every sample shifted (right for opaque pixels, alpha 255 becoming 65280) in one loop the compiler
        // vectorises, then the translucent pixels premultiplied.
        for i in 0..<width * 4 { out[i] = UInt16(row[i]) << 8 }
        for x in 0..<width {
            let p = x * 4
            let a = Int(row[p + 3])
            if a != 255 {
                out[p] = UInt16(truncatingIfNeeded: (Int(row[p]) * a * 256 + 127) / 255)
                out[p + 1] = UInt16(truncatingIfNeeded: (Int(row[p + 1]) * a * 256 + 127) / 255)
                out[p + 2] = UInt16(truncatingIfNeeded: (Int(row[p + 2]) * a * 256 + 127) / 255)
                out[p + 3] = UInt16(truncatingIfNeeded: a << 8)
            }
        }
    }

    private func addFractional(_ row: UnsafePointer<UInt8>) throws {
        let (j, wy) = Self.share(sourceRow, factor, topHeight)
        while j > accumulatedRow { try pushAccumulated() }
        let width = scheme.width, topWidth = self.topWidth
        horizontal.withUnsafeMutableBufferPointer { h in
            h.update(repeating: 0)
            columnTarget.withUnsafeBufferPointer { target in
                columnShare.withUnsafeBufferPointer { share in
                    for x in 0..<width {
                        let p = x * 4
                        let alpha = Double(row[p + 3])
                        let scale = alpha / 255
                        let jx = target[x], wx = share[x]
                        let o = jx * 4
                        let v0 = Double(row[p]) * scale, v1 = Double(row[p + 1]) * scale, v2 = Double(row[p + 2]) * scale
                        h[o] += v0 * wx
                        h[o + 1] += v1 * wx
                        h[o + 2] += v2 * wx
                        h[o + 3] += alpha * wx
                        if wx < 1 && jx + 1 < topWidth {
                            let rest = 1 - wx
                            h[o + 4] += v0 * rest
                            h[o + 5] += v1 * rest
                            h[o + 6] += v2 * rest
                            h[o + 7] += alpha * rest
                        }
                    }
                }
            }
        }
        let hasNext = wy < 1 && accumulatedRow + 1 < topHeight
        horizontal.withUnsafeBufferPointer { h in
            accumulated.withUnsafeMutableBufferPointer { a in
                for i in 0..<h.count { a[i] += h[i] * wy }
            }
            if hasNext {
                next.withUnsafeMutableBufferPointer { n in
                    for i in 0..<h.count { n[i] += h[i] * (1 - wy) }
                }
            }
        }
    }

    private func pushAccumulated() throws {
        let scale = 256 / (factor * factor)
        try accumulated.withUnsafeBufferPointer { a in
            try top.add { out in
                for i in 0..<a.count { out[i] = UInt16(min(65535, (a[i] * scale).rounded())) }
            }
        }
        swap(&accumulated, &next)
        next.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        accumulatedRow += 1
    }

    /// Hands on the last rows and bands of every level.
    func finish() throws {
        precondition(sourceRow == scheme.height, "TilePyramid: \(sourceRow) of \(scheme.height) rows fed")
        if factor != 1 {
            while accumulatedRow < topHeight { try pushAccumulated() }
        }
        try top.finish()
    }
}

// MARK: - Encoding on every core

/// Encodes bands' tiles on worker threads of its own while the bands are being made. At most two jobs per
/// worker wait; when that many are waiting, the thread that submits runs one itself rather than wait.
final class EncodePipeline: @unchecked Sendable {
    /// One worker a core. (Four a core made no difference on the 2-core machine at load average 10:
    /// the serial part, inflating the PNG, sets the pace; Benchmarks/tiles/README.md.)
    static let workerCount = processorCount

    private struct Job {
        let batch: TileBatch
        let columns: Range<Int>
    }

    private let encoder: PNGEncoder
    private let emit: @Sendable (TileCoordinate, [UInt8]) throws -> Void
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var head = 0
    private var closing = false
    private var failure: (any Error)?
    private let workers = DispatchGroup()
    private let maxWaiting: Int
    /// Tiles per job: small enough to keep every core busy to the end, large enough to be cheap to queue.
    private let tilesPerJob = 8

    init(encoder: PNGEncoder, emit: @escaping @Sendable (TileCoordinate, [UInt8]) throws -> Void) {
        self.encoder = encoder
        self.emit = emit
        let count = EncodePipeline.workerCount
        maxWaiting = 2 * count
        for _ in 0..<count {
            workers.enter()
            Thread.detachNewThread { [self] in
                defer { workers.leave() }
                while let job = next(waiting: true) { run(job) }
            }
        }
    }

    /// The next job; with `waiting`, waits for one until the pipeline closes.
    private func next(waiting: Bool) -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while head == jobs.count {
            if closing || !waiting { return nil }
            condition.wait()
        }
        let job = jobs[head]
        head += 1
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
        }
        return job
    }

    private var firstFailure: (any Error)? {
        condition.lock()
        defer { condition.unlock() }
        return failure
    }

    private func run(_ job: Job) {
        if firstFailure != nil { return }
        do {
            for column in job.columns {
                let bytes = try encoder.encode(job.batch.tile(column: column))
                try emit(TileCoordinate(z: job.batch.z, x: column, y: job.batch.row), bytes)
            }
        } catch {
            condition.lock()
            if failure == nil { failure = error }
            condition.unlock()
        }
    }

    /// Queues the batch's tiles (running queued jobs itself while too many wait); throws the first failure so far.
    func submit(_ batch: TileBatch) throws {
        var start = 0
        while start < batch.columns {
            if let failure = firstFailure { throw failure }
            condition.lock()
            let full = jobs.count - head >= maxWaiting
            condition.unlock()
            if full, let job = next(waiting: false) {
                run(job)
                continue
            }
            let end = min(batch.columns, start + tilesPerJob)
            condition.lock()
            jobs.append(Job(batch: batch, columns: start..<end))
            condition.signal()
            condition.unlock()
            start = end
        }
    }

    /// Lets the workers finish the queued jobs and waits for them.
    func drain() {
        condition.lock()
        closing = true
        condition.broadcast()
        condition.unlock()
        workers.wait()
    }

    /// Waits for every queued job and throws the first failure.
    func finish() throws {
        drain()
        if let failure = firstFailure { throw failure }
    }
}

// MARK: - Decoding beside the pyramid

/// Decodes a PNG's rows 32 at a time into a ring of three buffers, ahead of the caller, which averages
/// the rows before: inflating and averaging run on different cores. A thread of its own decodes, and so
/// does the caller whenever it would otherwise wait for the next band, so that decoding (the one serial
/// part) goes on whichever of the two the scheduler runs.
final class BandReader: @unchecked Sendable {
    private static let rowsPerBand = 32
    private static let ringSize = 3
    private let session: PNGReadSession
    private let width: Int
    private let height: Int
    private let bands: Int
    private let buffers: [UnsafeMutablePointer<UInt8>]
    private let condition = NSCondition()
    private let done = DispatchGroup()
    // Under `condition`:
    private var decoded = 0
    private var consumed = 0
    private var decoding = false
    private var failure: (any Error)?
    private var cancelled = false

    init(session: PNGReadSession, width: Int, height: Int) {
        self.session = session
        self.width = width
        self.height = height
        bands = (height + BandReader.rowsPerBand - 1) / BandReader.rowsPerBand
        buffers = (0..<BandReader.ringSize).map { _ in .allocate(capacity: BandReader.rowsPerBand * width * 4) }
    }

    deinit { for buffer in buffers { buffer.deallocate() } }

    /// With `condition` locked: decodes the next band if one is due and nobody is decoding; false otherwise.
    private func decodeNext() -> Bool {
        guard !decoding, !cancelled, failure == nil, decoded < bands, decoded - consumed < Self.ringSize else { return false }
        decoding = true
        let band = decoded
        condition.unlock()
        let count = min(Self.rowsPerBand, height - band * Self.rowsPerBand)
        var error: (any Error)?
        do {
            try session.readRows(into: buffers[band % Self.ringSize], count: count)
        } catch let caught {
            error = caught
        }
        condition.lock()
        decoding = false
        if let error { failure = error } else { decoded += 1 }
        condition.broadcast()
        return true
    }

    /// Calls `body` with every band of rows in order, on the calling thread.
    /// - Complexity: O(width × height); memory three bands of 32 rows.
    func read(_ body: (UnsafePointer<UInt8>, Int) throws -> Void) throws {
        done.enter()
        Thread.detachNewThread { [self] in
            defer { done.leave() }
            condition.lock()
            while !cancelled && failure == nil && decoded < bands {
                if !decodeNext() { condition.wait() }
            }
            condition.unlock()
        }
        defer {
            condition.lock()
            cancelled = true
            condition.broadcast()
            condition.unlock()
            done.wait()
        }
        for band in 0..<bands {
            condition.lock()
            while decoded <= band && failure == nil {
                if !decodeNext() { condition.wait() }
            }
            let error = decoded <= band ? failure : nil
            condition.unlock()
            if let error { throw error }
            let count = min(Self.rowsPerBand, height - band * Self.rowsPerBand)
            try body(UnsafePointer(buffers[band % Self.ringSize]), count)
            condition.lock()
            consumed += 1
            condition.broadcast()
            condition.unlock()
        }
    }
}
