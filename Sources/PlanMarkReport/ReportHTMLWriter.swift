import PlanMarkFormats
import PlanMarkRender
import PlanMarkStore

/// Writes a `PunchListReport` as a static web page: `index.html`, the sheet as `sheet.png`, the crops as
/// `crops/marker-N.png` and the photos as they are stored (`photos/ID.jpg|png|pdf`), all referenced by
/// relative links, so the folder can be mailed or served as it is.
public struct ReportHTMLWriter {
    /// zlib level of the PNG pictures.
    public var compressionLevel = PNGEncoder.defaultCompressionLevel

    /// Creates a writer.
    public init() {}

    /// The files' paths relative to the folder, in the order they are written (folders end in `/`).
    public static let folders = ["crops/", "photos/"]

    /// Writes `report`'s files through `file(relativePath, bytes)` (`index.html` last), reading the drawing's
    /// image and the photos from `store`. The folders of `folders` must exist.
    ///
    /// Memory: as `ReportPDFWriter.write`; the page's text is held until it is written.
    /// - Complexity: O(drawing pixels + the markers' crops and photos + the text).
    /// `isCancelled` is asked between marker blocks (as `ReportPDFWriter.write` does); true stops the writer with
    /// `ReportError.cancelled`. A JPEG or PNG whose header declares more than `PhotoSize`'s limits, or no size, is
    /// linked but not shown, with the reason.
    public func write(_ report: PunchListReport, store: any AnnotationStore, isCancelled: @Sendable () -> Bool = { false },
                      file: (String, [UInt8]) throws -> Void) async throws(ReportError) {
        let images = ReportImages(store: store, report: report)
        let encoder = PNGEncoder(compressionLevel: compressionLevel)
        func put(_ path: String, _ bytes: [UInt8]) throws(ReportError) {
            do { try file(path, bytes) } catch { throw .output(error) }
        }
        func png(_ image: RGBAImage) throws(ReportError) -> [UInt8] {
            do { return try encoder.encode(image) } catch { throw .render(error) }
        }
        let options = report.options
        var html = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>\(Self.escape(options.title)): \(Self.escape(report.drawing.name))</title>
        <style>
        body { font-family: "DejaVu Sans", sans-serif; max-width: 60em; margin: 2em auto; padding: 0 1em; }
        dl { display: grid; grid-template-columns: 7em 1fr; gap: 0.2em 1em; margin: 0.5em 0; }
        dt { font-weight: bold; } dd { margin: 0; white-space: pre-wrap; }
        .sheet { max-width: 100%; height: auto; border: 1px solid #999; }
        .marker { border-top: 1px solid #bbb; padding: 0.5em 0; }
        .pictures img { height: 200px; margin: 0 6px 6px 0; border: 1px solid #ccc; }
        .overdue { color: #b01a1a; }
        .history { font-size: 85%; color: #444; }
        .sign-off td { height: 3em; min-width: 8em; border-bottom: 1px solid #000; }
        .legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 0.3em 1.2em; }
        .swatch { display: inline-block; width: 0.9em; height: 0.9em; margin-right: 0.3em; vertical-align: -0.1em; border: 1px solid transparent; }
        .swatch.round { border-radius: 50%; }
        .contents { border-collapse: collapse; width: 100%; font-size: 90%; }
        .contents th, .contents td { text-align: left; padding: 0.15em 0.5em 0.15em 0; border-bottom: 1px solid #ddd; vertical-align: top; }
        </style>
        </head>
        <body>
        <h1>\(Self.escape(options.title))</h1>
        <dl>
        <dt>Drawing</dt><dd>\(Self.escape(report.drawing.name)), revision \(options.revision) (\(report.drawing.width) x \(report.drawing.height) px)</dd>
        <dt>Date</dt><dd>\(options.today.text)</dd>
        <dt>Filters</dt><dd>\(Self.escape(report.filtersText))</dd>

        """
        if let grouping = options.grouping { html += "<dt>Grouped by</dt><dd>\(grouping.rawValue)</dd>\n" }
        html += "<dt>Markers</dt><dd>\(Self.escape(report.countsLine))</dd>\n"
        if !options.roomAreas.isEmpty {
            let areas = ReportPDFWriter.roomAreas(options.roomAreas)
            html += "<dt>Room areas</dt><dd>\(Self.escape(areas))</dd>\n"
        }
        html += "</dl>\n<table>\n<tr><th>Status</th><th>Markers</th></tr>\n"
        for (status, count) in report.counts { html += "<tr><td>\(status.title)</td><td>\(count)</td></tr>\n" }
        html += "</table>\n"
        let sheet = try await images.sheet()
        try put("sheet.png", try png(sheet))
        html += "<p><img class=\"sheet\" src=\"sheet.png\" width=\"\(sheet.width)\" height=\"\(sheet.height)\" alt=\"The sheet with the markers\"></p>\n"
        html += Self.legend(images.legend)
        html += Self.contents(report.contents)
        try await images.prepareCrops()
        var writtenCrops = Set<Int>()
        for group in report.groups {
            if !group.heading.isEmpty { html += "<h2>\(Self.escape(group.heading)) (\(group.items.count))</h2>\n" }
            for item in group.items {
                if isCancelled() { throw .cancelled }
                let marker = item.marker
                html += "<section class=\"marker\" id=\"marker-\(marker.number)\">\n"
                html += "<h3\(item.overdue ? " class=\"overdue\"" : "")>#\(marker.number) \(Self.escape(marker.status.title))"
                    + (item.overdue ? " · OVERDUE" : "") + "</h3>\n<dl>\n"
                for (label, value) in PunchListReport.fields(of: item) where label != "Status" {
                    html += "<dt>\(label)</dt><dd>\(Self.escape(value))</dd>\n"
                }
                html += "</dl>\n<p class=\"pictures\">"
                let cropPath = "crops/marker-\(marker.number).png"
                if writtenCrops.contains(marker.number) {
                    html += "<img src=\"\(cropPath)\" alt=\"Marker \(marker.number) on the sheet\">"
                } else if let crop = try await images.crop(around: marker) {
                    try put(cropPath, try png(crop))
                    writtenCrops.insert(marker.number)
                    html += "<img src=\"\(cropPath)\" alt=\"Marker \(marker.number) on the sheet\">"
                }
                for attachment in item.attachments {
                    let path = "photos/\(attachment.id).\(Self.fileExtension(attachment.type))"
                    let bytes = try await images.bytes(of: attachment)
                    try put(path, bytes)
                    let caption = Self.escape(attachment.caption ?? "attachment \(attachment.id)")
                    if attachment.type == .pdf {
                        html += "<a href=\"\(path)\">\(caption) (PDF)</a> "
                    } else if let problem = Self.notShown(bytes, type: attachment.type) {
                        html += "<a href=\"\(path)\">\(caption) (not shown: \(Self.escape(problem)))</a> "
                    } else {
                        html += "<a href=\"\(path)\"><img src=\"\(path)\" alt=\"\(caption)\" title=\"\(caption)\"></a>"
                    }
                }
                html += "</p>\n"
                if !item.history.isEmpty {
                    html += "<ul class=\"history\">\n"
                    for line in item.history { html += "<li>\(Self.escape(line))</li>\n" }
                    html += "</ul>\n"
                }
                if !item.comments.isEmpty {
                    html += "<h4>Comments</h4>\n<ul class=\"comments\">\n"
                    for line in item.comments { html += "<li>\(Self.escape(line))</li>\n" }
                    html += "</ul>\n"
                }
                html += "</section>\n"
            }
        }
        images.releaseCrops()
        if !options.signOff.isEmpty {
            html += "<section class=\"sign-off\">\n<h2>Sign-off</h2>\n<table>\n<tr><th>Name</th><th>Role</th><th>Date</th><th>Signature</th></tr>\n"
            for signatory in options.signOff {
                html += "<tr><td>\(Self.escape(signatory.name))</td><td>\(Self.escape(signatory.role ?? "–"))</td><td></td><td></td></tr>\n"
            }
            html += "</table>\n</section>\n"
        }
        html += "</body>\n</html>\n"
        try put("index.html", Array(html.utf8))
    }

    /// The sheet's legend (as the PDF's): a swatch in the entry's colours and its text, per entry.
    /// - Complexity: O(entries).
    static func legend(_ entries: [ReviewLegendEntry]) -> String {
        guard !entries.isEmpty else { return "" }
        var html = "<ul class=\"legend\">\n"
        for entry in entries {
            let style: String, round: Bool
            switch entry.swatch {
            case .marker(let colour), .stack(let colour): (style, round) = ("background: \(css(colour))", true)
            case .area(let fill, let outline): (style, round) = ("background: \(css(fill)); border-color: \(css(outline))", false)
            case .outline(let colour): (style, round) = ("border: 2px solid \(css(colour))", false)
            case .ring(let colour): (style, round) = ("background: #fff; border: 2px solid \(css(colour))", true)
            }
            html += "<li><span class=\"swatch\(round ? " round" : "")\" style=\"\(style)\"></span>\(escape(entry.text))</li>\n"
        }
        return html + "</ul>\n"
    }

    /// `rgba(r, g, b, a)` for a legend colour (the style's, never a user's text).
    static func css(_ colour: Colour) -> String {
        "rgba(\(colour.red), \(colour.green), \(colour.blue), \(Double(colour.alpha) / 255))"
    }

    /// The table of contents (as the PDF's): a row per item (`PunchListReport.contentsRow`), its number a link to
    /// its card.
    /// - Complexity: O(items).
    static func contents(_ items: [ReportItem]) -> String {
        guard !items.isEmpty else { return "" }
        var html = "<h2>Contents</h2>\n<table class=\"contents\">\n<tr>"
        for heading in PunchListReport.contentsHeadings { html += "<th>\(heading)</th>" }
        html += "</tr>\n"
        for item in items {
            let cells = PunchListReport.contentsRow(of: item)
            html += "<tr><td><a href=\"#marker-\(item.marker.number)\">\(escape(cells[0]))</a></td>"
            for cell in cells.dropFirst() { html += "<td>\(escape(cell))</td>" }
            html += "</tr>\n"
        }
        return html + "</table>\n"
    }

    /// Why a photo is not shown inline (a browser would decode it whole), nil when it is.
    static func notShown(_ bytes: [UInt8], type: AttachmentType) -> String? {
        let kind = type == .jpeg ? "JPEG" : "PNG"
        guard let size = PhotoSize(of: bytes, type: type) else { return "unreadable \(kind): no image size in its header" }
        guard size.isWithinLimits else { return "\(kind) of \(size) pixels; photos may have \(PhotoSize.limitsText)" }
        return nil
    }

    static func fileExtension(_ type: AttachmentType) -> String {
        switch type {
        case .jpeg: return "jpg"
        case .png: return "png"
        case .pdf: return "pdf"
        }
    }

    /// `text` with `&`, `<`, `>` and `"` escaped for HTML.
    /// - Complexity: O(length).
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
