#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CCairo
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkRender
import PlanMarkStore

/// Writes a `PunchListReport` as a PDF through cairo's PDF surface: page 1 with the title, the drawing's
/// name and revision, the date, the filters, the counts by status and the whole sheet; then one card per
/// marker (the crop around it beside its fields and who raised it, its note, photos, last history entries
/// and comments), measured before it is drawn so that it is never split across pages (only a card taller
/// than a page breaks, between lines). The report is laid out once without drawing to count its pages, so
/// every foot says `Page N of M` with the drawing, revision and date. Text is set in DejaVu Sans through
/// cairo-ft, so it is selectable and searchable.
///
/// JPEG photos within `PhotoSize`'s limits are embedded as they are (`cairo_surface_set_mime_data`,
/// `image/jpeg`; cairo writes the bytes as a DCTDecode stream, never decoding them); PNG photos are decoded a
/// band of rows at a time into a picture of at most `photoMaxPixelWidth` x `photoMaxPixelHeight` pixels and
/// embedded losslessly (Flate), as are the crops and a PNG drawing's sheet. A PDF drawing's sheet goes in as the
/// page's vectors (`planmark-pdf script` replayed: its lines, fills, images and text as the PDF has them, the text
/// selectable), the regions and pins drawn over it as vectors; a page that cannot be kept so (a Type 1, CFF or Type 3
/// font, a script over its limits ...) as pixels, and `ReportWritten.sheet` says why. A photo that is not shown (a
/// PDF, over the limits, unreadable) is listed under `Not shown:` with the reason. The PDF's bytes go to `output` as
/// cairo produces them, page by page: the writer never holds the document.
///
/// Text is drawn as stored except for what cairo refuses (Unicode noncharacters such as U+FFFE or U+FDD0, and
/// NUL), which is drawn as U+FFFD; cairo's status is checked after every block, so a cairo error is an error
/// (`ReportError.cairo`), never a report that silently ends early.
public struct ReportPDFWriter {
    /// The most of one photo's bytes read at once (a larger attachment is listed, not shown).
    public var maxPhotoBytes = 64 << 20
    /// The largest picture a PNG photo is decoded into, in pixels (it is shown 150 pt high, at most the text
    /// column's 511 pt wide: about 290 dpi).
    public var photoMaxPixelWidth = 2048
    public var photoMaxPixelHeight = 600

    /// Creates a writer.
    public init() {}

    /// Writes `report` to `output`, reading the drawing's image and the photos from `store`. `isCancelled` is
    /// asked between marker blocks, between photos and at every page break (it must be cheap: a flag); once it
    /// answers true the writer stops and throws `ReportError.cancelled`, with the PDF unfinished. Returns the
    /// number of pages written and how the sheet was drawn (`ReportWritten`).
    ///
    /// Memory: the drawing decoded once for the sheet and the crops (`ReportImages`: whole, or at half size beyond
    /// 40 Mpx; the sheet's picture is kept until page 1 is drawn; a PDF drawing's page as vectors, its script replayed,
    /// until the PDF is finished), one crop, and one photo at a time (its bytes, and a PNG's picture plus 16 rows; each
    /// photo is read three times: for its size when the report is laid out, to draw it on its card, and on the
    /// photos' appendix); the pictures of the page being written, released when the page is shown; the text of one
    /// marker block. The PDF itself is passed on as cairo writes it (a page at a time), never held.
    /// - Complexity: O(drawing pixels + the markers' crops and photos' pixels + the text's length): line
    ///   wrapping is linear in the text (`PDFPage.wrap`).
    @discardableResult
    public func write(_ report: PunchListReport, store: any AnnotationStore, isCancelled: @escaping @Sendable () -> Bool = { false },
                      to output: @escaping (UnsafeRawBufferPointer) throws -> Void) async throws(ReportError) -> ReportWritten {
        let fonts: ReportFonts
        switch ReportFonts.shared {
        case .success(let value): fonts = value
        case .failure(let error): throw error
        }
        if isCancelled() { throw .cancelled }
        // A PDF drawing's page replayed as vectors holds the fonts cairo writes when it finishes the surface: it is let
        // go after the surface (this defer runs after the surface's, declared below).
        let keeper = SheetKeeper()
        defer { keeper.sheet = nil }
        let sink = StreamSink(output)
        let (width, height) = report.options.paper.points
        let closure = Unmanaged.passUnretained(sink).toOpaque()
        guard let surface = cairo_pdf_surface_create_for_stream({ closure, data, length in
            let sink = Unmanaged<StreamSink>.fromOpaque(closure!).takeUnretainedValue()
            return sink.write(UnsafeRawBufferPointer(start: data, count: Int(length))) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR
        }, closure, width, height) else { throw .cairo("cannot create a PDF surface") }
        defer { cairo_surface_destroy(surface) }
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, CairoText.drawable("\(report.options.title): \(report.drawing.name)"))
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "planmark")
        guard let cr = cairo_create(surface) else { throw .cairo("cannot create a cairo context") }
        defer { cairo_destroy(cr) }
        let footer = "\(report.drawing.name) · revision \(report.options.revision) · \(report.options.today.text)"
        var page = PDFPage(cr: cr, fonts: fonts, width: width, height: height, footer: footer, isCancelled: isCancelled)
        defer { page.releasePictures() }
        do {
            try await write(report, store: store, surface: surface, sink: sink, page: &page, keeper: keeper)
        } catch {
            // cairo finishes the document when the surface is destroyed: nothing more goes to `output`.
            sink.close()
            throw error
        }
        return ReportWritten(pages: page.number, sheet: keeper.drawing)
    }

    /// What the sheet page drew, and the replayed PDF page it drew (kept until the PDF surface is gone).
    private final class SheetKeeper {
        var sheet: ReportVectorSheet?
        var drawing = ReportSheetDrawing.picture
    }

    /// Lays the report out without drawing (`PDFPage.drawing` false: the same code, so the same page breaks) to
    /// learn the page count, then draws it with `Page N of M` at every foot.
    private func write(_ report: PunchListReport, store: any AnnotationStore, surface: OpaquePointer, sink: StreamSink,
                       page: inout PDFPage, keeper: SheetKeeper) async throws(ReportError) {
        let images = ReportImages(store: store, report: report)
        let (made, drawing) = try await images.pdfSheet()
        var sheet: ReportSheet? = made
        keeper.drawing = drawing
        if case .vectors(let vectors) = made { keeper.sheet = vectors }
        try page.check(sink)
        var photos: [Int64: PhotoOutcome] = [:]
        var cardPages: [Int: Int] = [:]
        var layout = page
        layout.drawing = false
        try await pages(report, sheet: &sheet, images: images, photos: &photos, cardPages: &cardPages, page: &layout, sink: nil)
        page.total = layout.number
        try await pages(report, sheet: &sheet, images: images, photos: &photos, cardPages: &cardPages, page: &page, sink: sink)
        images.releaseCrops()
        page.finish()
        try page.check(sink)
        cairo_surface_finish(surface)
        if let error = sink.error { throw .output(error) }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else { throw .cairo(String(cString: cairo_status_to_string(status))) }
    }

    /// Page 1 and the cards, on `page` (drawn or only laid out, as `page.drawing` says). Laying out reads each
    /// photo once for its size (kept in `photos`) and notes the page each card starts on (`cardPages`, which the
    /// table of contents prints when drawn: the same code lays both out, so the pages are the same); drawing
    /// releases `sheet` once page 1 is drawn.
    private func pages(_ report: PunchListReport, sheet: inout ReportSheet?, images: ReportImages, photos: inout [Int64: PhotoOutcome],
                       cardPages: inout [Int: Int], page: inout PDFPage, sink: StreamSink?) async throws(ReportError) {
        if let picture = sheet { firstPage(report, sheet: picture, legend: images.legend, cardPages: cardPages, page: &page) }
        if page.drawing {
            sheet = nil
            try page.check(sink)
            try await images.prepareCrops()
        }
        for group in report.groups {
            if !group.heading.isEmpty, let first = group.items.first {
                try await resolvePhotos(of: first, images: images, photos: &photos, page: &page)
                page.ensure(Self.groupHeadingHeight + min(measure(first, photos: photos, page: page), page.bottom - page.margin))
                page.gap(6)
                page.text(group.heading + " (\(group.items.count))", size: 14, bold: true)
                page.rule(width: 1)
                page.gap(4)
            }
            for item in group.items {
                try page.check(sink)
                try await resolvePhotos(of: item, images: images, photos: &photos, page: &page)
                let height = measure(item, photos: photos, page: page)
                // A card is kept on one page; one taller than a page starts a page and breaks between its lines.
                page.ensure(min(height, page.bottom - page.margin))
                if cardPages[item.marker.number] == nil { cardPages[item.marker.number] = page.number }
                try await card(item, images: images, photos: photos, page: &page)
            }
        }
        try await appendix(report, images: images, photos: photos, page: &page)
        let signatories = report.options.signOff
        if !signatories.isEmpty {
            var probe = page
            probe.drawing = false
            probe.unbounded = true
            probe.y = probe.margin
            signOff(signatories, page: &probe)
            page.ensure(min(probe.y - probe.margin, page.bottom - page.margin))
            signOff(signatories, page: &page)
        }
        try page.check(sink)
    }

    /// The sign-off block (kept on one page): for each signatory, the name and role and lines to write the date and
    /// sign on.
    /// - Complexity: O(signatories).
    private func signOff(_ signatories: [ReportSignatory], page: inout PDFPage) {
        page.gap(12)
        page.text("Sign-off", size: 14, bold: true)
        page.rule(width: 1)
        for signatory in signatories {
            page.gap(8)
            page.field("Name", signatory.name)
            page.field("Role", signatory.role ?? "–")
            page.gap(16)
            page.text("Date: ____________________      Signature: ________________________________________", size: 9.5)
        }
    }

    /// The height of a group's heading, its rule and the gaps around them.
    static let groupHeadingHeight = 6 + 14 * 1.3 + 4 + 4

    /// Title, drawing and revision, date, filters, grouping, counts, room areas; the sheet with every listed pin
    /// and its legend below it in the page's type; then the table of contents (`contents`). The sheet takes the
    /// rest of the page but for the table's heading and first rows, so that the table starts on page 1.
    private func firstPage(_ report: PunchListReport, sheet: ReportSheet, legend: [ReviewLegendEntry], cardPages: [Int: Int],
                           page: inout PDFPage) {
        let options = report.options
        page.text(options.title, size: 20, bold: true)
        page.gap(4)
        page.field("Drawing", "\(report.drawing.name), revision \(options.revision) (\(report.drawing.width) x \(report.drawing.height) px)")
        page.field("Date", options.today.text)
        page.field("Filters", report.filtersText)
        if let grouping = options.grouping { page.field("Grouped by", grouping.rawValue) }
        page.field("Markers", report.countsLine)
        if !options.roomAreas.isEmpty {
            page.field("Room areas", Self.roomAreas(options.roomAreas))
        }
        page.gap(8)
        var probe = page
        probe.drawing = false
        probe.unbounded = true
        probe.legend(legend)
        let legendHeight = probe.y - page.y + 4
        let items = report.contents
        let size = sheet.size
        func fitted() -> Double {
            var room = page.remaining - 4 - legendHeight
            if !items.isEmpty { room -= Self.contentsStart(rows: min(items.count, 3)) }
            return min(page.contentWidth / Double(size.width), room / Double(size.height))
        }
        if fitted() * Double(size.height) < 120 { page.newPage() }
        let fit = fitted()
        switch sheet {
        case .picture(let picture): page.image(picture, width: Double(size.width) * fit, height: Double(size.height) * fit)
        case .vectors(let vectors): page.vectors(vectors, width: Double(size.width) * fit, height: Double(size.height) * fit)
        }
        page.gap(4)
        page.legend(legend)
        if !items.isEmpty { contents(items, cardPages: cardPages, page: &page) }
        page.newPage()
    }

    /// The share of the text column each of the table of contents' columns takes
    /// (`PunchListReport.contentsHeadings`, then the card's page).
    static let contentsWidths = [0.06, 0.09, 0.36, 0.16, 0.15, 0.12, 0.06]

    /// The table of contents' type size.
    static let contentsSize = 8.5

    /// The height of the table of contents' gap, heading, column headings and first `rows` rows.
    static func contentsStart(rows: Int) -> Double {
        10 + 14 * 1.3 + Double(rows + 1) * PDFPage.rowHeight(size: contentsSize)
    }

    /// The table of contents: a row per item (`PunchListReport.contentsRow`) and the page its card starts on, the
    /// headings again at the top of every page it runs onto; a cell too long for its column ends in `…`.
    /// - Complexity: O(items + their cells' text).
    private func contents(_ items: [ReportItem], cardPages: [Int: Int], page: inout PDFPage) {
        let headings = PunchListReport.contentsHeadings + ["Page"]
        let widths = Self.contentsWidths.map { $0 * page.contentWidth }
        let rowHeight = PDFPage.rowHeight(size: Self.contentsSize), size = Self.contentsSize
        page.gap(10)
        page.ensure(Self.contentsStart(rows: min(items.count, 3)) - 10)
        page.text("Contents", size: 14, bold: true)
        page.row(headings, widths: widths, size: size, bold: true)
        for item in items {
            if page.remaining < rowHeight - 0.01 {
                page.newPage()
                page.row(headings, widths: widths, size: size, bold: true)
            }
            let cardPage = cardPages[item.marker.number].map(String.init) ?? ""
            page.row(PunchListReport.contentsRow(of: item) + [cardPage], widths: widths, size: size, bold: false)
        }
    }

    /// What a photo becomes in the report: shown at its pixel size, or listed under `Not shown` with the reason.
    enum PhotoOutcome {
        case shown(PhotoSize)
        case notShown(String)
    }

    /// Decides (once per attachment, reading its bytes for the size in its header) whether each photo of `item`
    /// is shown. Asks `isCancelled` between photos.
    private func resolvePhotos(of item: ReportItem, images: ReportImages, photos: inout [Int64: PhotoOutcome],
                               page: inout PDFPage) async throws(ReportError) {
        for attachment in item.attachments where photos[attachment.id] == nil {
            try page.check(nil)
            let name = Self.name(of: attachment)
            guard attachment.type != .pdf else {
                photos[attachment.id] = .notShown("\(name) (\(attachment.type.contentType), \(attachment.size) bytes)")
                continue
            }
            guard attachment.size <= maxPhotoBytes else {
                photos[attachment.id] = .notShown("\(name) (\(attachment.size) bytes, over the report's limit of \(maxPhotoBytes) bytes a photo)")
                continue
            }
            let bytes = try await images.bytes(of: attachment)
            let kind = attachment.type == .jpeg ? "JPEG" : "PNG"
            guard let size = PhotoSize(of: bytes, type: attachment.type) else {
                photos[attachment.id] = .notShown("\(name) (unreadable \(kind): no image size in its header)")
                continue
            }
            guard size.isWithinLimits else {
                photos[attachment.id] = .notShown("\(name) (\(kind) of \(size) pixels; photos may have \(PhotoSize.limitsText))")
                continue
            }
            photos[attachment.id] = .shown(size)
        }
    }

    static func name(of attachment: Attachment) -> String {
        attachment.caption.map { "\"\($0)\"" } ?? "attachment \(attachment.id)"
    }

    /// The side of the square the crop is fitted into, beside the card's fields.
    static let cropCell = 150.0
    /// The height of the photos' row.
    static let pictureHeight = 110.0

    /// The height `item`'s card takes (laid out on an unbounded page, nothing drawn or read).
    /// - Complexity: O(the card's text), as drawing it.
    private func measure(_ item: ReportItem, photos: [Int64: PhotoOutcome], page: PDFPage) -> Double {
        var probe = page
        probe.drawing = false
        probe.unbounded = true
        probe.y = probe.margin
        cardTop(item, page: &probe, crop: nil)
        var row = PictureRow(page: probe, height: Self.pictureHeight)
        for attachment in item.attachments {
            guard case .shown(let size) = photos[attachment.id] else { continue }
            let (w, _) = fit(size.width, size.height, maxWidth: probe.contentWidth, maxHeight: Self.pictureHeight)
            row.place(width: w, page: &probe) { _ in }
        }
        row.end(page: &probe)
        cardTail(item, photos: photos, page: &probe)
        return probe.y - probe.margin
    }

    /// One marker's card (`cardTop`, the photos in rows of `pictureHeight`, `cardTail`), drawn or only laid out
    /// as `page.drawing` says. When drawn, the crop is rendered and the shown photos read one at a time (a PNG
    /// decoded by rows); the photos are placed as `measure` places them, so the card takes its measure.
    /// - Complexity: O(the card's text) plus the crop's and the photos' pixels when drawn.
    private func card(_ item: ReportItem, images: ReportImages, photos: [Int64: PhotoOutcome], page: inout PDFPage) async throws(ReportError) {
        let crop = page.drawing ? try await images.crop(around: item.marker) : nil
        cardTop(item, page: &page, crop: crop)
        var row = PictureRow(page: page, height: Self.pictureHeight)
        for attachment in item.attachments {
            guard case .shown(let size) = photos[attachment.id] else { continue }
            try page.check(nil)
            let (w, h) = fit(size.width, size.height, maxWidth: page.contentWidth, maxHeight: Self.pictureHeight)
            guard page.drawing else {
                row.place(width: w, page: &page) { _ in }
                continue
            }
            let picture = try await photo(attachment, size: size, images: images, maxPixelHeight: photoMaxPixelHeight)
            row.place(width: w, page: &page) { page in page.photo(picture, size: size, width: w, height: h) }
        }
        row.end(page: &page)
        cardTail(item, photos: photos, page: &page)
    }

    /// A shown photo as it is drawn: a JPEG's bytes (embedded as they are), a PNG decoded into at most
    /// `photoMaxPixelWidth` x `maxPixelHeight` pixels, or why it cannot be (its header was read when the report was
    /// laid out, so the reason goes in the photo's place).
    /// - Complexity: O(the photo's bytes), plus a PNG's pixels.
    private func photo(_ attachment: Attachment, size: PhotoSize, images: ReportImages, maxPixelHeight: Int) async throws(ReportError) -> PDFPage.Photo {
        let bytes = try await images.bytes(of: attachment)
        switch attachment.type {
        case .jpeg:
            return .jpeg(bytes, id: attachment.id)
        case .png:
            do {
                return .picture(try PNGDecoder().thumbnail(data: bytes, source: "attachment \(attachment.id)",
                                                           maxWidth: photoMaxPixelWidth, maxHeight: maxPixelHeight))
            } catch {
                return .problem("unreadable PNG: \(Self.reason(error))")
            }
        case .pdf:
            return .problem("a PDF")
        }
    }

    /// The largest picture a PNG photo is decoded into on the photos' appendix, in pixels (about 300 dpi on half an
    /// A4 page).
    static let appendixPixelSide = 2048

    /// The photos' appendix: every shown photo of the listed items at the text column's width (at most half a page
    /// high, two a page, and never past a point a pixel), under a line saying whose it is
    /// (`Photo of #3: "door frame", 1600 x 1200 px`).
    /// - Complexity: O(the photos' bytes and a PNG's pixels), one photo held at a time.
    private func appendix(_ report: PunchListReport, images: ReportImages, photos: [Int64: PhotoOutcome], page: inout PDFPage) async throws(ReportError) {
        var shown: [(ReportItem, Attachment, PhotoSize)] = []
        for item in report.contents {
            for attachment in item.attachments {
                if case .shown(let size) = photos[attachment.id] { shown.append((item, attachment, size)) }
            }
        }
        guard !shown.isEmpty else { return }
        page.newPage()
        page.text("Photos", size: 14, bold: true)
        page.rule(width: 1)
        let captionHeight = PDFPage.rowHeight(size: 9.5)
        let boxHeight = ((page.bottom - page.margin) - 14 * 1.3 - 4) / 2 - captionHeight - 12
        for (item, attachment, size) in shown {
            try page.check(nil)
            // Full size: never enlarged past a point a pixel.
            let (w, h) = fit(size.width, size.height, maxWidth: min(page.contentWidth, Double(size.width)),
                             maxHeight: min(boxHeight, Double(size.height)))
            page.ensure(captionHeight + h + 12)
            page.text("Photo of #\(item.marker.number): \(Self.name(of: attachment)), \(size.width) x \(size.height) px", size: 9.5, bold: true)
            page.gap(2)
            if page.drawing {
                let picture = try await photo(attachment, size: size, images: images, maxPixelHeight: Self.appendixPixelSide)
                page.photo(picture, size: size, width: w, height: h)
            }
            page.gap(h + 10)
        }
    }

    /// The card's head: its number and status; the crop (in a `cropCell` square, kept together with the fields
    /// beside it: priority, category, assignee, due, rooms, who raised it and when); the note below both.
    /// - Complexity: O(the fields' and the note's text).
    private func cardTop(_ item: ReportItem, page: inout PDFPage, crop: RGBAImage?) {
        let marker = item.marker
        page.gap(6)
        var heading = "#\(marker.number)  \(marker.status.title)"
        if item.overdue { heading += "  · OVERDUE" }
        page.text(heading, size: 13, bold: true, colour: item.overdue ? (0.75, 0.1, 0.1) : (0, 0, 0))
        page.gap(2)
        let fields = PunchListReport.fields(of: item)
        let side = fields.filter { $0.0 != "Status" && $0.0 != "Note" }
        let cell = Self.cropCell
        var probe = page
        probe.drawing = false
        probe.unbounded = true
        for (label, value) in side { probe.field(label, value, left: cell + 12) }
        page.ensure(max(cell, probe.y - page.y))
        let top = page.y
        page.cropCell(crop, side: cell)
        for (label, value) in side { page.field(label, value, left: cell + 12) }
        page.y = max(page.y, top + cell) + 8
        if let note = fields.first(where: { $0.0 == "Note" }) { page.field(note.0, note.1) }
    }

    /// The card's end: the photos not shown with the reasons, the last history entries and comments (a heading
    /// never alone at a page's foot), a rule.
    /// - Complexity: O(the text).
    private func cardTail(_ item: ReportItem, photos: [Int64: PhotoOutcome], page: inout PDFPage) {
        var notShown: [String] = []
        for attachment in item.attachments {
            if case .notShown(let reason) = photos[attachment.id] { notShown.append(reason) }
        }
        if !notShown.isEmpty { page.field("Not shown", notShown.joined(separator: "; ")) }
        for (title, lines) in [("History", item.history), ("Comments", item.comments)] where !lines.isEmpty {
            page.ensure(9 * 1.3 + 8.5 * 1.3)
            page.text(title, size: 9, bold: true)
            for line in lines { page.text(line, size: 8.5, indent: 10) }
        }
        page.gap(4)
        page.rule(width: 0.5)
    }

    /// A render error without the source it names (the caption already does).
    static func reason(_ error: RenderError) -> String {
        let text = error.description
        guard let colon = text.range(of: ": ") else { return text }
        return String(text[colon.upperBound...])
    }

    private func fit(_ width: Int, _ height: Int, maxWidth: Double, maxHeight: Double) -> (Double, Double) {
        let scale = min(maxWidth / Double(width), maxHeight / Double(height))
        return (Double(width) * scale, Double(height) * scale)
    }

    /// The rooms' areas as the report says them (PDF and HTML): `2.01 Office 27.75 m², 2.02 Office 25.00 m²`,
    /// each room by id and name (`ReviewRoomArea.title`) to 0.01 m² (`Quantity.squareMetres`), as the review
    /// image's legend.
    /// - Complexity: O(rooms).
    static func roomAreas(_ areas: [ReviewRoomArea]) -> String {
        areas.map { "\($0.title) \(Quantity.squareMetres.text($0.squareMetres)) m²" }.joined(separator: ", ")
    }
}

/// Collects what cairo writes and passes it on; remembers the first error (cairo then stops writing).
private final class StreamSink {
    let output: (UnsafeRawBufferPointer) throws -> Void
    var error: (any Error)?

    init(_ output: @escaping (UnsafeRawBufferPointer) throws -> Void) { self.output = output }

    private var closed = false

    /// Refuses every later write.
    func close() { closed = true }

    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard error == nil, !closed else { return false }
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

/// Text as cairo takes it.
enum CairoText {
    /// `text` with what cairo's UTF-8 check refuses replaced by U+FFFD: the Unicode noncharacters (U+FDD0...U+FDEF
    /// and the last two code points of every plane, U+FFFE, U+FFFF, U+1FFFE, ... U+10FFFF), which put the cairo
    /// context into an error state that silently ends the document, and NUL, which would end the C string.
    /// Everything else is kept as it is.
    /// - Complexity: O(n) for n bytes of `text`.
    static func drawable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: refused) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { out.append(refused(scalar) ? "\u{FFFD}" : scalar) }
        return String(out)
    }

    /// What cairo's `UNICODE_VALID` refuses (surrogates cannot be in a Swift string), and NUL.
    /// - Complexity: O(1).
    static func refused(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value == 0 || (0xFDD0...0xFDEF).contains(value) || value & 0xFFFE == 0xFFFE
    }
}

/// The advance of each character drawn so far, per font and size: measured through cairo once each.
private final class AdvanceCache {
    struct Key: Hashable {
        var bold: Bool
        var size: Double
        var scalar: UInt32
    }

    var table: [Key: Double] = [:]
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
    /// The page count, printed as `Page N of M` once known (the report is laid out first).
    var total: Int?
    /// False while the report is laid out: the cursor moves and pages break as when drawing, nothing is drawn.
    var drawing = true
    /// True while a card is measured: the page never ends.
    var unbounded = false
    /// Asked at every page break.
    let isCancelled: @Sendable () -> Bool
    /// Set once `isCancelled` has answered true: nothing more is drawn, and `check` throws.
    private(set) var cancelled = false
    /// The pictures of the page being written (a reference each), finished once the page is shown.
    private var pictures: [OpaquePointer] = []
    private let advances = AdvanceCache()
    private var font = (bold: false, size: 0.0)

    init(cr: OpaquePointer, fonts: ReportFonts, width: Double, height: Double, footer: String, isCancelled: @escaping @Sendable () -> Bool) {
        self.cr = cr
        self.fonts = fonts
        self.width = width
        self.height = height
        self.footer = CairoText.drawable(footer)
        self.isCancelled = isCancelled
        x = margin
        y = margin
    }

    var contentWidth: Double { width - 2 * margin }
    var bottom: Double { height - margin - 14 }
    var remaining: Double { bottom - y }

    /// Throws `cancelled` once the report is cancelled (asking `isCancelled` again), `.output` when the sink
    /// failed, `.cairo` when the cairo context is in an error state (text or a picture it refused).
    mutating func check(_ sink: StreamSink?) throws(ReportError) {
        if !cancelled && isCancelled() { cancelled = true }
        if cancelled { throw .cancelled }
        if let error = sink?.error { throw .output(error) }
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else { throw .cairo(String(cString: cairo_status_to_string(status))) }
    }

    /// Starts a new page when less than `space` points are left on this one.
    /// (A hundredth of a point is allowed for rounding, so a card measured to fit does fit.)
    mutating func ensure(_ space: Double) {
        if !unbounded && y > margin && remaining < space - 0.01 { newPage() }
    }

    mutating func gap(_ points: Double) { y += points }

    /// Ends the page with its footer and starts the next (asking `isCancelled`).
    mutating func newPage() {
        if drawing {
            drawFooter()
            cairo_show_page(cr)
            releasePictures()
        }
        number += 1
        x = margin
        y = margin
        if !cancelled && isCancelled() { cancelled = true }
    }

    /// Ends the last page.
    mutating func finish() {
        drawFooter()
        cairo_show_page(cr)
        releasePictures()
    }

    /// cairo writes a page's pictures when the page is shown but keeps a reference to every picture until the
    /// document is finished; finishing the pictures already written (and dropping a JPEG's bytes) frees their
    /// memory, so only the current page's pictures are held instead of every picture of the report.
    mutating func releasePictures() {
        for surface in pictures {
            cairo_surface_set_mime_data(surface, "image/jpeg", nil, 0, nil, nil)
            cairo_surface_finish(surface)
            cairo_surface_destroy(surface)
        }
        pictures.removeAll()
    }

    private mutating func drawFooter() {
        setFont(size: 8, bold: false)
        cairo_set_source_rgb(cr, 0.35, 0.35, 0.35)
        let label = "Page \(number)" + (total.map { " of \($0)" } ?? "")
        cairo_move_to(cr, width - margin - measure(label[...]), height - margin + 4)
        cairo_show_text(cr, label)
        cairo_move_to(cr, margin, height - margin + 4)
        cairo_show_text(cr, footer)
        cairo_set_source_rgb(cr, 0, 0, 0)
    }

    private mutating func setFont(size: Double, bold: Bool) {
        cairo_set_font_face(cr, bold ? fonts.bold : fonts.regular)
        cairo_set_font_size(cr, size)
        font = (bold, size)
    }

    /// The advance of `character` in the current font: the sum of its scalars' advances (cairo's text API places
    /// glyphs by their advances, without kerning), each measured once per font and size.
    /// - Complexity: O(scalars of the character), amortised.
    private func advance(_ character: Character) -> Double {
        var total = 0.0
        for scalar in character.unicodeScalars {
            let key = AdvanceCache.Key(bold: font.bold, size: font.size, scalar: scalar.value)
            if let known = advances.table[key] {
                total += known
                continue
            }
            var extents = cairo_text_extents_t()
            cairo_text_extents(cr, String(Character(scalar)), &extents)
            advances.table[key] = extents.x_advance
            total += extents.x_advance
        }
        return total
    }

    /// The width of `text` in the current font.
    /// - Complexity: O(length).
    private func measure(_ text: Substring) -> Double {
        text.reduce(0) { $0 + advance($1) }
    }

    /// `text` (already `CairoText.drawable`) wrapped into lines of at most `width` points: greedily, breaking at
    /// the last space that leaves the line within the width (the space is dropped); a word wider than a line is
    /// cut between characters (never inside one), and a character wider than a line has a line to itself.
    /// Unicode's mandatory line breaks (LF, CR, CR LF, VT, FF, NEL U+0085, LS U+2028, PS U+2029) end paragraphs:
    /// drawn as glyphs they were gaps in a line, which a text reader takes for a column break.
    /// - Complexity: O(n) for n characters: each character's advance is looked up once (measured through cairo
    ///   once per distinct character, font and size) and each character is looked at at most three times.
    func wrap(_ text: String, width: Double) -> [Substring] {
        var lines: [Substring] = []
        for paragraph in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            var start = paragraph.startIndex
            var used = 0.0
            var lastSpace: String.Index?
            var usedThroughSpace = 0.0
            var i = paragraph.startIndex
            while i < paragraph.endIndex {
                let character = paragraph[i]
                let a = advance(character)
                let next = paragraph.index(after: i)
                if character == " " {
                    if used + a > width && i > start {
                        // The space itself does not fit: the line ends before it.
                        lines.append(paragraph[start..<i])
                        start = next
                        used = 0
                        lastSpace = nil
                    } else {
                        used += a
                        lastSpace = i
                        usedThroughSpace = used
                    }
                    i = next
                    continue
                }
                if used + a > width {
                    if let space = lastSpace {
                        // The word moves to the next line; look at this character again there.
                        lines.append(paragraph[start..<space])
                        start = paragraph.index(after: space)
                        used = max(0, used - usedThroughSpace)
                        lastSpace = nil
                        continue
                    }
                    if i > start {
                        // A word wider than the line: cut it here.
                        lines.append(paragraph[start..<i])
                        start = i
                        used = 0
                        continue
                    }
                    // A character wider than a whole line: it has the line to itself.
                }
                used += a
                i = next
            }
            lines.append(paragraph[start..<paragraph.endIndex])
        }
        return lines
    }

    /// A paragraph of text, wrapped. Stops drawing when the report is cancelled.
    mutating func text(_ text: String, size: Double, bold: Bool = false, indent: Double = 0, colour: (Double, Double, Double) = (0, 0, 0)) {
        setFont(size: size, bold: bold)
        let lineHeight = size * 1.3
        for line in wrap(CairoText.drawable(text), width: contentWidth - indent) {
            ensure(lineHeight)
            if cancelled { break }
            if drawing {
                setFont(size: size, bold: bold)
                cairo_set_source_rgb(cr, colour.0, colour.1, colour.2)
                cairo_move_to(cr, margin + indent, y + size)
                cairo_show_text(cr, ReportBidi.visualOrder(String(line)))
            }
            y += lineHeight
        }
        cairo_set_source_rgb(cr, 0, 0, 0)
    }

    /// `Label:` in bold and the value beside it, wrapped under itself. Stops drawing when the report is cancelled.
    /// `left` moves the field right of the margin (beside the crop).
    mutating func field(_ label: String, _ value: String, labelWidth: Double = 70, size: Double = 9.5, left: Double = 0) {
        setFont(size: size, bold: false)
        let lineHeight = size * 1.35
        let lines = wrap(CairoText.drawable(value), width: contentWidth - left - labelWidth)
        for (index, line) in lines.enumerated() {
            ensure(lineHeight)
            if cancelled { break }
            guard drawing else {
                y += lineHeight
                continue
            }
            if index == 0 {
                setFont(size: size, bold: true)
                cairo_move_to(cr, margin + left, y + size)
                cairo_show_text(cr, CairoText.drawable(label + (label.hasPrefix(" ") ? "" : ":")))
            }
            setFont(size: size, bold: false)
            cairo_move_to(cr, margin + left + labelWidth, y + size)
            cairo_show_text(cr, ReportBidi.visualOrder(String(line)))
            y += lineHeight
        }
    }

    /// The height of a `row` of type `size`.
    static func rowHeight(size: Double) -> Double { size * 1.45 }

    /// One line of cells, each `clipped` to its column (`widths`, from the margin), in bold for headings, which
    /// get a rule below. Starts a new page when the line does not fit.
    /// - Complexity: O(the cells' text).
    mutating func row(_ cells: [String], widths: [Double], size: Double, bold: Bool) {
        let height = Self.rowHeight(size: size)
        ensure(height)
        defer { y += height }
        guard drawing, !cancelled else { return }
        setFont(size: size, bold: bold)
        var left = margin
        for (cell, width) in zip(cells, widths) {
            cairo_move_to(cr, left, y + size)
            cairo_show_text(cr, ReportBidi.visualOrder(clipped(CairoText.drawable(cell), width: width - 4)))
            left += width
        }
        if bold {
            cairo_set_source_rgb(cr, 0.6, 0.6, 0.6)
            cairo_set_line_width(cr, 0.5)
            cairo_move_to(cr, margin, y + height - 1)
            cairo_line_to(cr, width - margin, y + height - 1)
            cairo_stroke(cr)
            cairo_set_source_rgb(cr, 0, 0, 0)
        }
    }

    /// `text` on one line (line breaks as spaces) within `width` points in the current font: whole, or cut between
    /// characters and ended with `…`.
    /// - Complexity: O(length).
    func clipped(_ text: String, width: Double) -> String {
        let line = String(text.map { $0.isNewline ? " " : $0 })
        guard measure(line[...]) > width else { return line }
        let ellipsis = advance("…")
        var used = 0.0
        var end = line.startIndex
        for index in line.indices {
            used += advance(line[index])
            if used + ellipsis > width { break }
            end = line.index(after: index)
        }
        return String(line[..<end]) + "…"
    }

    /// The legend's entries in a row that wraps: each swatch drawn as the review image draws it, and its text.
    /// - Complexity: O(entries + their text).
    mutating func legend(_ entries: [ReviewLegendEntry], size: Double = 9) {
        setFont(size: size, bold: false)
        let lineHeight = size * 1.7
        var left = 0.0
        var started = false
        for entry in entries {
            let text = CairoText.drawable(entry.text)
            let entryWidth = size + 4 + measure(text[...]) + 14
            if started && left + entryWidth > contentWidth {
                y += lineHeight
                left = 0
                started = false
            }
            if !started {
                ensure(lineHeight)
                started = true
            }
            if drawing && !cancelled {
                swatch(entry.swatch, x: margin + left, y: y + 1, side: size)
                setFont(size: size, bold: false)
                cairo_move_to(cr, margin + left + size + 4, y + size)
                cairo_show_text(cr, ReportBidi.visualOrder(text))
            }
            left += entryWidth
        }
        if started { y += lineHeight }
    }

    private func source(_ colour: Colour) {
        cairo_set_source_rgba(cr, Double(colour.red) / 255, Double(colour.green) / 255, Double(colour.blue) / 255, Double(colour.alpha) / 255)
    }

    /// A legend swatch in a `side` square at (`x`, `y`): a pin's disc, a room's filled square, an allowed area's
    /// outline, an overdue ring, a stack's disc with `+`.
    private func swatch(_ swatch: ReviewLegendEntry.Swatch, x: Double, y: Double, side: Double) {
        let (cx, cy, r) = (x + side / 2, y + side / 2, side / 2)
        cairo_set_line_width(cr, 1)
        switch swatch {
        case .marker(let colour), .stack(let colour):
            cairo_arc(cr, cx, cy, r, 0, 2 * Double.pi)
            source(colour)
            cairo_fill_preserve(cr)
            cairo_set_source_rgb(cr, 1, 1, 1)
            cairo_stroke(cr)
            if case .stack = swatch {
                cairo_move_to(cr, cx - r / 2, cy)
                cairo_line_to(cr, cx + r / 2, cy)
                cairo_move_to(cr, cx, cy - r / 2)
                cairo_line_to(cr, cx, cy + r / 2)
                cairo_stroke(cr)
            }
        case .area(let fill, let outline):
            cairo_rectangle(cr, x, y, side, side)
            source(fill)
            cairo_fill_preserve(cr)
            source(outline)
            cairo_stroke(cr)
        case .outline(let colour):
            cairo_rectangle(cr, x + 0.5, y + 0.5, side - 1, side - 1)
            source(colour)
            cairo_set_line_width(cr, 1.5)
            cairo_stroke(cr)
        case .ring(let colour):
            cairo_arc(cr, cx, cy, r - 1, 0, 2 * Double.pi)
            cairo_set_source_rgb(cr, 1, 1, 1)
            cairo_fill_preserve(cr)
            source(colour)
            cairo_set_line_width(cr, 2)
            cairo_stroke(cr)
        }
        cairo_set_source_rgb(cr, 0, 0, 0)
    }

    /// A horizontal line across the text column.
    mutating func rule(width lineWidth: Double) {
        guard drawing else {
            y += 4
            return
        }
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
        guard drawing else {
            if advance { y += h }
            return
        }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(image.width), Int32(image.height)) else { return }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface) else {
            cairo_surface_destroy(surface)
            return
        }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
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
        pictures.append(surface)
        if advance { y += h }
    }

    /// Draws a PDF drawing's page (`sheet.page`, its vectors) at the cursor, `w` x `h` points, and its overlay over it
    /// as vectors: region fills and outlines and pins as filled paths, labels as text in DejaVu Sans Bold; moves below
    /// it. The page's own text stays text.
    /// - Complexity: O(overlay items + their points); the page's operations are replayed by cairo when the page is
    ///   written.
    mutating func vectors(_ sheet: ReportVectorSheet, width w: Double, height h: Double) {
        guard drawing else {
            y += h
            return
        }
        cairo_save(cr)
        cairo_rectangle(cr, x, y, w, h)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_fill(cr)
        cairo_restore(cr)
        sheet.page.paint(on: cr, x: x, y: y, width: w * sheet.coverage.x, height: h * sheet.coverage.y)
        let overlay = sheet.overlay
        cairo_save(cr)
        cairo_translate(cr, x, y)
        cairo_rectangle(cr, 0, 0, w, h)
        cairo_clip(cr)
        cairo_scale(cr, w / Double(overlay.width), h / Double(overlay.height))
        for item in overlay.items {
            switch item {
            case .fill(let contours, let colour, let evenOdd):
                cairo_new_path(cr)
                for contour in contours where contour.count >= 2 {
                    cairo_move_to(cr, contour[0].x, contour[0].y)
                    for point in contour.dropFirst() { cairo_line_to(cr, point.x, point.y) }
                    cairo_close_path(cr)
                }
                cairo_set_fill_rule(cr, evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
                source(colour)
                cairo_fill(cr)
            case .text(let text, let size, let x, let baseline, let colour):
                cairo_set_font_face(cr, fonts.bold)
                cairo_set_font_size(cr, Double(size))
                source(colour)
                cairo_move_to(cr, Double(x), Double(baseline))
                cairo_show_text(cr, CairoText.drawable(text))
            }
        }
        // No current point left behind for what is drawn next (cairo_restore keeps the path).
        cairo_new_path(cr)
        cairo_restore(cr)
        y += h
    }

    /// Draws a JPEG at the cursor, embedded as it is (cairo reads only the attached JPEG bytes; the surface's
    /// own pixels are never written, so the kernel does not back them with memory). False when cairo cannot
    /// make a surface of that size (nothing is drawn).
    /// `uniqueID` names the image to cairo (`CAIRO_MIME_TYPE_UNIQUE_ID`), which then writes it once however often it
    /// is drawn (a photo on its card and on the appendix).
    mutating func jpeg(_ bytes: [UInt8], pixelWidth: Int, pixelHeight: Int, width w: Double, height h: Double, uniqueID: String? = nil) -> Bool {
        guard drawing else { return true }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(pixelWidth), Int32(pixelHeight)) else { return false }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let copy = malloc(bytes.count) else {
            cairo_surface_destroy(surface)
            return false
        }
        bytes.withUnsafeBytes { _ = memcpy(copy, $0.baseAddress!, bytes.count) }
        let status = cairo_surface_set_mime_data(surface, "image/jpeg", copy.assumingMemoryBound(to: UInt8.self), UInt(bytes.count),
                                                 { free($0) }, copy)
        guard status == CAIRO_STATUS_SUCCESS else {
            free(copy)
            cairo_surface_destroy(surface)
            return false
        }
        if let uniqueID, let id = strdup(uniqueID) {
            if cairo_surface_set_mime_data(surface, CAIRO_MIME_TYPE_UNIQUE_ID, UnsafeMutableRawPointer(id).assumingMemoryBound(to: UInt8.self),
                                           UInt(strlen(id)), { free($0) }, id) != CAIRO_STATUS_SUCCESS { free(id) }
        }
        paint(surface, pixelWidth: pixelWidth, pixelHeight: pixelHeight, width: w, height: h)
        pictures.append(surface)
        return true
    }

    /// A photo as the writer draws it (`ReportPDFWriter.photo`).
    enum Photo {
        /// A JPEG's bytes, embedded as they are (once: `id` is its attachment's).
        case jpeg([UInt8], id: Int64)
        /// A decoded PNG.
        case picture(RGBAImage)
        /// Why it is not drawn.
        case problem(String)
    }

    /// `photo` at the cursor, `w` x `h` points (`size` is its pixel size), or a framed note saying why it cannot be;
    /// the cursor does not move.
    mutating func photo(_ photo: Photo, size: PhotoSize, width w: Double, height h: Double) {
        switch photo {
        case .jpeg(let bytes, let id):
            if !jpeg(bytes, pixelWidth: size.width, pixelHeight: size.height, width: w, height: h, uniqueID: "planmark-attachment-\(id)") {
                cellNote("cairo cannot embed this JPEG of \(size) pixels", width: w, height: h)
            }
        case .picture(let picture):
            image(picture, width: w, height: h, advance: false)
        case .problem(let reason):
            cellNote(reason, width: w, height: h)
        }
    }

    /// `crop` fitted and centred in a `side` square at the cursor, framed (an empty frame when there is none);
    /// the cursor does not move.
    mutating func cropCell(_ crop: RGBAImage?, side: Double) {
        guard drawing else { return }
        if let crop {
            let scale = min(side / Double(crop.width), side / Double(crop.height))
            let (w, h) = (Double(crop.width) * scale, Double(crop.height) * scale)
            let (savedX, savedY) = (x, y)
            x = margin + (side - w) / 2
            y = savedY + (side - h) / 2
            image(crop, width: w, height: h, advance: false)
            (x, y) = (savedX, savedY)
        }
        cairo_set_source_rgb(cr, 0.7, 0.7, 0.7)
        cairo_set_line_width(cr, 0.5)
        cairo_rectangle(cr, margin, y, side, side)
        cairo_stroke(cr)
        cairo_set_source_rgb(cr, 0, 0, 0)
    }

    /// A framed `w` x `h` box at the cursor saying in small type why its photo is not there (as many lines as
    /// fit); the cursor does not move.
    mutating func cellNote(_ note: String, width w: Double, height h: Double) {
        guard drawing else { return }
        cairo_set_source_rgb(cr, 0.6, 0.6, 0.6)
        cairo_set_line_width(cr, 0.5)
        cairo_rectangle(cr, x, y, w, h)
        cairo_stroke(cr)
        setFont(size: 7, bold: false)
        cairo_set_source_rgb(cr, 0.3, 0.3, 0.3)
        var lineY = y + 9
        for line in wrap(CairoText.drawable(note), width: max(w - 6, 20)) where lineY + 2 < y + h {
            cairo_move_to(cr, x + 3, lineY)
            cairo_show_text(cr, String(line))
            lineY += 9
        }
        cairo_set_source_rgb(cr, 0, 0, 0)
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
