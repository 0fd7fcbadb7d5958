import PlanMarkFormats
import PlanMarkPDFCore

/// What became of one page of a sheet set: the line `sheets add` and `sheets revise` print for it.
struct SheetLine: Sendable {
    /// The page, from 1.
    var page: Int
    /// The drawing's name (from the PDF's outline, else the page label, else `SET pN`, after `--prefix`).
    var name: String
    /// The page's size in pixels at the resolution it was counted at.
    var width: Int
    var height: Int
    /// What was stored (`stored`, `revision 2: ...`), or nil when nothing was.
    var done: String?
    /// Why nothing was stored, when it was not.
    var reason: String?

    /// The drawing name of page `page` of the set `file`: `prefix` and the page's sheet name, else `BASE pN` with the
    /// file's name without its folder and `.pdf`.
    /// - Complexity: O(n) in the lengths of the names.
    static func name(of page: PDFPageInfo, file: String, prefix: String) -> String {
        prefix + (page.name ?? "\(setName(file)) p\(page.number)")
    }

    /// The file's name without its folder and its `.pdf` extension (any case).
    /// - Complexity: O(n) in the path's length.
    static func setName(_ file: String) -> String {
        let base = file.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? file
        return base.lowercased().hasSuffix(".pdf") && base.count > 4 ? String(base.dropLast(4)) : base
    }

    /// `PAGE<TAB>NAME<TAB>W x H<TAB>stored` (or `not stored: why`).
    var text: String {
        "\(page)\t\(name)\t\(width) x \(height)\t" + (done ?? "not stored: " + (reason ?? "")) + "\n"
    }

    /// A page as JSON: `{"height":H,"name":"...","page":P,"result":"...","stored":true,"width":W}`, or `"reason":"..."`
    /// and `"stored":false` when nothing was stored.
    struct Shape: Encodable {
        var page: Int
        var name: String
        var width: Int
        var height: Int
        var stored: Bool
        var result: String?
        var reason: String?
    }

    /// The page's `Shape`.
    var shape: Shape {
        Shape(page: page, name: name, width: width, height: height, stored: done != nil, result: done, reason: done == nil ? reason ?? "" : nil)
    }

    /// Every line, as text or as `{"file":"SET.pdf","pages":[...]}`.
    static func report(_ lines: [SheetLine], file: String, json: Bool) -> String {
        struct Report: Encodable { var file: String; var pages: [Shape] }
        return json ? JSONDocument.line(Report(file: file, pages: lines.map(\.shape))) : lines.map(\.text).joined()
    }
}
