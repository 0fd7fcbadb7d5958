/// The one way a small JSON shape becomes text: each shape (an error, a drawing, a revision, a summary, a comment, an
/// attachment, tiles.json ...) is an `Encodable` type, and both front doors write it through here, so the CLI's
/// `--format json` and the service's answer are the same bytes.
///
/// Members come in the order the type encodes them (a synthesised `Encodable`: the order its properties are
/// declared), a dictionary's in byte order of its keys; strings are escaped as `JSONString` does and numbers written as
/// `JSONNumber` does (`40`, `12.5`, `1e-07`, `-0` as `0`). Why not Foundation's `JSONEncoder`: on Linux it writes an
/// object's members in the order of a hashed dictionary, which changes from one process to the next, unless they are
/// sorted (`.sortedKeys`), which loses the documented order (a drawing's `name` first, statuses in workflow order).
/// Its encoder (`JSONDocument+Encoder.swift`) builds a tree whose objects keep their members in order, then writes it.
///
/// Hand-written writers stay only on the paths whose speed was measured: the markers' listing (`MarkerWriter`), the
/// validation report, and the history's stored states (`MarkerState`, written for each of a revision's 300,000
/// markers), each saying so. Text they made goes into a shape as a `JSONFragment`.
public enum JSONDocument {
    /// `value` as JSON text, without a line break.
    /// - Complexity: O(size of the text), plus O(k log k) for each dictionary of k keys.
    public static func text<T: Encodable>(_ value: T) -> String {
        var out = ""
        tree(of: value).write(to: &out)
        return out
    }

    /// `value` as one line of JSON text: the text and a line break (a command's or an endpoint's whole answer).
    /// - Complexity: as `text(_:)`.
    public static func line<T: Encodable>(_ value: T) -> String {
        text(value) + "\n"
    }

    private static func tree<T: Encodable>(of value: T) -> JSONTreeNode {
        let root = JSONTreeNode()
        do {
            try root.set(value, path: [])
        } catch {
            // Only an `encode(to:)` that throws can fail here, and no shape has one.
            preconditionFailure("a JSON shape failed to encode: \(error)")
        }
        return root
    }
}
