import Hummingbird

/// Entity tags: comparison for `If-None-Match` (304s of images, tiles and marker lists) and a marker's version as its
/// tag for `If-Match` (RFC 9110 §13.1).
enum EntityTag {
    /// True when the request's `If-None-Match` lists `etag` (weak comparison, as RFC 9110 asks for this
    /// header: `W/"x"` matches `"x"`) or is `*`: the client's copy is current (304).
    /// - Complexity: O(length of the header).
    static func noneMatch(_ request: Request, _ etag: String) -> Bool {
        noneMatch(request.headers[.ifNoneMatch], etag)
    }

    /// True when `header` (an `If-None-Match` value) lists `etag` or is `*`.
    /// - Complexity: O(length of the header).
    static func noneMatch(_ header: String?, _ etag: String) -> Bool {
        guard let header else { return false }
        return header.split(separator: ",").contains { item in
            var tag = item.trimmingSpaces()
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            return tag == etag[...]
        }
    }

    /// A marker's tag: its version, quoted (`"3"`).
    static func version(_ version: Int) -> String { "\"\(version)\"" }

    /// The marker version a request's `If-Match` names: nil without the header or with `*` (any current marker: the
    /// write needs the marker anyway); 0 (which no marker has) for a tag that can never match strongly (a weak tag
    /// `W/"3"`, or one that is not a version). Several tags are refused: a marker has one version.
    /// - Complexity: O(length of the header).
    static func ifMatchVersion(_ request: Request) throws(APIError) -> Int? {
        let values = request.headers[values: .ifMatch]
        guard !values.isEmpty else { return nil }
        let tags = values.flatMap { $0.split(separator: ",") }.map { $0.trimmingSpaces() }
        guard tags.count == 1, let tag = tags.first else {
            throw APIError(.badRequest, code: "invalid-field", message: "If-Match: give one version (\"3\") or *")
        }
        if tag == "*" { return nil }
        guard tag.count >= 3, tag.first == "\"", tag.last == "\"", let version = Int(tag.dropFirst().dropLast()), version >= 1 else { return 0 }
        return version
    }
}
