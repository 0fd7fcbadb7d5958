import Hummingbird
import PlanMarkExport
import PlanMarkGeometry
import PlanMarkRender
import PlanMarkSheets
import PlanMarkStore

/// `GET /drawings/{name}/review.png`: the drawing rendered with its regions and numbered markers.
///
/// Renders are heavy jobs (`HeavyWork`: bounded with reports and tile pyramids, 503 `server-busy` beyond its
/// queue; a render holds the decoded drawing in memory), cancelled between their stages (decode, draw,
/// encode) when the client goes away.
struct ReviewImageService: Sendable {
    /// The renderer.
    let renderer: ReviewRenderer
    /// The bound on renders, reports and tile pyramids.
    let heavy: HeavyWork

    /// Creates the service running renders as `heavy` jobs.
    init(renderer: ReviewRenderer = ReviewRenderer(), heavy: HeavyWork) {
        self.renderer = renderer
        self.heavy = heavy
    }

    /// Query: `around=N` (marker number), `margin=PX` (default 200), `scale=F` in (0, 1], `legend=true|false`,
    /// `markerSize=PX` (pin diameter in output pixels, in (0, 10000]; default from the image's size),
    /// and the marker filters of `GET .../markers` (`status=open,ready|all`, `category`, `assignee`, `priority`,
    /// `room`, `overdue`, `q`): only the markers they take are drawn. A legend (and the filters line) sits in a
    /// margin added beside or below the sheet, so the image is then larger than the sheet times `scale`.
    func respond(to request: Request, name: String, store: StoreAccess, visibleTo visible: [String]? = nil) async throws -> Response {
        let query = try QueryParameters(request)
        try query.onlyKeys(QueryParameters.filterKeys.union(["around", "margin", "scale", "legend", "markerSize"]))
        let around = try query.integer("around", minimum: 1)
        let margin = try query.integer("margin", minimum: 0) ?? 200
        guard margin <= 100_000 else { throw APIError.invalidField("margin", "expected at most 100000 pixels") }
        if query.values["margin"] != nil && around == nil { throw APIError.invalidField("margin", "only meaningful with around") }
        let scale = try query.number("scale") ?? 1
        guard scale > 0 && scale <= 1 else { throw APIError.invalidField("scale", "expected a number in (0, 1], found \(scale)") }
        let markerSize = try query.number("markerSize")
        if let markerSize, !(markerSize > 0 && markerSize <= 10_000) {
            throw APIError.invalidField("markerSize", "expected a number in (0, 10000], found \(markerSize)")
        }
        var filter = try query.markerFilter(allowAll: true)
        filter.assignedToAnyOf = visible
        let legend = try query.bool("legend") ?? false

        // Everything from the store in one snapshot-free pass; the render itself is gated.
        let (drawing, regions, markers, sheet) = try await store.run("reviewImageData") {
            store throws(StoreError) -> (Drawing, [Region], [Marker], DrawingImage) in
            let drawing = try await store.drawing(named: name).drawing
            let regions = try await store.regions(of: name)
            var markers: [Marker] = []
            try await store.forEachMarker(in: name, filter: filter) { markers.append($0); return true }
            if let around, !markers.contains(where: { $0.number == around }) {
                _ = try await store.marker(around, in: name)  // 404 for an unknown number
                throw StoreError.unknownMarker(drawing: name, number: around)  // exists, but filtered out
            }
            return (drawing, regions, markers, try await store.image(of: name))
        }
        // The filters line says which markers the image leaves out (`status=all` is no filter).
        let options = ReviewOptions(legend: legend, view: around.map { .around(label: String($0), margin: margin) } ?? .wholeSheet, scale: scale,
                                    filters: filter.summary, roomAreas: RoomAreas.of(regions, drawing: drawing), markerSize: markerSize)
        let renderer = self.renderer
        // A PDF drawing's page is drawn by planmark-pdf, a process of its own, before the render takes its turn.
        var drawnPage: RGBAImage?
        if sheet.pdf != nil {
            do throws(SheetError) {
                drawnPage = try await SheetPixels().image(sheet, source: "drawing \"\(drawing.name)\"")
            } catch {
                throw try APIError.sheet(error, page: sheet.pdf?.page)
            }
        }
        let png = try await heavy.run("review image of drawing \"\(name)\"") { () throws -> [UInt8] in
            let validator = MarkerValidator(regions: regions, size: drawing.size)
            let reviewMarkers = markers.map { ReviewMarker(stored: $0, validator: validator, today: filter.today) }
            let image: RGBAImage
            do throws(RenderError) {
                if let drawnPage { image = drawnPage } else { image = try PNGDecoder().decode(data: sheet.bytes, source: "drawing \"\(drawing.name)\"") }
            } catch {
                throw APIError(.internalServerError, code: "image-unavailable", message: "the drawing's image cannot be read",
                               detail: error.description)
            }
            do {
                try Task.checkCancellation()
                let rendered = try renderer.render(drawing: image, regions: regions, markers: reviewMarkers, options: options)
                try Task.checkCancellation()
                return try PNGEncoder().encode(rendered)
            } catch let error as ReviewError {
                switch error {
                case .markerNotFound, .markerOffDrawing:
                    throw APIError(.unprocessableContent, code: "marker-off-drawing", message: error.description)
                case .invalidScale, .invalidMargin:
                    throw APIError.invalidField("scale", error.description)
                case .invalidMarkerSize:
                    throw APIError.invalidField("markerSize", error.description)
                case .fontNotFound, .fontUnreadable:
                    throw APIError(.internalServerError, code: "render-failed", message: "the review image could not be drawn",
                                   detail: error.description)
                }
            } catch let error as RenderError {
                throw APIError(.internalServerError, code: "render-failed", message: "the review image could not be drawn",
                               detail: error.description)
            }
        }
        return Response(status: .ok, headers: [.contentType: "image/png", .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: png)))
    }
}
