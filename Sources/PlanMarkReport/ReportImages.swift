import PlanMarkExport
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkPDFCore
import PlanMarkPDFProcess
import PlanMarkPDFVectors
import PlanMarkRender
import PlanMarkSheets
import PlanMarkStore

/// Why a report could not be made.
public enum ReportError: Error, CustomStringConvertible {
    /// The store refused (unknown drawing, I/O, ...).
    case store(StoreError)
    /// The drawing's image or a PNG photo could not be decoded, or a PNG not encoded.
    case render(RenderError)
    /// A PDF drawing's page could not be drawn (`planmark-pdf` refused it, crashed or ran out of time).
    case sheet(SheetError)
    /// The review renderer refused (font missing, ...).
    case review(ReviewError)
    /// A font file is missing or unreadable.
    case font(path: String, message: String)
    /// cairo failed (out of memory, ...), with its status text.
    case cairo(String)
    /// Writing the output failed (the sink's own error, kept whole).
    case output(any Error)
    /// The report was abandoned while it was being made (its client went away, or the service is stopping):
    /// `isCancelled` answered true.
    case cancelled

    public var description: String {
        switch self {
        case .store(let error): return String(describing: error)
        case .render(let error): return error.description
        case .sheet(let error): return error.description
        case .review(let error): return error.description
        case .font(let path, let message): return "\(path): \(message)"
        case .cairo(let message): return "cairo: \(message)"
        case .output(let error): return String(describing: error)
        case .cancelled: return "the report was cancelled before it was finished"
        }
    }
}

/// The pictures of a report: the whole sheet with its markers and the crop around each marker (the review
/// renderer's images), and the photos' bytes. Reads the drawing's image from the store; photos are read one
/// at a time when asked for, so no more than one is held.
///
/// Memory: the drawing is decoded once (`prepareCrops`), for the sheet and the crops, and held until the report
/// is written: whole when it has at most `cropFullResolutionPixels` pixels, else at half size in each direction,
/// its rows box-averaged as they are read (`PNGDecoder.thumbnail`; the sheet is at most `sheetLongSide` pixels and
/// a crop at most `cropLongSide`, a fraction of the drawing's pixels on a big sheet: an A0 sheet at 300 dpi is
/// 139.5 MB at half size instead of 558 MB). The worst case is that copy plus the sheet's picture, one crop and one
/// photo (its bytes and, for a PNG, its pixels twice).
final class ReportImages {
    /// The longest side of the whole-sheet picture, in pixels (about 240 dpi across an A4 page's width).
    static let sheetLongSide = 2000
    /// Drawing pixels kept on each side of a marker in its crop (fewer at the sheet's edges).
    static let cropMargin = 300
    /// The longest side of a crop picture, in pixels.
    static let cropLongSide = 480

    let store: any AnnotationStore
    let report: PunchListReport
    let renderer: ReviewRenderer
    private var drawing: RGBAImage?
    private let reviewMarkers: [ReviewMarker]
    /// The decoded drawing's size over the drawing's, in x and y (1 when decoded whole), and the regions and markers
    /// carried onto it.
    private var cropScale = (x: 1.0, y: 1.0)
    private var cropRegions: [Region] = []
    private var cropMarkers: [ReviewMarker] = []

    /// Drawings of more pixels than this are decoded for the crops at half size (40 Mpx: 160 MB decoded whole;
    /// an A2 sheet at 300 dpi).
    static let cropFullResolutionPixels = 40_000_000

    init(store: any AnnotationStore, report: PunchListReport, fontPath: String? = nil) {
        self.store = store
        self.report = report
        renderer = ReviewRenderer(fontPath: fontPath)
        let validator = MarkerValidator(regions: report.regions, size: report.drawing.size)
        reviewMarkers = report.markers.map { ReviewMarker(stored: $0, validator: validator, today: report.options.today) }
    }

    /// The drawing decoded whole, or (`fitting` a width and height) box-averaged into a picture of at most that size,
    /// flattened onto white, never held whole.
    private func decodeDrawing(fitting size: (width: Int, height: Int)? = nil) async throws(ReportError) -> RGBAImage {
        let image: DrawingImage
        do { image = try await store.image(of: report.drawing.name) } catch { throw .store(error) }
        let source = "drawing \"\(report.drawing.name)\""
        do throws(SheetError) {
            guard let size else { return try await SheetPixels().image(image, source: source) }
            return try await SheetPixels().image(image, source: source, fitting: size, drawing: (report.drawing.width, report.drawing.height))
        } catch {
            if case .png(let error) = error { throw .render(error) }
            throw .sheet(error)
        }
    }

    /// `regions` and `markers` carried onto a picture of the drawing `scale` times its size.
    /// - Complexity: O(regions' vertices + markers).
    private static func carried(_ regions: [Region], _ markers: [ReviewMarker], scale: (x: Double, y: Double)) -> ([Region], [ReviewMarker]) {
        guard scale != (1, 1) else { return (regions, markers) }
        let map = AffineMap(a: scale.x, b: 0, c: 0, d: 0, e: scale.y, f: 0)
        let carriedRegions = regions.compactMap { try? $0.transformed(by: map) }
        let carriedMarkers = markers.map { marker in
            var moved = marker
            moved.position = map.apply(marker.position)
            return moved
        }
        return (carriedRegions, carriedMarkers)
    }

    /// The sheet's legend, as the review image's legend (`ReviewLegendEntry.entries`): rooms, allowed areas, the
    /// listed markers by status (and overdue, and refused by the current regions), with their counts.
    /// - Complexity: O(markers + regions).
    var legend: [ReviewLegendEntry] {
        ReviewLegendEntry.entries(markers: reviewMarkers, regions: report.regions, style: .standard)
    }

    /// The whole sheet with regions and the listed markers, downscaled so that its longer side is at most
    /// `sheetLongSide`, without a legend (the writers set `legend` in their own type). It is drawn from the copy the
    /// crops use (`prepareCrops`), so the drawing is decoded once for both.
    /// - Complexity: O(drawing pixels) to decode and downscale, plus the review renderer's drawing work.
    func sheet() async throws(ReportError) -> RGBAImage {
        try await prepareCrops()
        guard let drawing else { throw .cairo("the drawing was released before its sheet was drawn") }
        let fit = min(1, Double(Self.sheetLongSide) / Double(max(drawing.width, drawing.height)))
        // The legend is set in the page's own type below the sheet (`legend`): drawn into the sheet it would shrink
        // with it and be unreadable.
        do {
            guard cropScale != (1, 1) else {
                // Decoded whole: the renderer downscales it (flattened onto white first, so transparency averages right).
                return try renderer.render(drawing: drawing, regions: report.regions, markers: reviewMarkers, options: ReviewOptions(legend: false, scale: fit))
            }
            // The half-size copy (opaque: flattened as it was decoded) is downscaled here, into a picture of its own (the
            // renderer would copy the whole copy first), and the regions and markers carried onto it.
            let picture = drawing.downscaled(width: max(1, Int((Double(drawing.width) * fit).rounded())),
                                             height: max(1, Int((Double(drawing.height) * fit).rounded())))
            let (regions, markers) = Self.carried(report.regions, reviewMarkers,
                                                  scale: (Double(picture.width) / Double(report.drawing.width),
                                                          Double(picture.height) / Double(report.drawing.height)))
            return try renderer.render(drawing: picture, regions: regions, markers: markers, options: ReviewOptions(legend: false))
        } catch {
            throw .review(error)
        }
    }

    /// The whole sheet for the PDF report: a PDF drawing's page as vectors (`planmark-pdf script`, replayed) with the
    /// regions and markers as vectors over it (`ReviewRenderer.overlay`, the layout of the `sheet()` picture), or else
    /// the picture (`sheet()`), with how it came out. A PDF page that cannot be kept as vectors (a font CairoScript
    /// carries only as glyph pictures, a script over its limits, one that does not replay, a child that failed) is
    /// drawn as pixels, as before, and `ReportSheetDrawing.pixels` says why; a child that ran out of time or was
    /// cancelled is not tried again as pixels (the report fails as it did).
    /// - Complexity: the child's work on the page, the script's replay (O(its bytes)), the overlay's layout; or
    ///   `sheet()`'s.
    func pdfSheet() async throws(ReportError) -> (sheet: ReportSheet, drawing: ReportSheetDrawing) {
        // A PNG drawing's image is not read here: `sheet()` reads it once for the sheet and the crops.
        guard report.drawing.pdf != nil else { return (.picture(try await sheet()), .picture) }
        let image: DrawingImage
        do { image = try await store.image(of: report.drawing.name) } catch { throw .store(error) }
        let reason: String
        do throws(VectorFailure) {
            return (.vectors(try await vectorSheet(image)), .vectors)
        } catch {
            switch error {
            case .fatal(let error): throw error
            case .notVectors(let why): reason = why
            }
        }
        return (.picture(try await sheet()), .pixels(reason: reason))
    }

    /// Why a PDF drawing's page is not on the sheet page as vectors.
    private enum VectorFailure: Error {
        /// The page can still be drawn as pixels; why it is not vectors.
        case notVectors(String)
        /// The report fails as it would have as pixels.
        case fatal(ReportError)
    }

    /// The PDF drawing's page as vectors and the overlay for it.
    /// - Complexity: the child's work on the page, O(the script's bytes) to check and replay it, the overlay's layout.
    private func vectorSheet(_ image: DrawingImage) async throws(VectorFailure) -> ReportVectorSheet {
        let source = "drawing \"\(report.drawing.name)\""
        let made: [UInt8]?
        do throws(SheetError) {
            made = try await SheetPixels().script(image, source: source)
        } catch {
            switch error {
            case .pdf(.timedOut), .pdf(.cancelled): throw .fatal(.sheet(error))
            case .pdf(.refused(_, _, let message)): throw .notVectors(message)
            default: throw .notVectors(error.description)
            }
        }
        guard let script = made else { throw .notVectors("the drawing is not a PDF") }
        let page: PDFVectorPage
        do { page = try PDFVectorPage(script: script) } catch { throw .notVectors("\(source): \(error.description)") }
        let (width, height) = (report.drawing.width, report.drawing.height)
        let fit = min(1, Double(Self.sheetLongSide) / Double(max(width, height, 1)))
        let dpi = Double(image.pdf?.dpi ?? 72)
        let coverage = (x: min(1, page.width * dpi / 72 / Double(max(width, 1))), y: min(1, page.height * dpi / 72 / Double(max(height, 1))))
        do {
            let overlay = try renderer.overlay(drawingWidth: width, drawingHeight: height, regions: report.regions, markers: reviewMarkers, scale: fit)
            return ReportVectorSheet(page: page, overlay: overlay, coverage: coverage)
        } catch {
            throw .fatal(.review(error))
        }
    }

    /// Decodes the drawing for `crop(around:)` (once): whole, or at half size when it has more than
    /// `cropFullResolutionPixels` pixels.
    func prepareCrops() async throws(ReportError) {
        guard drawing == nil else { return }
        let (width, height) = (report.drawing.width, report.drawing.height)
        let half = width * height > Self.cropFullResolutionPixels
        let decoded = try await decodeDrawing(fitting: half ? ((width + 1) / 2, (height + 1) / 2) : nil)
        cropScale = (Double(decoded.width) / Double(width), Double(decoded.height) / Double(height))
        (cropRegions, cropMarkers) = Self.carried(report.regions, reviewMarkers, scale: cropScale)
        drawing = decoded
    }

    /// Releases the decoded drawing.
    func releaseCrops() { drawing = nil }

    /// The sheet around `marker` (`ReviewView.around`, `cropMargin(around:)` pixels each side) with its pin and any
    /// other listed pins in view, downscaled to at most `cropLongSide` pixels a side, pins `cropPinSize` pixels
    /// across; nil when the marker lies off the sheet.
    /// - Complexity: O(crop pixels) plus the renderer's work for the markers and regions in view.
    func crop(around marker: Marker) async throws(ReportError) -> RGBAImage? {
        try await prepareCrops()
        guard let drawing else { return nil }
        let full = Self.cropMargin(around: marker, regions: report.regions, drawing: report.drawing.size)
        let margin = Int((Double(full) * max(cropScale.x, cropScale.y)).rounded(.up))
        let scale = min(1, Double(Self.cropLongSide) / Double(2 * margin))
        let options = ReviewOptions(view: .around(label: String(marker.number), margin: margin), scale: scale,
                                    markerSize: Self.cropPinSize)
        do {
            // The renderer crops before it writes, so the shared pixels are not copied.
            return try renderer.render(drawing: drawing, regions: cropRegions, markers: cropMarkers, options: options)
        } catch {
            switch error {
            case .markerOffDrawing, .markerNotFound: return nil
            default: throw .review(error)
            }
        }
    }

    /// The most drawing pixels a crop keeps each side of its pin (a 25 m wide view of an A0 sheet at 300 dpi and 1:100):
    /// a corridor's box can span the building, and a crop 150 pt wide shows no more of it usefully; the crop's
    /// work grows with the pixels it covers.
    static let cropMarginCeiling = 1500

    /// The diameter of a one-digit pin in a crop, in the crop's pixels: about 9 pt in the card's 150 pt cell.
    static let cropPinSize = 28.0

    /// Drawing pixels kept on each side of `marker` in its crop: enough to show the smallest of its rooms whole,
    /// with a tenth of the room's longer side around it, at least `cropMargin / 2` and at most a quarter of the
    /// sheet's longer side or `cropMarginCeiling`, whichever is less (but never less than `cropMargin`);
    /// `cropMargin` when no room covers it. The room is
    /// what a reader finds the item by, so the crop is sized from it, not fixed pixels: 300 px is a door on an A0
    /// sheet at 300 dpi and a whole flat on a phone photo.
    /// - Complexity: O(regions).
    static func cropMargin(around marker: Marker, regions: [Region], drawing: DrawingSize) -> Int {
        let point = marker.position
        var best: BoundingBox?
        for region in regions where region.kind == .room && marker.rooms.contains(region.id) {
            let box = region.bounds
            if let known = best, (known.maxX - known.minX) * (known.maxY - known.minY) <= (box.maxX - box.minX) * (box.maxY - box.minY) { continue }
            best = box
        }
        guard let box = best, point.x.isFinite, point.y.isFinite else { return cropMargin }
        let reach = max(point.x - box.minX, box.maxX - point.x, point.y - box.minY, box.maxY - point.y)
        let wanted = reach + 0.1 * max(box.maxX - box.minX, box.maxY - box.minY)
        let ceiling = max(Double(cropMargin), min(max(drawing.width, drawing.height) / 4, Double(cropMarginCeiling)))
        return Int(min(max(wanted, Double(cropMargin) / 2), ceiling).rounded(.up))
    }

    /// An attachment's bytes, read from the store.
    func bytes(of attachment: Attachment) async throws(ReportError) -> [UInt8] {
        do { return try await store.attachment(attachment.id, ofMarker: attachment.number, in: report.drawing.name).1 } catch { throw .store(error) }
    }
}
