#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CCairo
import PlanMarkFormats
import PlanMarkRender
import PlanMarkStore

/// Writes a `PunchListReport` as a PDF through cairo's PDF surface: page 1 with the title, the drawing's
/// name and revision, the date, the filters, the counts by status and the whole sheet; then one block per
/// marker with its fields, the crop around it, its photos and its last history entries; page numbers at
/// the foot of every page. Text is set in DejaVu Sans through cairo-ft, so it is selectable and searchable.
///
/// JPEG photos are embedded as they are (`cairo_surface_set_mime_data`, `image/jpeg`; cairo writes the
/// bytes as a DCTDecode stream, never decoding them); PNG photos, the sheet and the crops losslessly
/// (Flate). The PDF's bytes go to `output` as cairo produces them.
public struct ReportPDFWriter {
    /// The most of one photo's bytes read at once (a larger attachment is listed, not shown).
    public var maxPhotoBytes = 64 << 20

    /// Creates a writer.
    public init() {}

    /// Writes `report` to `output`, reading the drawing's image and the photos from `store`.
    ///
    /// Memory: one decoded drawing (4 bytes a pixel) while the crops are drawn (the sheet's decoded copy is
    /// released before), one crop, and one photo at a time (its bytes; a PNG's pixels twice); cairo keeps each
    /// page's pictures until the page is finished.
    /// - Complexity: O(drawing pixels + the markers' crops and photos + the text).
    public func write(_ report: PunchListReport, store: any AnnotationStore,
                      to output: @escaping (UnsafeRawBufferPointer) throws -> Void) throws(ReportError) {
        let fonts: ReportFonts
        switch ReportFonts.shared {
        case .success(let value): fonts = value
        case .failure(let error): throw error
        }
        let sink = StreamSink(output)
        let (width, height) = report.options.paper.points
        let closure = Unmanaged.passUnretained(sink).toOpaque()
        guard let surface = cairo_pdf_surface_create_for_stream({ closure, data, length in
            let sink = Unmanaged<StreamSink>.fromOpaque(closure!).takeUnretainedValue()
            return sink.write(UnsafeRawBufferPointer(start: data, count: Int(length))) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR
        }, closure, width, height) else { throw .cairo("cannot create a PDF surface") }
        defer { cairo_surface_destroy(surface) }
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, "\(report.options.title): \(report.drawing.name)")
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "planmark")
        guard let cr = cairo_create(surface) else { throw .cairo("cannot create a cairo context") }
        defer { cairo_destroy(cr) }
        var page = PDFPage(cr: cr, fonts: fonts, width: width, height: height, footer: report.drawing.name)
        let images = ReportImages(store: store, report: report)

        try firstPage(report, images: images, page: &page)
        try images.prepareCrops()
        for group in report.groups {
            if !group.heading.isEmpty {
                page.ensure(60)
                page.gap(6)
                page.text(group.heading + " (\(group.items.count))", size: 14, bold: true)
                page.rule(width: 1)
                page.gap(4)
            }
            for item in group.items {
                try block(item, images: images, page: &page)
                if let error = sink.error { throw .output(error) }
            }
        }
        images.releaseCrops()
        page.finish()
        cairo_surface_finish(surface)
        if let error = sink.error { throw .output(error) }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else { throw .cairo(String(cString: cairo_status_to_string(status))) }
    }

    /// Title, drawing and revision, date, filters, grouping, counts by status, room areas, then the sheet
    /// fitted into the rest of the page.
    private func firstPage(_ report: PunchListReport, images: ReportImages, page: inout PDFPage) throws(ReportError) {
        let options = report.options
        page.text(options.title, size: 20, bold: true)
        page.gap(4)
        page.field("Drawing", "\(report.drawing.name), revision \(options.revision) (\(report.drawing.width) x \(report.drawing.height) px)")
        page.field("Date", options.today.text)
        page.field("Filters", report.filtersText)
        if let grouping = options.grouping { page.field("Grouped by", grouping.rawValue) }
        page.field("Markers", report.countsLine)
        page.gap(2)
        for (status, count) in report.counts {
            page.field("  " + status.title, String(count), labelWidth: 130)
        }
        if !options.roomAreas.isEmpty {
            page.field("Room areas", options.roomAreas.map { "\($0.name) \(Self.area($0.squareMetres)) m²" }.joined(separator: ", "))
        }
        page.gap(8)
        let sheet = try images.sheet()
        let room = page.remaining - 4
        let scale = min(page.contentWidth / Double(sheet.width), room / Double(sheet.height))
        if scale * Double(sheet.height) < 120 { page.newPage() }
        let fit = min(page.contentWidth / Double(sheet.width), (page.remaining - 4) / Double(sheet.height))
        page.image(sheet, width: Double(sheet.width) * fit, height: Double(sheet.height) * fit)
        page.newPage()
    }

    /// One marker's block: heading, fields, crop and photos in rows, history.
    private func block(_ item: ReportItem, images: ReportImages, page: inout PDFPage) throws(ReportError) {
        let marker = item.marker
        page.ensure(110)
        page.gap(6)
        var heading = "#\(marker.number)  \(marker.status.title)"
        if item.overdue { heading += "  · OVERDUE" }
        page.text(heading, size: 13, bold: true, colour: item.overdue ? (0.75, 0.1, 0.1) : (0, 0, 0))
        for (label, value) in PunchListReport.fields(of: item) where label != "Status" {
            page.field(label, value)
        }
        // Pictures: the crop, then the photos, in rows of `pictureHeight`.
        let pictureHeight = 150.0
        var row = PictureRow(page: page, height: pictureHeight)
        if let crop = try images.crop(around: marker) {
            let w = pictureHeight * Double(crop.width) / Double(crop.height)
            row.place(width: w, page: &page) { page in page.image(crop, width: w, height: pictureHeight, advance: false) }
        }
        var notShown: [String] = []
        for attachment in item.attachments {
            let name = attachment.caption.map { "\"\($0)\"" } ?? "attachment \(attachment.id)"
            guard attachment.type != .pdf, attachment.size <= maxPhotoBytes else {
                notShown.append("\(name) (\(attachment.type.contentType), \(attachment.size) bytes)")
                continue
            }
            let bytes = try images.bytes(of: attachment)
            switch attachment.type {
            case .jpeg:
                guard let size = JPEGHeader.size(of: bytes) else { notShown.append("\(name) (unreadable JPEG)"); continue }
                let (w, h) = fit(size.width, size.height, maxWidth: page.contentWidth, maxHeight: pictureHeight)
                row.place(width: w, page: &page) { page in page.jpeg(bytes, pixelWidth: size.width, pixelHeight: size.height, width: w, height: h) }
            case .png:
                let image: RGBAImage
                do { image = try PNGDecoder().decode(data: bytes, source: "attachment \(attachment.id)") } catch {
                    notShown.append("\(name) (unreadable PNG)")
                    continue
                }
                let (w, h) = fit(image.width, image.height, maxWidth: page.contentWidth, maxHeight: pictureHeight)
                row.place(width: w, page: &page) { page in page.image(image, width: w, height: h, advance: false) }
            case .pdf:
                break
            }
        }
        row.end(page: &page)
        if !notShown.isEmpty { page.field("Not shown", notShown.joined(separator: "; ")) }
        if !item.history.isEmpty {
            page.text("History", size: 9, bold: true)
            for line in item.history { page.text(line, size: 8.5, indent: 10) }
        }
        page.gap(4)
        page.rule(width: 0.5)
    }

    private func fit(_ width: Int, _ height: Int, maxWidth: Double, maxHeight: Double) -> (Double, Double) {
        let scale = min(maxWidth / Double(width), maxHeight / Double(height))
        return (Double(width) * scale, Double(height) * scale)
    }

    /// `12.3` (one decimal).
    static func area(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        return "\(Int(tenths) / 10).\(abs(Int(tenths)) % 10)"
    }
}

/// Collects what cairo writes and passes it on; remembers the first error (cairo then stops writing).
private final class StreamSink {
    let output: (UnsafeRawBufferPointer) throws -> Void
    var error: (any Error)?

    init(_ output: @escaping (UnsafeRawBufferPointer) throws -> Void) { self.output = output }

    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard error == nil else { return false }
        do { try output(bytes) } catch {
            self.error = error
            return false
        }
        return true
    }
}

/// Pictures side by side at one height, wrapping to a new row (or page) when the width is used up.
private struct PictureRow {
    let height: Double
    var x = 0.0
    var started = false

    init(page: PDFPage, height: Double) { self.height = height }

    mutating func place(width: Double, page: inout PDFPage, draw: (inout PDFPage) -> Void) {
        if started && x + width > page.contentWidth + 0.01 {
            page.y += height + 6
            x = 0
            started = false
        }
        if !started {
            page.ensure(height + 6)
            started = true
        }
        let savedY = page.y
        page.x = page.margin + x
        draw(&page)
        page.x = page.margin
        page.y = savedY
        x += width + 6
    }

    mutating func end(page: inout PDFPage) {
        if started { page.y += height + 6 }
    }
}

/// A cursor over pages: text in lines that wrap at the margin, pictures, and a footer with the page number.
private struct PDFPage {
    let cr: OpaquePointer
    let fonts: ReportFonts
    let width: Double
    let height: Double
    let footer: String
    let margin = 42.0
    var x: Double
    var y: Double
    var number = 1
    /// The JPEG pictures of the page being written (a reference each), released once the page is shown.
    private var jpegs: [OpaquePointer] = []

    init(cr: OpaquePointer, fonts: ReportFonts, width: Double, height: Double, footer: String) {
        self.cr = cr
        self.fonts = fonts
        self.width = width
        self.height = height
        self.footer = footer
        x = margin
        y = margin
    }

    var contentWidth: Double { width - 2 * margin }
    var bottom: Double { height - margin - 14 }
    var remaining: Double { bottom - y }

    /// Starts a new page when less than `space` points are left on this one.
    mutating func ensure(_ space: Double) {
        if y > margin && remaining < space { newPage() }
    }

    mutating func gap(_ points: Double) { y += points }

    /// Ends the page with its footer and starts the next.
    mutating func newPage() {
        drawFooter()
        cairo_show_page(cr)
        releaseJPEGs()
        number += 1
        x = margin
        y = margin
    }

    /// Ends the last page.
    mutating func finish() {
        drawFooter()
        cairo_show_page(cr)
        releaseJPEGs()
    }

    /// cairo writes a page's pictures when the page is shown but keeps a reference to every picture until the
    /// document is finished; dropping the JPEG bytes from the pictures already written keeps only the current
    /// page's photos in memory instead of every photo of the report.
    private mutating func releaseJPEGs() {
        for surface in jpegs {
            cairo_surface_set_mime_data(surface, "image/jpeg", nil, 0, nil, nil)
            cairo_surface_finish(surface)
            cairo_surface_destroy(surface)
        }
        jpegs.removeAll()
    }

    private func drawFooter() {
        setFont(size: 8, bold: false)
        cairo_set_source_rgb(cr, 0.35, 0.35, 0.35)
        let label = "Page \(number)"
        cairo_move_to(cr, width - margin - measure(label), height - margin + 4)
        cairo_show_text(cr, label)
        cairo_move_to(cr, margin, height - margin + 4)
        cairo_show_text(cr, footer)
        cairo_set_source_rgb(cr, 0, 0, 0)
    }

    private func setFont(size: Double, bold: Bool) {
        cairo_set_font_face(cr, bold ? fonts.bold : fonts.regular)
        cairo_set_font_size(cr, size)
    }

    private func measure(_ text: String) -> Double {
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, text, &extents)
        return extents.x_advance
    }

    /// `text` wrapped into lines of at most `width` points (at spaces; a word too long for a line is cut).
    /// - Complexity: O(characters × words a line) measurements.
    private func wrap(_ text: String, width: Double) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                let candidate = line.isEmpty ? String(word) : line + " " + word
                if measure(candidate) <= width {
                    line = candidate
                    continue
                }
                if !line.isEmpty { lines.append(line) }
                line = ""
                var rest = Substring(word)
                while !rest.isEmpty && measure(String(rest)) > width {
                    var cut = rest.endIndex
                    while cut > rest.index(after: rest.startIndex) && measure(String(rest[..<cut])) > width { cut = rest.index(before: cut) }
                    lines.append(String(rest[..<cut]))
                    rest = rest[cut...]
                }
                line = String(rest)
            }
            lines.append(line)
        }
        return lines
    }

    /// A paragraph of text, wrapped.
    mutating func text(_ text: String, size: Double, bold: Bool = false, indent: Double = 0, colour: (Double, Double, Double) = (0, 0, 0)) {
        setFont(size: size, bold: bold)
        let lineHeight = size * 1.3
        for line in wrap(text, width: contentWidth - indent) {
            ensure(lineHeight)
            setFont(size: size, bold: bold)
            cairo_set_source_rgb(cr, colour.0, colour.1, colour.2)
            cairo_move_to(cr, margin + indent, y + size)
            cairo_show_text(cr, ReportBidi.visualOrder(line))
            y += lineHeight
        }
        cairo_set_source_rgb(cr, 0, 0, 0)
    }

    /// `Label:` in bold and the value beside it, wrapped under itself.
    mutating func field(_ label: String, _ value: String, labelWidth: Double = 70, size: Double = 9.5) {
        setFont(size: size, bold: false)
        let lineHeight = size * 1.35
        let lines = wrap(value, width: contentWidth - labelWidth)
        for (index, line) in lines.enumerated() {
            ensure(lineHeight)
            if index == 0 {
                setFont(size: size, bold: true)
                cairo_move_to(cr, margin, y + size)
                cairo_show_text(cr, label + (label.hasPrefix(" ") ? "" : ":"))
            }
            setFont(size: size, bold: false)
            cairo_move_to(cr, margin + labelWidth, y + size)
            cairo_show_text(cr, ReportBidi.visualOrder(line))
            y += lineHeight
        }
    }

    /// A horizontal line across the text column.
    mutating func rule(width lineWidth: Double) {
        cairo_set_source_rgb(cr, 0.6, 0.6, 0.6)
        cairo_set_line_width(cr, lineWidth)
        cairo_move_to(cr, margin, y)
        cairo_line_to(cr, width - margin, y)
        cairo_stroke(cr)
        cairo_set_source_rgb(cr, 0, 0, 0)
        y += 4
    }

    /// Draws `image` (flattened onto white) at the cursor, `w` x `h` points; moves below it when `advance`.
    /// - Complexity: O(image pixels).
    mutating func image(_ image: RGBAImage, width w: Double, height h: Double, advance: Bool = true) {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(image.width), Int32(image.height)) else { return }
        defer { cairo_surface_destroy(surface) }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { return }
        image.pixels.withUnsafeBufferPointer { source in
            for row in 0..<image.height {
                let out = UnsafeMutableRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self)
                var s = row * image.width * 4
                for column in 0..<image.width {
                    let a = UInt32(source[s + 3]), white = 255 * (255 - a)
                    let r = (UInt32(source[s]) * a + white + 127) / 255
                    let g = (UInt32(source[s + 1]) * a + white + 127) / 255
                    let b = (UInt32(source[s + 2]) * a + white + 127) / 255
                    out[column] = r << 16 | g << 8 | b
                    s += 4
                }
            }
        }
        cairo_surface_mark_dirty(surface)
        paint(surface, pixelWidth: image.width, pixelHeight: image.height, width: w, height: h)
        if advance { y += h }
    }

    /// Draws a JPEG at the cursor, embedded as it is (cairo reads only the attached JPEG bytes; the surface's
    /// own pixels are never written, so the kernel does not back them with memory).
    mutating func jpeg(_ bytes: [UInt8], pixelWidth: Int, pixelHeight: Int, width w: Double, height h: Double) {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(pixelWidth), Int32(pixelHeight)) else { return }
        defer { cairo_surface_destroy(surface) }
        guard let copy = malloc(bytes.count) else { return }
        bytes.withUnsafeBytes { _ = memcpy(copy, $0.baseAddress!, bytes.count) }
        let status = cairo_surface_set_mime_data(surface, "image/jpeg", copy.assumingMemoryBound(to: UInt8.self), UInt(bytes.count),
                                                 { free($0) }, copy)
        guard status == CAIRO_STATUS_SUCCESS else {
            free(copy)
            return
        }
        paint(surface, pixelWidth: pixelWidth, pixelHeight: pixelHeight, width: w, height: h)
        jpegs.append(cairo_surface_reference(surface))
    }

    private func paint(_ surface: OpaquePointer, pixelWidth: Int, pixelHeight: Int, width w: Double, height h: Double) {
        cairo_save(cr)
        cairo_translate(cr, x, y)
        cairo_scale(cr, w / Double(pixelWidth), h / Double(pixelHeight))
        cairo_set_source_surface(cr, surface, 0, 0)
        cairo_paint(cr)
        cairo_restore(cr)
    }
}
