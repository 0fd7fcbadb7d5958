import XMLCoder

/// An element of a BCF document as XMLCoder writes and reads it: the coding keys in `attributes` are XML attributes, the
/// others child elements (said once here for every element type of the schema).
protocol BCFElement: Codable, DynamicNodeEncoding, DynamicNodeDecoding {
    /// The keys written as attributes.
    static var attributes: Set<String> { get }
}

extension BCFElement {
    static func nodeEncoding(for key: CodingKey) -> XMLEncoder.NodeEncoding { attributes.contains(key.stringValue) ? .attribute : .element }
    static func nodeDecoding(for key: CodingKey) -> XMLDecoder.NodeDecoding { attributes.contains(key.stringValue) ? .attribute : .element }
}
