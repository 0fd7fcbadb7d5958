import CPoppler

extension PDFDocument {
    /// Each page's sheet name, by page number (from 1); a page without one is not in the dictionary.
    ///
    /// A page's name is the title of the first outline (bookmark) entry that goes to it, the outline walked depth
    /// first in document order (an entry before its children, nested entries included; named destinations are looked
    /// up); else the page's label when it is not just the page's number in decimal (`S-1`, `iv`, but not `3` on page
    /// 3); else none. Titles and labels are kept as written, only whitespace around them trimmed; an empty one counts
    /// as none.
    /// - Complexity: O(e + p) for e outline entries and p pages (each named destination is one lookup in the
    ///   document's name tree).
    public func sheetNames() -> [Int: String] {
        handle.withLock { handle in
            var names: [Int: String] = [:]
            if let iterator = poppler_index_iter_new(handle.document) {
                var budget = PDFDocument.maxOutlineEntries
                PDFDocument.collectOutline(iterator, document: handle.document, pageCount: pageCount, depth: 1, budget: &budget, into: &names)
                poppler_index_iter_free(iterator)
            }
            for page in 1...pageCount where names[page] == nil {
                guard let popplerPage = poppler_document_get_page(handle.document, Int32(page - 1)) else { continue }
                defer { g_object_unref(UnsafeMutableRawPointer(popplerPage)) }
                guard let label = poppler_page_get_label(popplerPage) else { continue }
                defer { g_free(label) }
                let text = PDFDocument.trimmed(String(cString: label))
                if !text.isEmpty && text != String(page) { names[page] = text }
            }
            return names
        }
    }

    /// The most outline entries read, and the deepest level: a damaged or hostile outline (a loop, millions of
    /// entries) ends the walk there instead of running on.
    static let maxOutlineEntries = 100_000, maxOutlineDepth = 64

    /// Walks the outline level that `iterator` is on, and each entry's children right after the entry, keeping the
    /// first title found for each page; stops after `budget` entries or below `maxOutlineDepth` levels.
    /// - Complexity: O(e) for the e entries under this level (at most `maxOutlineEntries`), plus a name-tree lookup
    ///   for each named destination.
    private static func collectOutline(
        _ iterator: OpaquePointer, document: OpaquePointer, pageCount: Int, depth: Int, budget: inout Int, into names: inout [Int: String]
    ) {
        repeat {
            guard budget > 0 else { return }
            budget -= 1
            if let action = poppler_index_iter_get_action(iterator) {
                if let (page, title) = destination(of: action, document: document), (1...pageCount).contains(page), names[page] == nil {
                    names[page] = title
                }
                poppler_action_free(action)
            }
            if depth < maxOutlineDepth, let child = poppler_index_iter_get_child(iterator) {
                collectOutline(child, document: document, pageCount: pageCount, depth: depth + 1, budget: &budget, into: &names)
                poppler_index_iter_free(child)
            }
        } while poppler_index_iter_next(iterator) != 0
    }

    /// The page (from 1) an outline entry's go-to action leads to, with the entry's trimmed title; nil for other
    /// actions, an empty title, or a destination that cannot be found.
    /// - Complexity: O(1), plus one name-tree lookup for a named destination.
    private static func destination(of action: UnsafeMutablePointer<PopplerAction>, document: OpaquePointer) -> (Int, String)? {
        guard action.pointee.type == POPPLER_ACTION_GOTO_DEST, let dest = action.pointee.goto_dest.dest,
              let rawTitle = action.pointee.goto_dest.title else { return nil }
        let title = trimmed(String(cString: rawTitle))
        guard !title.isEmpty else { return nil }
        if dest.pointee.type == POPPLER_DEST_NAMED {
            guard let name = dest.pointee.named_dest, let found = poppler_document_find_dest(document, name) else { return nil }
            defer { poppler_dest_free(found) }
            return (Int(found.pointee.page_num), title)
        }
        return (Int(dest.pointee.page_num), title)
    }

    /// `text` without the whitespace (spaces, tabs, line breaks) around it.
    /// - Complexity: O(n) for n characters.
    static func trimmed(_ text: String) -> String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(text[first...last])
    }
}
