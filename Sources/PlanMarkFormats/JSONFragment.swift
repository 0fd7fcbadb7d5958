/// A value whose JSON text is made already, written as it is by `JSONDocument`: a quantity rounded to the millimetre
/// (`27.750`), or a marker's object from `MarkerWriter` (the listing's measured writer) inside a change or an error.
public struct JSONFragment: Encodable, Sendable, Hashable {
    /// The value's JSON text.
    public var text: String

    /// The value whose JSON text is `text` (valid JSON, which the caller's writer made).
    public init(_ text: String) { self.text = text }

    /// For another encoder: the value `text` parses to (`null` if it does not parse).
    public func encode(to encoder: any Encoder) throws {
        try ((try? JSONParser.parse(Array(text.utf8))) ?? JSONValue.null).encode(to: encoder)
    }
}
