import Foundation
import PlanMarkPDFCore
import PlanMarkPDFProcess
import PlanMarkRender
import PlanMarkStore

/// A drawing's sheet as pixels, whatever it was delivered as: a PNG decoded, or a page of a PDF drawn by
/// `planmark-pdf` (a child process with limits and a time limit, so a PDF that crashes or hangs the PDF library costs
/// the caller one error) at the drawing's resolution, or at the resolution of the picture asked for.
///
/// The review image, `planmark render` and the report get their sheet here, so each draws a PDF drawing as it draws a
/// PNG one. The report also gets a PDF drawing's page as vectors here (`script`).
public struct SheetPixels: Sendable {
    /// The child process that draws PDF pages.
    public var renderer: PDFRenderer
    /// The PNG decoder (its limits).
    public var decoder: PNGDecoder
    /// The folder the PDF is written to for the child to read (removed after each drawing).
    public var scratch: String

    /// Sheets decoded by `decoder` and drawn by `renderer`, PDFs written to `scratch` (default: the system's
    /// temporary folder) while they are drawn.
    public init(renderer: PDFRenderer = PDFRenderer(), decoder: PNGDecoder = PNGDecoder(), scratch: String? = nil) {
        self.renderer = renderer
        self.decoder = decoder
        self.scratch = scratch ?? NSTemporaryDirectory()
    }

    /// The whole sheet at the drawing's size: the PNG decoded, or the PDF page drawn at the drawing's dpi (white paper).
    /// - Parameters:
    ///   - image: the drawing's (or a revision's) image as stored.
    ///   - source: how messages name it (`drawing "Level 2"`).
    /// - Throws: `SheetError`.
    /// - Complexity: O(width × height) time and memory (4 bytes a pixel), plus the PDF page's drawing operations.
    public func image(_ image: DrawingImage, source: String) async throws(SheetError) -> RGBAImage {
        guard let pdf = image.pdf else {
            do { return try decoder.decode(data: image.bytes, source: source) } catch { throw .png(error) }
        }
        return try await drawn(image.bytes, page: pdf.page, dpi: Double(pdf.dpi), source: source)
    }

    /// The sheet in a picture of at most `fitting` pixels, keeping its proportions: the PNG box-averaged into it as it is
    /// decoded (`PNGDecoder.thumbnail`), or the PDF page drawn at the resolution that fits (never above the drawing's).
    /// - Throws: `SheetError`.
    /// - Complexity: O(the PNG's pixels) or O(the picture's pixels + the page's drawing operations) time; memory the
    ///   picture.
    public func image(_ image: DrawingImage, source: String, fitting size: (width: Int, height: Int), drawing: (width: Int, height: Int))
        async throws(SheetError) -> RGBAImage {
        guard let pdf = image.pdf else {
            do {
                return try decoder.thumbnail(data: image.bytes, source: source, maxWidth: size.width, maxHeight: size.height)
            } catch {
                throw .png(error)
            }
        }
        return try await drawn(image.bytes, page: pdf.page, dpi: Self.fittingDPI(pdf.dpi, drawing: drawing, fitting: size), source: source)
    }

    /// The resolution at which a page that is `drawing` pixels at `dpi` fits in `size`: `dpi` scaled by the smaller
    /// ratio of the sides (at most 1), then lowered until `PDFPixels.side` of each side (rounded up) is within `size`.
    /// - Complexity: O(1).
    static func fittingDPI(_ dpi: Int, drawing: (width: Int, height: Int), fitting size: (width: Int, height: Int)) -> Double {
        let ratio = min(1, Double(size.width) / Double(max(drawing.width, 1)), Double(size.height) / Double(max(drawing.height, 1)))
        // The page in points, from its pixel size at dpi (within a pixel of it), then the largest dpi whose rounded-up
        // sides fit: a side of p points is ceil(p * d / 72) pixels.
        let points = (Double(drawing.width) * 72 / Double(dpi), Double(drawing.height) * 72 / Double(dpi))
        var fitted = Double(dpi) * ratio
        for _ in 0..<4 {
            let width = PDFPixels.side(points: points.0, dpi: fitted) ?? 0, height = PDFPixels.side(points: points.1, dpi: fitted) ?? 0
            if width <= size.width && height <= size.height { break }
            fitted *= 0.999
        }
        return fitted
    }

    /// A PDF drawing's page as vectors: its CairoScript from `planmark-pdf script` (`PDFRenderer.script`), for the
    /// report's sheet page to replay (PlanMarkPDFVectors' `PDFVectorPage`); nil for a PNG drawing.
    /// - Throws: `SheetError`: `.pdf` with `refused` `not_vectors` for a page that cannot be kept as vectors (the caller
    ///   draws it as pixels instead), or any other `PDFProcessError` of the child; `.scratch`.
    /// - Complexity: O(the page's drawing operations + the script's bytes) in the child; memory the script (at most
    ///   `limits.maxBytes`).
    public func script(_ image: DrawingImage, source: String, limits: PDFScriptLimits = PDFScriptLimits()) async throws(SheetError) -> [UInt8]? {
        guard let pdf = image.pdf else { return nil }
        let renderer = self.renderer
        return try await withScratch(image.bytes) { path throws(PDFProcessError) in
            try await renderer.script(file: path, page: pdf.page, limits: limits, name: source)
        }
    }

    /// Writes the PDF to a file of its own in `scratch`, draws the page, removes the file.
    /// - Complexity: O(the PDF's bytes) to write it, and the child's render.
    private func drawn(_ bytes: [UInt8], page: Int, dpi: Double, source: String) async throws(SheetError) -> RGBAImage {
        let renderer = self.renderer
        return try await withScratch(bytes) { path throws(PDFProcessError) in
            try await renderer.render(file: path, page: page, dpi: dpi, name: source)
        }
    }

    /// Writes the PDF's `bytes` to a file of its own in `scratch` (mode 0600), runs `body` on its path, removes it.
    /// - Complexity: O(the PDF's bytes), and `body`'s.
    private func withScratch<T>(_ bytes: [UInt8], _ body: (String) async throws(PDFProcessError) -> T) async throws(SheetError) -> T {
        let path = scratch + (scratch.hasSuffix("/") ? "" : "/") + "planmark-sheet-\(UUID().uuidString).pdf"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes), attributes: [.posixPermissions: 0o600]) else {
            throw .scratch(path: path, reason: String(cString: strerror(errno)))
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            return try await body(path)
        } catch {
            throw .pdf(error)
        }
    }
}
