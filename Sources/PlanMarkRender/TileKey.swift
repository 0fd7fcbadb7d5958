/// What a tile pyramid is made from, and the name of its folder under a tile root (`TileFolder`) and the `v` of its tile
/// URLs: the SHA-256 of the drawing's image bytes, and for a page of a PDF the page and resolution too, since one PDF
/// (one SHA-256) has a pyramid for each page and each dpi it is drawn at.
///
/// - A PNG: `<sha256>` (as before pages of PDFs had pyramids, so pyramids on disk keep their names).
/// - A page of a PDF: `<sha256>-p<page>-<dpi>` (`…-p2-300`).
///
/// Written once here: the CLI's `drawing add` and `planmark tiles`, the server's cache and its URL template all name
/// pyramids through it.
package struct TileKey: Hashable, Sendable, CustomStringConvertible {
    /// The SHA-256 of the stored image bytes (the PNG's, or the whole PDF's), 64 lowercase hexadecimal digits.
    package let sha256: String
    /// The page (from 1) and resolution (dpi) of a PDF drawing; nil for a PNG.
    package let pdf: (page: Int, dpi: Int)?

    /// The key of a PNG's pyramid.
    package init(sha256: String) {
        self.sha256 = sha256
        self.pdf = nil
    }

    /// The key of the pyramid of page `page` of the PDF whose SHA-256 is `sha256`, drawn at `dpi`.
    package init(sha256: String, page: Int, dpi: Int) {
        self.sha256 = sha256
        self.pdf = (page, dpi)
    }

    /// The key a folder `name` under a tile root stands for, or nil when it is no pyramid's name (a temporary folder,
    /// a PDF file, anything else).
    /// - Complexity: O(length of `name`).
    package init?(name: String) {
        let parts = name.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, Self.isDigest(first) else { return nil }
        if parts.count == 1 {
            self.init(sha256: String(first))
            return
        }
        guard parts.count == 3, parts[1].first == "p", let page = Self.number(parts[1].dropFirst()), page >= 1,
              let dpi = Self.number(parts[2]), dpi >= 1 else { return nil }
        self.init(sha256: String(first), page: page, dpi: dpi)
    }

    /// The folder's name and the tile URLs' `v`: `<sha256>` or `<sha256>-p<page>-<dpi>`.
    package var name: String {
        guard let pdf else { return sha256 }
        return "\(sha256)-p\(pdf.page)-\(pdf.dpi)"
    }

    package var description: String { name }

    package static func == (a: TileKey, b: TileKey) -> Bool { a.name == b.name }

    package func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// True for 64 lowercase hexadecimal digits.
    /// - Complexity: O(length of `text`).
    package static func isDigest(_ text: some StringProtocol) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
    }

    /// A whole number written in decimal digits only (no sign, no leading zero), or nil.
    private static func number(_ text: some StringProtocol) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), text.first != "0" else { return nil }
        return Int(text)
    }
}
