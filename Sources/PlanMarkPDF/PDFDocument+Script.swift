import CCairo
import CPoppler
import PlanMarkPDFCore

extension PDFDocument {
    /// A page's vectors as CairoScript: what poppler draws onto a cairo script surface the page's size in points
    /// (`pageSize(page:)`, one unit a point, origin top-left), in print mode (lines as thin as the PDF says, not
    /// widened to a screen pixel; images at their own resolution; the annotations a printout shows). Text is kept as
    /// text (poppler shows glyphs with their Unicode text; cairo writes both), TrueType and OpenType fonts as the
    /// fonts' bytes (CairoScript type 42); other fonts as pictures of glyphs or as glyph procedures (type 3), which the
    /// caller's check (`PDFScriptCheck`) refuses.
    ///
    /// The script is collected in memory and refused once it would pass `maxBytes`: cairo is told that the write
    /// failed and stops writing.
    ///
    /// Only one call into poppler runs at a time on one `PDFDocument`.
    /// - Throws: `pageOutOfRange`, `pageTooLarge`, `notVectors` (over `maxBytes`, or cairo's script surface failed on
    ///   what poppler drew), `renderFailed` (poppler cannot read the page, cairo cannot make the surface).
    /// - Complexity: O(c + n) for a page of c drawing operations and a script of n bytes (at most `maxBytes`).
    public func script(page: Int, maxBytes: Int) throws(PDFError) -> [UInt8] {
        let size = try checkedSize(page: page)
        try checkSides(size, page: page)
        let sink = ScriptSink(maxBytes: maxBytes)
        // False once cairo has failed while recording (rather than poppler before it).
        var recorded = true
        let failure: String? = handle.withLock { handle in
            guard let popplerPage = poppler_document_get_page(handle.document, Int32(page - 1)) else {
                return "poppler cannot read the page"
            }
            defer { g_object_unref(UnsafeMutableRawPointer(popplerPage)) }
            let closure = Unmanaged.passUnretained(sink).toOpaque()
            guard let device = cairo_script_create_for_stream({ closure, data, length in
                let sink = Unmanaged<ScriptSink>.fromOpaque(closure!).takeUnretainedValue()
                return sink.append(data, Int(length)) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR
            }, closure) else { return "cairo cannot make a script device" }
            defer { cairo_device_destroy(device) }
            guard let surface = cairo_script_surface_create(device, CAIRO_CONTENT_COLOR_ALPHA, size.width, size.height) else {
                return "cairo cannot make a script surface"
            }
            defer { cairo_surface_destroy(surface) }
            guard let context = cairo_create(surface) else { return "cairo cannot make a context" }
            poppler_page_render_for_printing(popplerPage, context)
            var status = cairo_status(context)
            cairo_destroy(context)
            cairo_surface_finish(surface)
            if status == CAIRO_STATUS_SUCCESS { status = cairo_surface_status(surface) }
            cairo_device_finish(device)
            if status == CAIRO_STATUS_SUCCESS { status = cairo_device_status(device) }
            guard status == CAIRO_STATUS_SUCCESS || sink.overflowed else {
                recorded = false
                return String(cString: cairo_status_to_string(status))
            }
            return nil
        }
        if sink.overflowed {
            throw .notVectors(source: source, page: page, reason: "its CairoScript is over the limit of \(maxBytes) bytes")
        }
        if let failure {
            // cairo 1.16's script surface fails on some of what poppler draws (a soft mask of a gradient: "out of
            // memory"); the page can still be drawn as pixels.
            guard recorded else { throw .notVectors(source: source, page: page, reason: "cairo's script surface cannot record it (\(failure))") }
            throw .renderFailed(source: source, page: page, reason: failure)
        }
        return sink.bytes
    }
}

/// The script as cairo writes it, refused past `maxBytes`.
private final class ScriptSink {
    let maxBytes: Int
    var bytes: [UInt8] = []
    /// True once a write would have passed `maxBytes` (nothing more is kept).
    var overflowed = false

    init(maxBytes: Int) {
        self.maxBytes = maxBytes
    }

    /// Appends `count` bytes at `data`; false (and nothing appended) when they would pass `maxBytes`.
    /// - Complexity: O(count), amortised.
    func append(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Bool {
        guard !overflowed, count <= maxBytes - bytes.count else {
            overflowed = true
            return false
        }
        if count > 0, let data { bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: count)) }
        return true
    }
}
