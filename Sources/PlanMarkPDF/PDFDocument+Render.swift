import CCairo
import CPoppler
import PlanMarkPDFCore
import PlanMarkRender

extension PDFDocument {
    /// The longest side of one cairo image surface; a larger render is drawn in pieces this size or smaller into the
    /// one pixel buffer.
    static let cairoMaxSide = 32_767

    /// A whole page drawn at `dpi` pixels per inch on white paper: `pixelSize(page:dpi:)` pixels.
    /// - Throws: as `render(page:dpi:x:y:width:height:)`.
    /// - Complexity: as `render(page:dpi:x:y:width:height:)` for the whole page.
    public func render(page: Int, dpi: Double) throws(PDFError) -> RGBAImage {
        let size = try pixelSize(page: page, dpi: dpi)
        return try render(page: page, dpi: dpi, x: 0, y: 0, width: size.width, height: size.height)
    }

    /// A rectangle of a page drawn at `dpi` pixels per inch on white paper, as straight (not premultiplied) RGBA.
    ///
    /// The rectangle is in pixels of the whole page drawn at `dpi` (`pixelSize(page:dpi:)`), origin top-left: pixel
    /// (x, y) of the result is pixel (x + x0, y + y0) of that whole page. A rectangle may reach past the page (a tile
    /// on its right or bottom edge); what lies outside the page is white. The page is drawn by poppler with cairo
    /// (an ARGB32 image surface painted white, then scaled by dpi / 72), so any rectangle at any scale is drawn from
    /// the page's vectors, never from an image of the page.
    ///
    /// Only one render (or other call into poppler) runs at a time on one `PDFDocument`.
    ///
    /// - Parameters:
    ///   - page: the page, from 1.
    ///   - dpi: pixels per inch (72 is one pixel a point).
    ///   - x: the rectangle's left edge in pixels of the page at `dpi`.
    ///   - y: the rectangle's top edge in pixels of the page at `dpi`.
    ///   - width: the rectangle's width in pixels, 0 or more.
    ///   - height: the rectangle's height in pixels, 0 or more.
    /// - Throws: `pageOutOfRange`, `invalidArea` (`dpi` not positive and finite, a negative side), `pageTooLarge`,
    ///   `tooManyPixels` (over `limits.maxPixels`, checked before anything is allocated) or `renderFailed`.
    /// - Complexity: O(w * h + c * k) for a w x h rectangle and a page of c drawing operations, drawn in k pieces
    ///   (k = 1 unless a side is over 32,767 pixels).
    public func render(page: Int, dpi: Double, x: Int, y: Int, width: Int, height: Int) throws(PDFError) -> RGBAImage {
        let size = try checkedSize(page: page)
        try checkDPI(dpi, page: page)
        guard width >= 0, height >= 0 else {
            throw .invalidArea(source: source, page: page, reason: "a \(width)x\(height) rectangle has a negative side")
        }
        try checkSides(size, page: page)
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, count <= limits.maxPixels else {
            throw .tooManyPixels(source: source, page: page, width: width, height: height, max: limits.maxPixels)
        }
        let stride = width * 4
        guard stride <= Int(Int32.max) else {
            throw .renderFailed(source: source, page: page, reason: "a row of \(width) pixels is wider than cairo allows")
        }
        guard count > 0 else { return RGBAImage(width: width, height: height, pixels: []) }

        var pixels = [UInt8](repeating: 0, count: count * 4)
        let failure: String? = handle.withLock { handle in
            guard let popplerPage = poppler_document_get_page(handle.document, Int32(page - 1)) else {
                return "poppler cannot read the page"
            }
            defer { g_object_unref(UnsafeMutableRawPointer(popplerPage)) }
            return pixels.withUnsafeMutableBytes { buffer in
                for top in Swift.stride(from: 0, to: height, by: PDFDocument.cairoMaxSide) {
                    for left in Swift.stride(from: 0, to: width, by: PDFDocument.cairoMaxSide) {
                        let piece = Piece(
                            left: left, top: top,
                            width: min(PDFDocument.cairoMaxSide, width - left), height: min(PDFDocument.cairoMaxSide, height - top)
                        )
                        if let failure = PDFDocument.draw(
                            popplerPage, into: buffer, stride: stride, piece: piece, scale: dpi / 72, origin: (Double(x), Double(y))
                        ) {
                            return failure
                        }
                    }
                }
                return nil
            }
        }
        if let failure { throw .renderFailed(source: source, page: page, reason: failure) }
        PDFDocument.unpremultiply(&pixels)
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// A part of a render drawn by one cairo surface, in pixels of the render.
    private struct Piece {
        var left: Int, top: Int, width: Int, height: Int
    }

    /// Draws `piece` of the render (whose top-left is `origin` in pixels of the page at this scale) into `buffer`
    /// (the whole render, `stride` bytes a row, cairo's ARGB32: premultiplied, native-endian 32-bit words); nil when
    /// it worked, else cairo's or poppler's reason.
    /// - Complexity: O(w * h + c) for a w x h piece and c drawing operations on the page.
    private static func draw(
        _ page: OpaquePointer, into buffer: UnsafeMutableRawBufferPointer, stride: Int, piece: Piece, scale: Double,
        origin: (x: Double, y: Double)
    ) -> String? {
        guard let base = buffer.baseAddress else { return "no pixel buffer" }
        let start = (base + piece.top * stride + piece.left * 4).assumingMemoryBound(to: UInt8.self)
        guard let surface = cairo_image_surface_create_for_data(start, CAIRO_FORMAT_ARGB32, Int32(piece.width), Int32(piece.height), Int32(stride)) else {
            return "cairo cannot make an image surface"
        }
        defer { cairo_surface_destroy(surface) }
        var status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else { return String(cString: cairo_status_to_string(status)) }
        guard let context = cairo_create(surface) else { return "cairo cannot make a context" }
        cairo_set_source_rgb(context, 1, 1, 1)
        cairo_paint(context)
        // Device pixel = page point * scale - (origin + piece's corner): translate (in pixels), then scale.
        cairo_translate(context, -(origin.x + Double(piece.left)), -(origin.y + Double(piece.top)))
        cairo_scale(context, scale, scale)
        poppler_page_render(page, context)
        status = cairo_status(context)
        cairo_destroy(context)
        cairo_surface_flush(surface)
        guard status == CAIRO_STATUS_SUCCESS else { return String(cString: cairo_status_to_string(status)) }
        return nil
    }

    /// Turns cairo's ARGB32 words (premultiplied alpha, native byte order) into RGBA bytes with straight alpha, in
    /// place.
    /// - Complexity: O(n) for n pixels.
    static func unpremultiply(_ pixels: inout [UInt8]) {
        pixels.withUnsafeMutableBytes { buffer in
            for offset in Swift.stride(from: 0, to: buffer.count, by: 4) {
                let word = buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                let alpha = word >> 24
                var red = (word >> 16) & 0xFF, green = (word >> 8) & 0xFF, blue = word & 0xFF
                if alpha != 255 {
                    if alpha == 0 {
                        red = 0; green = 0; blue = 0
                    } else {
                        red = min(255, (red * 255 + alpha / 2) / alpha)
                        green = min(255, (green * 255 + alpha / 2) / alpha)
                        blue = min(255, (blue * 255 + alpha / 2) / alpha)
                    }
                }
                buffer[offset] = UInt8(red)
                buffer[offset + 1] = UInt8(green)
                buffer[offset + 2] = UInt8(blue)
                buffer[offset + 3] = UInt8(alpha)
            }
        }
    }
}
