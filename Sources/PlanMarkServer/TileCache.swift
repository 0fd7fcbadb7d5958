#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Logging
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkPDFCore
import PlanMarkPDFProcess
import PlanMarkRender

/// Drawings' tile pyramids on disk, `ROOT/<key>/<z>/<x>/<y>.png` (`TileFolder`, `TileKey`): written by `planmark drawing add`
/// and `drawing revise` (an SQLite store's default folder, or `--tile-cache`), else made on first request.
///
/// - Keyed by the SHA-256 of the image bytes the store keeps (the drawing's `sha256`), and for a page of a PDF its page
///   and dpi (`TileKey`): tiles are a pure function of those, so a drawing added again under the same name with another
///   image has other tiles in another folder, and a pyramid is never served for bytes it was not made from.
/// - A request for a tile of a pyramid not on disk makes the whole pyramid (one decode, every level), in a
///   temporary folder renamed into place when complete: a reader sees the whole pyramid or none of it,
///   and two processes making the same pyramid make identical bytes (the later rename finds the folder
///   there and throws its own copy away).
/// - **PDF drawings.** The pyramid of a page of a PDF is drawn and written by the child process `planmark-pdf`
///   (`PDFRenderer`, with its time limit), from `ROOT/.pdf/<sha>.pdf` (the PDF's bytes, written once). The levels above
///   the pyramid's (`TileScheme.vectorLevels`) are drawn one tile at a time from the page's vectors, each in a child of its
///   own (`vectorWork`, several at once), and kept in the pyramid's folder once it is there. A PDF the child refuses,
///   crashes on or runs out of time on costs one request: the failure is logged once and remembered
///   (`pdf-unreadable` 422, `pdf-timed-out` 504), and no child is started for that drawing's tiles again by this process.
/// - Single flight: concurrent requests for one pyramid wait for the one job, a heavy job (`HeavyWork`: bounded
///   with renders and reports, 503 `server-busy` beyond its queue), cancelled (between bands of the image) when
///   every request waiting for it has gone.
/// - Bounded: after a pyramid is made, whole pyramids are evicted, least recently used first, until the
///   files under ROOT add up to at most `limitBytes` (the pyramid just made stays even when it alone is larger).
///   Use is tracked per process; a pyramid on disk that this process has not used yet counts from its
///   folder's modification time. A PDF's file goes with its last pyramid.
/// - A tile file that is not a whole PNG (signature and `IEND` checked on every read) makes its pyramid
///   be made again.
/// - **Big sheets open at once.** An image of more than `backgroundAbovePixels` pixels (an A3 sheet at 300 dpi and up)
///   has its pyramid made in the background (`warm`: when its drawing is read, or a tile first asked for), and
///   until it is on disk a tile is made alone from the image: the levels up to `TilePyramid.overviewZoom` (the
///   sheet as a page first shows it) in one pass kept in memory, made before the pyramid is started; a tile
///   the pyramid has already written read from its folder; any other above them by itself (its rows only).
///   Both run the pyramid's own code, so the bytes are the pyramid's. A PDF's tile is drawn alone from the page's
///   vectors at the tile's resolution instead: close to the pyramid's, not the same bytes (`TileAnswer.final` false:
///   served `no-cache`). `progress` says how far the pyramid is.
actor TileCache {
    /// The pyramids' folder: layout and writing, shared with the CLI (which writes pyramids when drawings are added).
    nonisolated let folder: TileFolder
    /// The cache folder.
    nonisolated var root: String { folder.root }
    /// The most bytes of tiles kept.
    nonisolated let limitBytes: Int
    /// Bounds pyramid builds (with renders and reports).
    private let heavy: HeavyWork
    /// Bounds the children drawing single tiles of PDFs (a core each).
    private let vectorWork: HeavyWork
    /// Draws PDF drawings' pyramids and tiles in child processes (its `timeLimit` bounds each).
    nonisolated let renderer: PDFRenderer
    /// Where a PDF that cannot be drawn is said, once.
    private let logger: Logger?
    /// The pyramids on disk this cache knows, by key name: size and last use (a tick of `clock`, or a folder time).
    private var pyramids: [String: (bytes: Int, lastUse: Int)] = [:]
    /// Jobs in flight by key name; each returns the pyramid's size in bytes and whether it made it.
    private var jobs: [String: Task<(Int, Bool), any Error>] = [:]
    /// The requests waiting for each job (tokens).
    private var waiters: [String: Set<Int>] = [:]
    private var nextWaiter = 0
    /// Ticks of use, above any folder time (seconds since 1970) found at the first scan.
    private var clock = 1 << 40
    /// The first scan of ROOT (sizes of the pyramids there).
    private var scan: Task<Void, Never>?
    /// How many pyramids this cache has made (the tests count builds).
    private(set) var built = 0
    /// Images of more pixels than this have their pyramid made in the background and tiles made alone until then.
    nonisolated let backgroundAbovePixels: Int
    /// Rows of the image read by each pyramid being made.
    nonisolated let rowsRead = RowsRead()
    /// The overview levels of each big image whose pyramid is being made (single flight; dropped once it is made).
    private var overviews: [String: Task<[TileCoordinate: [UInt8]], any Error>] = [:]
    /// The longest side of the levels made in one pass before a big image's pyramid is made (`TilePyramid.overviewZoom`).
    nonisolated let overviewSide: Int
    /// The folder each pyramid being made is written to (its tiles appear there a row of tiles at a time).
    private var partial: [String: String] = [:]
    /// Pyramids started by `warm`: no request's going away cancels them.
    private var pinned: Set<String> = []
    /// Awaited before a pyramid is made (the tests hold builds with it).
    private let beforeBuild: (@Sendable () async -> Void)?
    /// Tiles of PDFs being drawn alone, by path (single flight).
    private var drawing: [String: Task<[UInt8], any Error>] = [:]
    /// PDFs that could not be drawn, by key name: the answer every later request for their tiles gets.
    private var failures: [String: APIError] = [:]
    /// `failures`' keys, oldest first (at most `maxFailures` are kept).
    private var failureOrder: [String] = []

    /// About a second of pyramid making (an A4 sheet at 400 dpi); above it, see "Big sheets open at once".
    static let defaultBackgroundAbovePixels = 8_000_000

    /// The default bound: 1 GiB (about 20 A0 sheets of line drawing at 300 dpi).
    static let defaultLimitBytes = 1 << 30

    /// The most PDFs remembered as not drawable.
    static let maxFailures = 1024

    /// Creates a cache in `root` (made when first needed) keeping at most `limitBytes` of tiles, making pyramids as
    /// `heavy` jobs (default: one at a time, 64 waiting) and PDF drawings' pyramids and tiles with `renderer` (single
    /// tiles as `vectorWork` jobs: default a core each, 256 waiting); `logger` is told of a PDF that cannot be drawn.
    init(root: String, limitBytes: Int = TileCache.defaultLimitBytes, heavy: HeavyWork? = nil,
         backgroundAbovePixels: Int = TileCache.defaultBackgroundAbovePixels, overviewSide: Int = TilePyramid.overviewSide,
         renderer: PDFRenderer = PDFRenderer(), vectorWork: HeavyWork? = nil, logger: Logger? = nil,
         beforeBuild: (@Sendable () async -> Void)? = nil) {
        self.overviewSide = overviewSide
        self.folder = TileFolder(root: root)
        self.limitBytes = limitBytes
        self.heavy = heavy ?? HeavyWork(limit: 1, queueLimit: 64)
        self.vectorWork = vectorWork ?? HeavyWork(limit: processorCount, queueLimit: 256)
        self.renderer = renderer
        self.logger = logger
        self.backgroundAbovePixels = backgroundAbovePixels
        self.beforeBuild = beforeBuild
    }

    /// True when `scheme`'s image is big enough to have its pyramid made in the background.
    nonisolated func isBig(_ scheme: TileScheme) -> Bool { scheme.width * scheme.height > backgroundAbovePixels }

    /// Starts making the pyramid of a big image (`isBig`) in the background unless it is on disk or being made; no
    /// request waits for it, and none cancels it. Does nothing for a smaller image (made on its first tile request).
    func warm(key: TileKey, scheme: TileScheme, image: @escaping @Sendable () async throws -> [UInt8]) async {
        guard isBig(scheme) else { return }
        await startInBackground(key: key, scheme: scheme, image: image)
    }

    /// Starts making `key`'s pyramid in the background, whatever its size, unless it is on disk, being made, or a PDF
    /// that could not be drawn.
    private func startInBackground(key: TileKey, scheme: TileScheme, image: @escaping @Sendable () async throws -> [UInt8]) async {
        await scanOnce()
        let name = key.name
        guard pyramids[name] == nil, jobs[name] == nil, failures[name] == nil else { return }
        pinned.insert(name)
        let check = path(of: TileCoordinate(z: scheme.minZoom, x: 0, y: 0), key: key)
        guard key.pdf == nil else {
            _ = start(key: key, scheme: scheme, check: check, image: image)
            return
        }
        // The overview first, then the pyramid: the first view waits for one pass over the image, not two sharing
        // the cores.
        let overview = overviews[name] ?? overviewJob(key: key, scheme: scheme, image: image)
        _ = start(key: key, scheme: scheme, check: check, after: overview, image: image)
    }

    /// How much of `key`'s pyramid is made, 0...1: 1 when it is on disk, the share of the image's rows read while it
    /// is being made, 0 before.
    func progress(key: TileKey, scheme: TileScheme) async -> Double {
        await scanOnce()
        if pyramids[key.name] != nil && jobs[key.name] == nil { return 1 }
        return rowsRead.share(key.name, of: scheme.height)
    }

    /// Waits until `key`'s pyramid, if one is being made, is made (or failed).
    func waitForPyramid(key: TileKey) async {
        _ = try? await jobs[key.name]?.value
    }

    /// `ROOT/<key>/<z>/<x>/<y>.png`.
    nonisolated func path(of tile: TileCoordinate, key: TileKey) -> String {
        folder.path(of: tile, key: key)
    }

    /// The PNG bytes of `tile` (which `scheme` must serve) of `key`'s pyramid; `image` gives the stored image's bytes
    /// (the PNG, or the PDF `key` names a page of) when the pyramid or the tile has to be made.
    /// - Complexity: O(tile bytes) when cached; otherwise O(image pixels) for the whole pyramid.
    nonisolated func tile(_ tile: TileCoordinate, key: TileKey, scheme: TileScheme,
                          image: @escaping @Sendable () async throws -> [UInt8]) async throws -> [UInt8] {
        try await lookup(tile, key: key, scheme: scheme, image: image).bytes
    }

    /// What `lookup` found or made.
    struct TileAnswer: Sendable {
        /// The tile's PNG bytes.
        var bytes: [UInt8]
        /// True when the tile was on disk whole (a miss made its pyramid, waited for the job making it, found it made by
        /// another process, or made the tile alone).
        var hit: Bool
        /// False for a PDF's tile of a pyramid level drawn alone from the vectors before the pyramid is made: the
        /// pyramid's tile will differ a little, so it must not be kept long.
        var final: Bool
    }

    /// The PNG bytes of `tile` as `tile(_:key:scheme:image:)` gives them, whether the tile was on disk whole, and whether
    /// they are the tile's for good.
    /// - Throws: `APIError` (422 `pdf-unreadable`, 504 `pdf-timed-out`, 500 ...), `CancellationError`.
    /// - Complexity: O(tile bytes) when cached; otherwise O(image pixels) for the whole pyramid, or one tile drawn from a
    ///   PDF's vectors.
    nonisolated func lookup(_ tile: TileCoordinate, key: TileKey, scheme: TileScheme,
                            image: @escaping @Sendable () async throws -> [UInt8]) async throws -> TileAnswer {
        if let failure = await failure(key) { throw failure }
        let path = path(of: tile, key: key)
        if case .tile(let bytes) = try await BlockingWork.run({ TileFiles.readTile(path) }) {
            await used(key)
            return TileAnswer(bytes: bytes, hit: true, final: true)
        }
        if tile.z > scheme.maxZoom {
            // Above the pyramid (a PDF's): drawn alone from the page, kept once the pyramid's folder is there.
            await startInBackground(key: key, scheme: scheme, image: image)
            return TileAnswer(bytes: try await drawn(tile, key: key, scheme: scheme, keep: true, image: image), hit: false, final: true)
        }
        if isBig(scheme) {
            await warm(key: key, scheme: scheme, image: image)
            if let answer = try await early(tile, key: key, scheme: scheme, image: image) { return answer }
        }
        try await make(key: key, scheme: scheme, check: path, image: image)
        switch try await BlockingWork.run({ TileFiles.readTile(path) }) {
        case .tile(let bytes):
            return TileAnswer(bytes: bytes, hit: false, final: true)
        case .missing, .damaged:
            throw APIError(.internalServerError, code: "tile-cache-failed", message: "the tile could not be made",
                           detail: "\(path): missing or damaged right after its pyramid was made")
        }
    }

    /// The answer remembered for a PDF that could not be drawn, if `key`'s is one.
    private func failure(_ key: TileKey) -> APIError? { failures[key.name] }

    /// `tile` made before its pyramid is on disk (see "Big sheets open at once"); nil when the pyramid has been made
    /// meanwhile (read it from disk).
    private func early(_ tile: TileCoordinate, key: TileKey, scheme: TileScheme,
                       image: @escaping @Sendable () async throws -> [UInt8]) async throws -> TileAnswer? {
        let name = key.name
        guard jobs[name] != nil else { return nil }
        let pyramid = TilePyramid(scheme: scheme)
        let overviewZoom = pyramid.overviewZoom(side: overviewSide)
        let heavy = self.heavy
        // Already written by the pyramid being made (a whole PNG: signature and IEND checked).
        if let folder = partial[name], case .tile(let bytes) = try await BlockingWork.run({ TileFiles.readTile("\(folder)/\(tile.z)/\(tile.x)/\(tile.y).png") }) {
            return TileAnswer(bytes: bytes, hit: false, final: true)
        }
        if key.pdf != nil {
            return TileAnswer(bytes: try await drawn(tile, key: key, scheme: scheme, keep: false, image: image), hit: false, final: false)
        }
        guard tile.z <= overviewZoom else {
            let bytes = try await heavy.run("tile \(tile) of image \(key.sha256.prefix(12))") {
                try await Self.made { try pyramid.tile(tile, ofPNG: try await image(), source: "drawing image \(key.sha256)") }
            }
            return bytes.map { TileAnswer(bytes: $0, hit: false, final: true) }
        }
        let job = overviews[name] ?? overviewJob(key: key, scheme: scheme, image: image)
        do {
            return try await job.value[tile].map { TileAnswer(bytes: $0, hit: false, final: true) }
        } catch {
            if overviews[name] == job { overviews[name] = nil }
            throw error
        }
    }

    /// `tile` of a PDF drawing drawn alone from the page's vectors (`PDFRenderer.tile`), as a `vectorWork` job; one job
    /// per tile at a time. With `keep`, written into the pyramid's folder when the pyramid is on disk.
    /// - Complexity: one child's render of 256 x 256 pixels (the page's drawing operations once), and the encoding.
    private func drawn(_ tile: TileCoordinate, key: TileKey, scheme: TileScheme, keep: Bool,
                       image: @escaping @Sendable () async throws -> [UInt8]) async throws -> [UInt8] {
        let path = path(of: tile, key: key)
        if let job = drawing[path] { return try await job.value }
        let file = try await pdfFile(key, image: image)
        if let job = drawing[path] { return try await job.value }
        let job = Task { [renderer, vectorWork, folder] in
            let bytes = try await Self.draw(tile, key: key, scheme: scheme, file: file, renderer: renderer, work: vectorWork, cache: self)
            if keep, (try? await BlockingWork.run({ try folder.addTile(bytes, at: tile, key: key) })) == true {
                self.added(bytes.count, to: key)
            }
            return bytes
        }
        drawing[path] = job
        defer { drawing[path] = nil }
        return try await job.value
    }

    /// `tile` of the PDF `file` drawn from its vectors and encoded, as a `work` job; a PDF that cannot be drawn told to
    /// `cache` (`failed`).
    /// - Complexity: one child's render of 256 x 256 pixels, and the encoding.
    private static func draw(_ tile: TileCoordinate, key: TileKey, scheme: TileScheme, file: String, renderer: PDFRenderer, work: HeavyWork,
                             cache: TileCache) async throws -> [UInt8] {
        guard let pdf = key.pdf else {
            throw APIError(.internalServerError, code: "tile-cache-failed", message: "the tile could not be made",
                           detail: "tile \(tile) of \(key): drawn from vectors, but the image is not a PDF")
        }
        return try await work.run("tile \(tile) of \(key.name.prefix(12))") { () async throws -> [UInt8] in
            let image: RGBAImage
            do throws(PDFProcessError) {
                image = try await renderer.tile(tile, of: scheme, file: file, page: pdf.page, dpi: Double(pdf.dpi), name: Self.name(key))
            } catch {
                throw await cache.failed(error, key: key)
            }
            do { return try PNGEncoder().encode(image) } catch {
                throw APIError(.internalServerError, code: "tile-cache-failed", message: "the tile could not be made", detail: "\(error)")
            }
        }
    }

    /// Counts a tile added to `key`'s pyramid.
    private func added(_ count: Int, to key: TileKey) {
        pyramids[key.name]?.bytes += count
    }

    /// The job making the overview levels of `key`'s image (`TilePyramid.overviewZoom`), started now and kept in
    /// `overviews` until the pyramid is made.
    private func overviewJob(key: TileKey, scheme: TileScheme, image: @escaping @Sendable () async throws -> [UInt8]) -> Task<[TileCoordinate: [UInt8]], any Error> {
        let pyramid = TilePyramid(scheme: scheme), heavy = self.heavy
        let overviewZoom = pyramid.overviewZoom(side: overviewSide)
        let job = Task {
            try await heavy.run("overview tiles of image \(key.sha256.prefix(12))") {
                try await Self.made { try pyramid.tiles(ofPNG: try await image(), source: "drawing image \(key.sha256)", through: overviewZoom) }
            }
        }
        overviews[key.name] = job
        return job
    }

    /// `body`'s result, a decoding failure as the 500 `image-unavailable` (as when a pyramid is made).
    private static func made<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let error as RenderError {
            throw APIError(.internalServerError, code: "image-unavailable", message: "the drawing's image cannot be read", detail: error.description)
        }
    }

    /// The name a PDF goes by in the child's messages (never a server path): `drawing image <sha256 prefix>`.
    private static func name(_ key: TileKey) -> String { "drawing image \(key.sha256.prefix(12))" }

    /// The service's error for the child's `error` (`APIError.pdf`); a PDF that cannot be drawn (422, 504) is logged and
    /// remembered for `key`.
    nonisolated func failed(_ error: PDFProcessError, key: TileKey) async -> any Error {
        do {
            let answer = try APIError.pdf(error, page: key.pdf?.page)
            if answer.status == .unprocessableContent || answer.status == .gatewayTimeout { await remember(answer, for: key, error: error) }
            return answer
        } catch {
            return error
        }
    }

    /// Keeps `answer` for `key` (and says why in one line of the log) unless it is there already.
    private func remember(_ answer: APIError, for key: TileKey, error: PDFProcessError) {
        guard failures[key.name] == nil else { return }
        logger?.warning("tiles of \(key.name): \(error.description) (\(answer.code); its tiles are refused until the server restarts)")
        failures[key.name] = answer
        failureOrder.append(key.name)
        if failureOrder.count > Self.maxFailures { failures[failureOrder.removeFirst()] = nil }
    }

    /// `ROOT/.pdf/<sha>.pdf`, the PDF `key` names a page of, written from `image` (the store's bytes) when it is not there
    /// (a file there is whole: it is only ever renamed into place, by this process, another server or the CLI).
    /// - Complexity: O(1) when it is there, else O(the PDF's bytes).
    func pdfFile(_ key: TileKey, image: @escaping @Sendable () async throws -> [UInt8]) async throws -> String {
        let folder = self.folder, sha = key.sha256
        let path = folder.pdfFile(sha256: sha)
        if try await BlockingWork.run({ access(path, R_OK) == 0 }) { return path }
        let bytes = try await image()
        do {
            _ = try await BlockingWork.run { try folder.storePDF(sha256: sha, bytes: bytes) }
        } catch let error as TileFileError {
            throw APIError(.internalServerError, code: "tile-cache-failed", message: "the tile cache cannot be written", detail: error.description)
        }
        return path
    }

    /// Makes the pyramid of `key` unless it is on disk with a whole `check` tile; joins the job in flight if any.
    /// The job is cancelled when every request waiting for it has been cancelled (their clients went away).
    private func make(key: TileKey, scheme: TileScheme, check: String, image: @escaping @Sendable () async throws -> [UInt8]) async throws {
        await scanOnce()
        if let failure = failures[key.name] { throw failure }
        let name = key.name
        let job = jobs[name] ?? start(key: key, scheme: scheme, check: check, image: image)
        nextWaiter += 1
        let token = nextWaiter
        waiters[name, default: []].insert(token)
        defer { leave(name, token, cancelling: false) }
        do {
            _ = try await withTaskCancellationHandler {
                try await job.value
            } onCancel: {
                Task { await self.leave(name, token, cancelling: true) }
            }
        } catch is CancellationError where !Task.isCancelled {
            // Another request's job, cancelled when its clients went away just as this one joined: make it again.
            try await make(key: key, scheme: scheme, check: check, image: image)
        }
    }

    /// The job making `key`'s pyramid (or finding it on disk), started now and kept in `jobs` until it ends.
    /// With `after`, the job waits for that one (whatever its outcome) before it starts.
    private func start(key: TileKey, scheme: TileScheme, check: String, after: Task<[TileCoordinate: [UInt8]], any Error>? = nil,
                       image: @escaping @Sendable () async throws -> [UInt8]) -> Task<(Int, Bool), any Error> {
        let folder = self.folder, heavy = self.heavy, rowsRead = self.rowsRead, beforeBuild = self.beforeBuild
        let name = key.name
        let temporary = folder.temporaryFolder(key: key)
        partial[name] = temporary
        let job = Task { () async throws -> (Int, Bool) in
            defer { rowsRead.forget(name) }
            do {
                _ = try? await after?.value
                await beforeBuild?()
                let result = try await Self.existingOrBuilt(key: key, scheme: scheme, check: check, heavy: heavy, temporary: temporary, cache: self,
                                                            image: image)
                jobs[name] = nil
                partial[name] = nil
                overviews[name] = nil
                pinned.remove(name)
                pyramids[name] = (result.0, tick())
                if result.1 { built += 1 }
                try await evict(keeping: name)
                return result
            } catch {
                jobs[name] = nil
                partial[name] = nil
                overviews[name] = nil
                pinned.remove(name)
                throw error
            }
        }
        jobs[name] = job
        return job
    }

    /// Forgets waiter `token` of `name`'s job; with `cancelling`, cancels the job when no one waits for it any more.
    private func leave(_ name: String, _ token: Int, cancelling: Bool) {
        guard waiters[name]?.remove(token) != nil else { return }
        if waiters[name]?.isEmpty == true {
            waiters[name] = nil
            if cancelling && !pinned.contains(name) { jobs[name]?.cancel() }
        }
    }

    /// The size of `key`'s pyramid on disk, or of the one made now as a heavy job (made: true): from the PNG in this
    /// process, from a PDF by the child `planmark-pdf` (a PDF that cannot be drawn told to `cache`, `failed`).
    private static func existingOrBuilt(key: TileKey, scheme: TileScheme, check: String, heavy: HeavyWork, temporary: String, cache: TileCache,
                                        image: @escaping @Sendable () async throws -> [UInt8]) async throws -> (Int, Bool) {
        let folder = cache.folder, rowsRead = cache.rowsRead, renderer = cache.renderer, name = key.name
        if let size = try await BlockingWork.run({ try Self.existing(folder: folder, key: key, check: check) }) { return (size, false) }
        guard let pdf = key.pdf else {
            return try await heavy.run("tile pyramid of image \(key.sha256.prefix(12))") { () async throws -> (Int, Bool) in
                let bytes = try await image()
                try Task.checkCancellation()
                return (try Self.build(folder: folder, key: key, scheme: scheme, png: bytes, temporary: temporary) { rowsRead.set(name, $0) }, true)
            }
        }
        let file = try await cache.pdfFile(key, image: image)
        return try await heavy.run("tile pyramid of \(name.prefix(12)), pdf page \(pdf.page) at \(pdf.dpi) dpi") { () async throws -> (Int, Bool) in
            do {
                let written = try await folder.write(key: key, scheme: scheme, pdf: file, page: pdf.page, dpi: pdf.dpi, renderer: renderer,
                                                     temporary: temporary, name: Self.name(key)) { rowsRead.set(name, $0) }
                return (written.bytes, written.made)
            } catch let error as PDFProcessError {
                throw await cache.failed(error, key: key)
            } catch let error as TileFileError {
                throw APIError(.internalServerError, code: "tile-cache-failed", message: "the tile cache cannot be written", detail: error.description)
            }
        }
    }

    /// Notes a use of `key`'s pyramid; one this process has not seen is measured and counted.
    private func used(_ key: TileKey) async {
        let name = key.name
        if pyramids[name] != nil {
            pyramids[name]!.lastUse = tick()
            return
        }
        await scanOnce()
        guard pyramids[name] == nil, jobs[name] == nil else { return }
        let folder = folder.pyramid(key)
        let size = (try? await BlockingWork.run { TileFiles.usage(of: folder).bytes }) ?? 0
        guard pyramids[name] == nil else { return }
        pyramids[name] = (size, tick())
        try? await evict(keeping: name)
    }

    private func tick() -> Int {
        clock += 1
        return clock
    }

    /// Evicts least recently used pyramids (never `name`, nor one being made) until the total is within the bound; a
    /// PDF's file goes with the last pyramid of that PDF.
    private func evict(keeping name: String) async throws {
        while pyramids.values.reduce(0, { $0 + $1.bytes }) > limitBytes {
            guard let victim = pyramids.filter({ $0.key != name && jobs[$0.key] == nil }).min(by: { $0.value.lastUse < $1.value.lastUse })?.key,
                  let key = TileKey(name: victim) else {
                return
            }
            pyramids[victim] = nil
            let folder = self.folder
            let lastOfItsPDF = key.pdf != nil && !pyramids.keys.contains { TileKey(name: $0)?.sha256 == key.sha256 }
                && !jobs.keys.contains { TileKey(name: $0)?.sha256 == key.sha256 }
            try await BlockingWork.run {
                try? folder.remove(key: key)
                if lastOfItsPDF { folder.removePDF(sha256: key.sha256) }
            }
        }
    }

    /// The pyramids already in ROOT, counted once per process; leftovers of evictions and of builds by
    /// processes that are gone are removed.
    private func scanOnce() async {
        if scan == nil {
            let root = self.root
            scan = Task {
                let found = (try? await BlockingWork.run { () -> [(String, Int, Int)] in
                    var found: [(String, Int, Int)] = []
                    for name in TileFiles.names(in: root) {
                        let path = root + "/" + name
                        if name.hasPrefix(".evicting-") || (name.hasPrefix(".building-") && !TileFolder.ownerAlive(name)) {
                            TileFiles.removeTree(path)
                        } else if TileKey(name: name) != nil && TileFiles.isFolder(path) {
                            let usage = TileFiles.usage(of: path)
                            found.append((name, usage.bytes, usage.modified))
                        }
                    }
                    return found
                }) ?? []
                self.adopt(found)
            }
        }
        await scan!.value
    }

    private func adopt(_ found: [(String, Int, Int)]) {
        for (name, bytes, modified) in found where pyramids[name] == nil { pyramids[name] = (bytes, modified) }
    }

    /// `TileFolder.existing`, a folder that cannot be written as the 500 `tile-cache-failed`.
    static func existing(folder: TileFolder, key: TileKey, check: String) throws -> Int? {
        do throws(TileFileError) {
            return try folder.existing(key: key, check: check)
        } catch {
            throw APIError(.internalServerError, code: "tile-cache-failed", message: "the tile cache cannot be written", detail: error.description)
        }
    }

    /// The pyramid's bytes on disk (`TileFolder.write`), its errors as the service's: an image that cannot be read is the
    /// 500 `image-unavailable`, a folder that cannot be written the 500 `tile-cache-failed`.
    /// - Complexity: O(image pixels) time; memory a few bands of 256 rows per level.
    static func build(folder: TileFolder, key: TileKey, scheme: TileScheme, png: [UInt8], temporary: String? = nil,
                      progress: ((Int) -> Void)? = nil) throws -> Int {
        do {
            return try folder.write(key: key, scheme: scheme, png: png, temporary: temporary, progress: progress).bytes
        } catch let error as CancellationError {
            throw error
        } catch let error as RenderError {
            throw APIError(.internalServerError, code: "image-unavailable", message: "the drawing's image cannot be read", detail: error.description)
        } catch let error as TileFileError {
            throw APIError(.internalServerError, code: "tile-cache-failed", message: "the tile cache cannot be written", detail: error.description)
        } catch {
            if let error = error as? APIError { throw error }
            throw APIError(.internalServerError, code: "tile-cache-failed", message: "the tile pyramid could not be made", detail: "\(error)")
        }
    }
}

/// The rows of its image each pyramid being made has read (written by its builder's thread, read by requests).
final class RowsRead: @unchecked Sendable {
    private let lock = DispatchQueue(label: "planmark.server.rows-read")
    private var rows: [String: Int] = [:]

    func set(_ sha: String, _ count: Int) { lock.sync { rows[sha] = count } }
    func forget(_ sha: String) { lock.sync { rows[sha] = nil } }

    /// The rows read of `height`, 0...1 (0 when nothing is being read).
    func share(_ sha: String, of height: Int) -> Double {
        lock.sync { height > 0 ? min(1, Double(rows[sha] ?? 0) / Double(height)) : 0 }
    }
}
