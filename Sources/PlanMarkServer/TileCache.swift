#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import PlanMarkGeometry
import PlanMarkRender

/// Drawings' tile pyramids on disk, `ROOT/<image sha256>/<z>/<x>/<y>.png` (`TileFolder`): written by `planmark drawing add`
/// and `drawing revise` (an SQLite store's default folder, or `--tile-cache`), else made on first request.
///
/// - Keyed by the SHA-256 of the image bytes the store keeps (the drawing's `sha256`): tiles are a pure
///   function of those bytes, so a drawing added again under the same name with another image has other
///   tiles in another folder, and a pyramid is never served for bytes it was not made from.
/// - A request for a tile of a pyramid not on disk makes the whole pyramid (one decode, every level), in a
///   temporary folder renamed into place when complete: a reader sees the whole pyramid or none of it,
///   and two processes making the same pyramid make identical bytes (the later rename finds the folder
///   there and throws its own copy away).
/// - Single flight: concurrent requests for one SHA-256 wait for the one job, a heavy job (`HeavyWork`: bounded
///   with renders and reports, 503 `server-busy` beyond its queue), cancelled (between bands of the image) when
///   every request waiting for it has gone.
/// - Bounded: after a pyramid is made, whole pyramids are evicted, least recently used first, until the
///   files under ROOT add up to at most `limitBytes` (the pyramid just made stays even when it alone is larger).
///   Use is tracked per process; a pyramid on disk that this process has not used yet counts from its
///   folder's modification time.
/// - A tile file that is not a whole PNG (signature and `IEND` checked on every read) makes its pyramid
///   be made again.
/// - **Big sheets open at once.** An image of more than `backgroundAbovePixels` pixels (an A3 sheet at 300 dpi and up)
///   has its pyramid made in the background (`warm`: when its drawing is read, or a tile first asked for), and
///   until it is on disk a tile is made alone from the image: the levels up to `TilePyramid.overviewZoom` (the
///   sheet as a page first shows it) in one pass kept in memory, made before the pyramid is started; a tile
///   the pyramid has already written read from its folder; any other above them by itself (its rows only).
///   Both run the pyramid's own code, so the bytes are the pyramid's. `progress` says how far the pyramid is.
actor TileCache {
    /// The pyramids' folder: layout and writing, shared with the CLI (which writes pyramids when drawings are added).
    nonisolated let folder: TileFolder
    /// The cache folder.
    nonisolated var root: String { folder.root }
    /// The most bytes of tiles kept.
    nonisolated let limitBytes: Int
    /// Bounds pyramid builds (with renders and reports).
    private let heavy: HeavyWork
    /// The pyramids on disk this cache knows: size and last use (a tick of `clock`, or a folder time).
    private var pyramids: [String: (bytes: Int, lastUse: Int)] = [:]
    /// Jobs in flight by SHA-256; each returns the pyramid's size in bytes and whether it made it.
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
    private nonisolated let rowsRead = RowsRead()
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

    /// About a second of pyramid making (an A4 sheet at 400 dpi); above it, see "Big sheets open at once".
    static let defaultBackgroundAbovePixels = 8_000_000

    /// The default bound: 1 GiB (about 20 A0 sheets of line drawing at 300 dpi).
    static let defaultLimitBytes = 1 << 30

    /// Creates a cache in `root` (made when first needed) keeping at most `limitBytes` of tiles, making pyramids as
    /// `heavy` jobs (default: one at a time, 64 waiting).
    init(root: String, limitBytes: Int = TileCache.defaultLimitBytes, heavy: HeavyWork? = nil,
         backgroundAbovePixels: Int = TileCache.defaultBackgroundAbovePixels, overviewSide: Int = TilePyramid.overviewSide,
         beforeBuild: (@Sendable () async -> Void)? = nil) {
        self.overviewSide = overviewSide
        self.folder = TileFolder(root: root)
        self.limitBytes = limitBytes
        self.heavy = heavy ?? HeavyWork(limit: 1, queueLimit: 64)
        self.backgroundAbovePixels = backgroundAbovePixels
        self.beforeBuild = beforeBuild
    }

    /// True when `scheme`'s image is big enough to have its pyramid made in the background.
    nonisolated func isBig(_ scheme: TileScheme) -> Bool { scheme.width * scheme.height > backgroundAbovePixels }

    /// Starts making the pyramid of a big image (`isBig`) in the background unless it is on disk or being made; no
    /// request waits for it, and none cancels it. Does nothing for a smaller image (made on its first tile request).
    func warm(sha: String, scheme: TileScheme, image: @escaping @Sendable () async throws -> [UInt8]) async {
        guard isBig(scheme) else { return }
        await scanOnce()
        guard pyramids[sha] == nil, jobs[sha] == nil else { return }
        pinned.insert(sha)
        // The overview first, then the pyramid: the first view waits for one pass over the image, not two sharing
        // the cores.
        let overview = overviews[sha] ?? overviewJob(sha: sha, scheme: scheme, image: image)
        _ = start(sha: sha, scheme: scheme, check: path(of: TileCoordinate(z: scheme.minZoom, x: 0, y: 0), sha: sha), after: overview,
                  image: image)
    }

    /// How much of `sha`'s pyramid is made, 0...1: 1 when it is on disk, the share of the image's rows read while it
    /// is being made, 0 before.
    func progress(sha: String, scheme: TileScheme) async -> Double {
        await scanOnce()
        if pyramids[sha] != nil && jobs[sha] == nil { return 1 }
        return rowsRead.share(sha, of: scheme.height)
    }

    /// Waits until `sha`'s pyramid, if one is being made, is made (or failed).
    func waitForPyramid(sha: String) async {
        _ = try? await jobs[sha]?.value
    }

    /// `ROOT/<sha>/<z>/<x>/<y>.png`.
    nonisolated func path(of tile: TileCoordinate, sha: String) -> String {
        folder.path(of: tile, sha: sha)
    }

    /// The PNG bytes of `tile` (which must be in `scheme`) of the pyramid of the image whose SHA-256 is `sha`;
    /// `image` gives the image's bytes when the pyramid has to be made.
    /// - Complexity: O(tile bytes) when cached; otherwise O(image pixels) for the whole pyramid.
    nonisolated func tile(_ tile: TileCoordinate, sha: String, scheme: TileScheme,
                          image: @escaping @Sendable () async throws -> [UInt8]) async throws -> [UInt8] {
        try await lookup(tile, sha: sha, scheme: scheme, image: image).bytes
    }

    /// The PNG bytes of `tile` as `tile(_:sha:scheme:image:)` gives them, and whether the tile was on disk whole
    /// (`hit`; a miss made its pyramid, waited for the job making it, or found it made by another process).
    /// - Complexity: O(tile bytes) when cached; otherwise O(image pixels) for the whole pyramid.
    nonisolated func lookup(_ tile: TileCoordinate, sha: String, scheme: TileScheme,
                            image: @escaping @Sendable () async throws -> [UInt8]) async throws -> (bytes: [UInt8], hit: Bool) {
        let path = path(of: tile, sha: sha)
        if case .tile(let bytes) = try await BlockingWork.run({ TileFiles.readTile(path) }) {
            await used(sha)
            return (bytes, true)
        }
        if isBig(scheme) {
            await warm(sha: sha, scheme: scheme, image: image)
            if let bytes = try await early(tile, sha: sha, scheme: scheme, image: image) { return (bytes, false) }
        }
        try await make(sha: sha, scheme: scheme, check: path, image: image)
        switch try await BlockingWork.run({ TileFiles.readTile(path) }) {
        case .tile(let bytes):
            return (bytes, false)
        case .missing, .damaged:
            throw APIError(.internalServerError, code: "tile-cache-failed", message: "the tile could not be made",
                           detail: "\(path): missing or damaged right after its pyramid was made")
        }
    }

    /// `tile` made before its pyramid is on disk (see "Big sheets open at once"); nil when the pyramid has been made
    /// meanwhile (read it from disk).
    private func early(_ tile: TileCoordinate, sha: String, scheme: TileScheme,
                       image: @escaping @Sendable () async throws -> [UInt8]) async throws -> [UInt8]? {
        guard jobs[sha] != nil else { return nil }
        let pyramid = TilePyramid(scheme: scheme)
        let overviewZoom = pyramid.overviewZoom(side: overviewSide)
        let heavy = self.heavy
        // Already written by the pyramid being made (a whole PNG: signature and IEND checked).
        if let folder = partial[sha], case .tile(let bytes) = try await BlockingWork.run({ TileFiles.readTile("\(folder)/\(tile.z)/\(tile.x)/\(tile.y).png") }) {
            return bytes
        }
        guard tile.z <= overviewZoom else {
            return try await heavy.run("tile \(tile) of image \(sha.prefix(12))") {
                try await Self.made { try pyramid.tile(tile, ofPNG: try await image(), source: "drawing image \(sha)") }
            }
        }
        let job = overviews[sha] ?? overviewJob(sha: sha, scheme: scheme, image: image)
        do {
            return try await job.value[tile]
        } catch {
            if overviews[sha] == job { overviews[sha] = nil }
            throw error
        }
    }

    /// The job making the overview levels of `sha`'s image (`TilePyramid.overviewZoom`), started now and kept in
    /// `overviews` until the pyramid is made.
    private func overviewJob(sha: String, scheme: TileScheme, image: @escaping @Sendable () async throws -> [UInt8]) -> Task<[TileCoordinate: [UInt8]], any Error> {
        let pyramid = TilePyramid(scheme: scheme), heavy = self.heavy
        let overviewZoom = pyramid.overviewZoom(side: overviewSide)
        let job = Task {
            try await heavy.run("overview tiles of image \(sha.prefix(12))") {
                try await Self.made { try pyramid.tiles(ofPNG: try await image(), source: "drawing image \(sha)", through: overviewZoom) }
            }
        }
        overviews[sha] = job
        return job
    }

    /// `body`'s result, a decoding failure as the 500 `image-unavailable` (as when a pyramid is made).
    private static func made<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let error as RenderError {
            throw APIError(.internalServerError, code: "image-unavailable", message: "the drawing's image cannot be read", detail: error.description)
        }
    }

    /// Makes the pyramid of `sha` unless it is on disk with a whole `check` tile; joins the job in flight if any.
    /// The job is cancelled when every request waiting for it has been cancelled (their clients went away).
    private func make(sha: String, scheme: TileScheme, check: String, image: @escaping @Sendable () async throws -> [UInt8]) async throws {
        await scanOnce()
        let job = jobs[sha] ?? start(sha: sha, scheme: scheme, check: check, image: image)
        nextWaiter += 1
        let token = nextWaiter
        waiters[sha, default: []].insert(token)
        defer { leave(sha, token, cancelling: false) }
        do {
            _ = try await withTaskCancellationHandler {
                try await job.value
            } onCancel: {
                Task { await self.leave(sha, token, cancelling: true) }
            }
        } catch is CancellationError where !Task.isCancelled {
            // Another request's job, cancelled when its clients went away just as this one joined: make it again.
            try await make(sha: sha, scheme: scheme, check: check, image: image)
        }
    }

    /// The job making `sha`'s pyramid (or finding it on disk), started now and kept in `jobs` until it ends.
    /// With `after`, the job waits for that one (whatever its outcome) before it starts.
    private func start(sha: String, scheme: TileScheme, check: String, after: Task<[TileCoordinate: [UInt8]], any Error>? = nil,
                       image: @escaping @Sendable () async throws -> [UInt8]) -> Task<(Int, Bool), any Error> {
        let folder = self.folder, heavy = self.heavy, rowsRead = self.rowsRead, beforeBuild = self.beforeBuild
        let temporary = folder.temporaryFolder(sha: sha)
        partial[sha] = temporary
        let job = Task { () async throws -> (Int, Bool) in
            defer { rowsRead.forget(sha) }
            do {
                _ = try? await after?.value
                await beforeBuild?()
                let result = try await Self.existingOrBuilt(folder: folder, sha: sha, scheme: scheme, check: check, heavy: heavy,
                                                            rowsRead: rowsRead, temporary: temporary, image: image)
                jobs[sha] = nil
                partial[sha] = nil
                overviews[sha] = nil
                pinned.remove(sha)
                pyramids[sha] = (result.0, tick())
                if result.1 { built += 1 }
                try await evict(keeping: sha)
                return result
            } catch {
                jobs[sha] = nil
                partial[sha] = nil
                overviews[sha] = nil
                pinned.remove(sha)
                throw error
            }
        }
        jobs[sha] = job
        return job
    }

    /// Forgets waiter `token` of `sha`'s job; with `cancelling`, cancels the job when no one waits for it any more.
    private func leave(_ sha: String, _ token: Int, cancelling: Bool) {
        guard waiters[sha]?.remove(token) != nil else { return }
        if waiters[sha]?.isEmpty == true {
            waiters[sha] = nil
            if cancelling && !pinned.contains(sha) { jobs[sha]?.cancel() }
        }
    }

    /// The size of `sha`'s pyramid on disk, or of the one made now as a heavy job (made: true).
    private static func existingOrBuilt(folder: TileFolder, sha: String, scheme: TileScheme, check: String, heavy: HeavyWork, rowsRead: RowsRead,
                                        temporary: String, image: @escaping @Sendable () async throws -> [UInt8]) async throws -> (Int, Bool) {
        if let size = try await BlockingWork.run({ try Self.existing(folder: folder, sha: sha, check: check) }) { return (size, false) }
        return try await heavy.run("tile pyramid of image \(sha.prefix(12))") { () async throws -> (Int, Bool) in
            let bytes = try await image()
            try Task.checkCancellation()
            return (try Self.build(folder: folder, sha: sha, scheme: scheme, png: bytes, temporary: temporary) { rowsRead.set(sha, $0) }, true)
        }
    }

    /// Notes a use of `sha`'s pyramid; one this process has not seen is measured and counted.
    private func used(_ sha: String) async {
        if pyramids[sha] != nil {
            pyramids[sha]!.lastUse = tick()
            return
        }
        await scanOnce()
        guard pyramids[sha] == nil, jobs[sha] == nil else { return }
        let folder = "\(root)/\(sha)"
        let size = (try? await BlockingWork.run { TileFiles.usage(of: folder).bytes }) ?? 0
        guard pyramids[sha] == nil else { return }
        pyramids[sha] = (size, tick())
        try? await evict(keeping: sha)
    }

    private func tick() -> Int {
        clock += 1
        return clock
    }

    /// Evicts least recently used pyramids (never `sha`, nor one being made) until the total is within the bound.
    private func evict(keeping sha: String) async throws {
        while pyramids.values.reduce(0, { $0 + $1.bytes }) > limitBytes {
            guard let victim = pyramids.filter({ $0.key != sha && jobs[$0.key] == nil }).min(by: { $0.value.lastUse < $1.value.lastUse })?.key else {
                return
            }
            pyramids[victim] = nil
            let folder = self.folder
            try await BlockingWork.run { try? folder.remove(sha: victim) }
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
                        } else if TileFolder.isDigest(name) && TileFiles.isFolder(path) {
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
        for (sha, bytes, modified) in found where pyramids[sha] == nil { pyramids[sha] = (bytes, modified) }
    }

    /// `TileFolder.existing`, a folder that cannot be written as the 500 `tile-cache-failed`.
    static func existing(folder: TileFolder, sha: String, check: String) throws -> Int? {
        do throws(TileFileError) {
            return try folder.existing(sha: sha, check: check)
        } catch {
            throw APIError(.internalServerError, code: "tile-cache-failed", message: "the tile cache cannot be written", detail: error.description)
        }
    }

    /// The pyramid's bytes on disk (`TileFolder.write`), its errors as the service's: an image that cannot be read is the
    /// 500 `image-unavailable`, a folder that cannot be written the 500 `tile-cache-failed`.
    /// - Complexity: O(image pixels) time; memory a few bands of 256 rows per level.
    static func build(folder: TileFolder, sha: String, scheme: TileScheme, png: [UInt8], temporary: String? = nil,
                      progress: ((Int) -> Void)? = nil) throws -> Int {
        do {
            return try folder.write(sha: sha, scheme: scheme, png: png, temporary: temporary, progress: progress).bytes
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
