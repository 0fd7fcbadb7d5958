import Hummingbird
import PlanMarkExport
import PlanMarkGeometry
import PlanMarkRender
import PlanMarkStore

/// `GET /drawings/{name}/tiles/{z}/{x}/{y}.png`: one 256x256 tile of the drawing's pyramid (see `TileScheme`),
/// from the on-disk cache (`TileCache`), made with its whole pyramid on first request; for a page of a PDF, also the
/// two levels above the pyramid, drawn from the page's vectors (`Drawing.tileScheme`).
///
/// The `ETag` is the SHA-256 of the tile's bytes (strong: it names exactly the bytes sent, whatever made
/// them). With `?v=` equal to the drawing's current tile key (the image's SHA-256, and for a PDF its page and dpi:
/// `TileKey`; the template of the drawing's `tiles` gives it) the URL names content that never changes, so the answer
/// may be kept a year (`immutable`) — except a PDF's tile drawn alone before its pyramid is made (`no-cache`: the
/// pyramid's will differ a little);
/// without it, or with an older `v`, the answer is the current image's tile with `no-cache` (kept, but
/// revalidated with `If-None-Match` before each use), because the name may be given another image later.
/// A stale `v` is not redirected: a redirect would cost every tile of an open page a second round trip,
/// and the page asks for the drawing (and its new template) again anyway when it sees the change.
/// Behind a token the long-lived answers are `private`: a shared cache must not hand tiles fetched with
/// the token to clients without it.
struct TileEndpoint: Sendable {
    /// The cache of pyramids.
    let cache: TileCache
    /// True when requests carry a token (long-lived answers are then `private`, not `public`).
    let privateCaching: Bool
    /// Where the cache's hits and misses are counted; nil: not counted.
    var metrics: ServerMetrics? = nil

    /// A year, the longest `max-age` caches are asked to honour.
    static let immutable = "max-age=31536000, immutable"

    func respond(to request: Request, name: String, context: some RequestContext, store: StoreAccess) async throws -> Response {
        let query = try QueryParameters(request)
        try query.onlyKeys(["v"])
        let tile = try Self.coordinate(context)
        let drawing = try await store.run("tileDrawing") { store throws(StoreError) in try await store.drawingRecord(named: name) }
        guard let scheme = drawing.tileScheme, scheme.serves(tile) else {
            let levels = drawing.tileScheme.map { " (levels \($0.minZoom)...\($0.topZoom))" } ?? ""
            throw APIError(.notFound, code: "tile-not-found", message: "drawing \"\(name)\" has no tile \(tile)\(levels)")
        }
        let key = drawing.tileKey, sha = drawing.imageSHA256
        let answer = try await cache.lookup(tile, key: key, scheme: scheme) { try await Self.image(of: name, sha: sha, store: store) }
        let bytes = answer.bytes
        (answer.hit ? metrics?.tileHits : metrics?.tileMisses)?.increment()
        let etag = "\"" + SHA256.hexDigest(of: bytes) + "\""
        let caching = query.values["v"] == key.name && answer.final ? (privateCaching ? "private, " : "public, ") + Self.immutable : "no-cache"
        let headers: HTTPFields = [.eTag: etag, .cacheControl: caching]
        if EntityTag.noneMatch(request, etag) { return Response(status: .notModified, headers: headers) }
        var all = headers
        all[.contentType] = "image/png"
        return Response(status: .ok, headers: all, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// Starts making `drawing`'s pyramid in the background when it is a big sheet (`TileCache.warm`: the page reads
    /// the drawing before its tiles, so the work starts a round trip earlier) and says how much of it is made, 0...1;
    /// nil for a drawing without tiles.
    func warm(_ drawing: Drawing, store: StoreAccess) async -> Double? {
        guard let scheme = drawing.tileScheme else { return nil }
        let key = drawing.tileKey, sha = drawing.imageSHA256, name = drawing.name
        await cache.warm(key: key, scheme: scheme) { try await Self.image(of: name, sha: sha, store: store) }
        return await cache.progress(key: key, scheme: scheme)
    }

    /// Starts making the pyramid of a big sheet (`TileCache.isBig`) just added or revised, by any process, as the change
    /// feed tells (`ChangeHub.whenDrawingsChange`): its first view need not wait for it, nor anyone open it first. Does
    /// nothing for other changes, smaller images (made on their first tile request) or a drawing gone since.
    /// - Complexity: O(1) store reads (the drawing's record); the pyramid is made in the background.
    func warm(after change: Change, store: StoreAccess) async {
        guard change.kind == .drawingAdded || change.kind == .drawingRevised else { return }
        let name = change.drawing
        guard let drawing = try? await store.run("warmDrawing", { store throws(StoreError) in try await store.drawingRecord(named: name) }),
              let scheme = drawing.tileScheme, cache.isBig(scheme) else { return }
        _ = await warm(drawing, store: store)
    }

    /// The bytes of `name`'s image, which must still be the one whose SHA-256 is `sha`.
    static func image(of name: String, sha: String, store: StoreAccess) async throws -> [UInt8] {
        let image = try await store.run("tileImage") { store throws(StoreError) in try await store.image(of: name) }
        // The drawing was removed and added again with another image while this request waited.
        guard image.sha256 == sha else {
            throw APIError.unavailable(code: "drawing-changed", message: "the drawing's image changed while its tiles were made; try again")
        }
        return image.bytes
    }

    /// `z`, `x` and `y` of the path: whole numbers, `x` and `y` at least 0; 400 otherwise.
    static func coordinate(_ context: some RequestContext) throws(APIError) -> TileCoordinate {
        func number(_ key: String, minimum: Int) throws(APIError) -> Int {
            guard let raw = context.parameters.get(key), raw.first != "+", let value = Int(raw), value >= minimum, value <= 1 << 30 else {
                throw .invalidField(key, "expected a whole number" + (minimum == 0 ? " >= 0" : ""))
            }
            return value
        }
        return TileCoordinate(z: try number("z", minimum: -(1 << 30)), x: try number("x", minimum: 0), y: try number("y", minimum: 0))
    }
}
