import PlanMarkExport
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkRender
import PlanMarkStore

/// Why a report could not be made.
public enum ReportError: Error, CustomStringConvertible {
    /// The store refused (unknown drawing, I/O, ...).
    case store(StoreError)
    /// The drawing's image or a PNG photo could not be decoded, or a PNG not encoded.
    case render(RenderError)
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
/// Memory: the sheet is drawn from one decoded copy of the drawing (RGBA, 4 bytes a pixel), which is
/// downscaled and then released; the crops need the decoded drawing again (`prepareCrops`) and hold it until
/// the report is written. The worst case is one decoded drawing plus one crop plus one photo (its bytes and,
/// for a PNG, its pixels twice).
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

    init(store: any AnnotationStore, report: PunchListReport, fontPath: String? = nil) {
        self.store = store
        self.report = report
        renderer = ReviewRenderer(fontPath: fontPath)
        let validator = MarkerValidator(regions: report.regions, size: report.drawing.size)
        reviewMarkers = report.markers.map { ReviewMarker(stored: $0, validator: validator, today: report.options.today) }
    }

    private func decodeDrawing() async throws(ReportError) -> RGBAImage {
        let bytes: [UInt8]
        do { bytes = try await store.image(of: report.drawing.name).bytes } catch { throw .store(error) }
        do { return try PNGDecoder().decode(data: bytes, source: "drawing \"\(report.drawing.name)\"") } catch { throw .render(error) }
    }

    /// The whole sheet with regions and the listed markers, downscaled so that its longer side is at most
    /// `sheetLongSide`, with the legend and its room areas when they are given.
    /// - Complexity: O(drawing pixels) to decode and downscale, plus the review renderer's drawing work.
    func sheet() async throws(ReportError) -> RGBAImage {
        let image = try await decodeDrawing()
        let longSide = max(image.width, image.height)
        let scale = min(1, Double(Self.sheetLongSide) / Double(longSide))
        // The page says which filters chose the markers, in type a reader can read; the sheet's own panel would
        // repeat it at the sheet's scale.
        let options = ReviewOptions(legend: !report.options.roomAreas.isEmpty, scale: scale, roomAreas: report.options.roomAreas)
        do {
            return try renderer.render(drawing: image, regions: report.regions, markers: reviewMarkers, options: options)
        } catch {
            throw .review(error)
        }
    }

    /// Decodes the drawing for `crop(around:)` (once).
    func prepareCrops() async throws(ReportError) {
        if drawing == nil { drawing = try await decodeDrawing() }
    }

    /// Releases the decoded drawing.
    func releaseCrops() { drawing = nil }

    /// The sheet around `marker` (`ReviewView.around`, `cropMargin` pixels each side) with its pin and any
    /// other listed pins in view, downscaled to at most `cropLongSide` pixels a side; nil when the marker lies
    /// off the sheet.
    /// - Complexity: O(crop pixels) plus the renderer's work for the markers and regions in view.
    func crop(around marker: Marker) async throws(ReportError) -> RGBAImage? {
        try await prepareCrops()
        guard let drawing else { return nil }
        let side = Double(2 * Self.cropMargin)
        let scale = min(1, Double(Self.cropLongSide) / side)
        let options = ReviewOptions(view: .around(label: String(marker.number), margin: Self.cropMargin), scale: scale)
        do {
            // The renderer crops before it writes, so the shared pixels are not copied.
            return try renderer.render(drawing: drawing, regions: report.regions, markers: reviewMarkers, options: options)
        } catch {
            switch error {
            case .markerOffDrawing, .markerNotFound: return nil
            default: throw .review(error)
            }
        }
    }

    /// An attachment's bytes, read from the store.
    func bytes(of attachment: Attachment) async throws(ReportError) -> [UInt8] {
        do { return try await store.attachment(attachment.id, ofMarker: attachment.number, in: report.drawing.name).1 } catch { throw .store(error) }
    }
}
