import PlanMarkFormats
import PlanMarkPDFCore

/// What became of one page of a sheet set: the line `sheets add` and `sheets revise` print for it.
struct SheetLine: Sendable, Encodable {
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

    private enum CodingKeys: String, CodingKey { case page, name, width, height, stored, result, reason }

    /// The page as JSON: `{"page":P,"name":"...","width":W,"height":H,"stored":true,"result":"..."}`, or
    /// `"stored":false,"reason":"..."` when nothing was stored.
    func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: CodingKeys.self)
        try object.encode(page, forKey: .page)
        try object.encode(name, forKey: .name)
        try object.encode(width, forKey: .width)
        try object.encode(height, forKey: .height)
        try object.encode(done != nil, forKey: .stored)
        if let done { try object.encode(done, forKey: .result) } else { try object.encode(reason ?? "", forKey: .reason) }
    }

    /// Every line, as text or as `{"file":"SET.pdf","pages":[...]}`.
    static func report(_ lines: [SheetLine], file: String, json: Bool) -> String {
        struct Report: Encodable { var file: String; var pages: [SheetLine] }
        return json ? JSONDocument.line(Report(file: file, pages: lines)) : lines.map(\.text).joined()
    }
}
