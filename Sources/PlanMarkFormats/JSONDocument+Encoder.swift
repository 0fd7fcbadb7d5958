// `JSONDocument`'s encoder: a tree of values built through the `Encoder` protocols, then written in order.

/// Any member name, for objects whose names are data.
struct JSONMemberName: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A value being encoded: empty until set, then a single value, an object (members in order) or an array.
/// A class because a container hands out nested containers that write into it later (as Foundation's encoders do).
final class JSONTreeNode {
    private enum Content {
        case empty
        case value(JSONValue)
        /// An integer, written exactly (a `JSONValue` number is a double: exact only up to 2^53).
        case integer(Int64)
        /// JSON text made already, written as it is (`JSONFragment`).
        case fragment(String)
        case object([(String, JSONTreeNode)])
        case array([JSONTreeNode])
    }

    private var content = Content.empty

    /// The encoded value (`null` for a value nothing was written to).
    var value: JSONValue {
        switch content {
        case .empty: return .null
        case .value(let value): return value
        case .integer(let number): return .number(Double(number))
        case .fragment(let text): return (try? JSONParser.parse(Array(text.utf8))) ?? .null
        case .object(let members): return .object(members.map { ($0.0, $0.1.value) })
        case .array(let items): return .array(items.map(\.value))
        }
    }

    /// Makes this node an object (keeping members written through an earlier container).
    func makeObject() {
        if case .object = content { return }
        content = .object([])
    }

    /// Makes this node an array (keeping items written through an earlier container).
    func makeArray() {
        if case .array = content { return }
        content = .array([])
    }

    /// A new member `name` of this object (a repeated name replaces the earlier member, as in a dictionary).
    func member(_ name: String) -> JSONTreeNode {
        guard case .object(var members) = content else { preconditionFailure("a member of a value that is not an object") }
        let node = JSONTreeNode()
        if let index = members.firstIndex(where: { $0.0 == name }) { members[index].1 = node } else { members.append((name, node)) }
        content = .object(members)
        return node
    }

    /// A new item at the end of this array.
    func appendItem() -> JSONTreeNode {
        guard case .array(var items) = content else { preconditionFailure("an item of a value that is not an array") }
        let node = JSONTreeNode()
        items.append(node)
        content = .array(items)
        return node
    }

    /// How many items this array has.
    var count: Int {
        if case .array(let items) = content { return items.count }
        if case .object(let members) = content { return members.count }
        return 0
    }

    func setValue(_ value: JSONValue) { content = .value(value) }

    /// Appends the value's text to `out`: as `JSONValue.serialized`, integers exactly.
    /// - Complexity: O(size of the text).
    func write(to out: inout String) {
        switch content {
        case .empty: out += "null"
        case .value(let value): out += value.serialized
        case .integer(let number): out += String(number)
        case .fragment(let text): out += text
        case .object(let members): JSONWriting.object(members, to: &out) { $0.write(to: &$1) }
        case .array(let items): JSONWriting.array(items, to: &out) { $0.write(to: &$1) }
        }
    }

    /// Encodes `value` here: plain values directly, a dictionary with string keys as an object in byte order of its
    /// keys, anything else through its `encode(to:)`.
    func set<T: Encodable>(_ value: T, path: [any CodingKey]) throws {
        switch value {
        case let text as String: setValue(.string(text))
        case let fragment as JSONFragment: content = .fragment(fragment.text)
        case let flag as Bool: setValue(.bool(flag))
        case let number as Double: setValue(.number(number))
        case let number as Float: setValue(.number(Double(number)))
        case let number as Int: content = .integer(Int64(number))
        case let number as Int64: content = .integer(number)
        case let number as Int32: content = .integer(Int64(number))
        case let number as UInt32: content = .integer(Int64(number))
        case let number as UInt64 where number <= UInt64(Int64.max): content = .integer(Int64(number))
        case let dictionary as [String: any Encodable]:
            makeObject()
            for key in dictionary.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                try member(key).set(dictionary[key]!, path: path + [JSONMemberName(key)])
            }
        default:
            try value.encode(to: JSONTreeEncoder(node: self, codingPath: path))
        }
    }
}

/// The `Encoder` over a `JSONTreeNode`.
struct JSONTreeEncoder: Encoder {
    let node: JSONTreeNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeObject()
        return KeyedEncodingContainer(JSONObjectContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.makeArray()
        return JSONArrayContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONSingleContainer(node: node, codingPath: codingPath)
    }
}

struct JSONObjectContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: JSONTreeNode
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { node.member(key.stringValue).setValue(.null) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try node.member(key.stringValue).set(value, path: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        JSONTreeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        JSONTreeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        JSONTreeEncoder(node: node.member("super"), codingPath: codingPath + [JSONMemberName("super")])
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        JSONTreeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
    }
}

struct JSONArrayContainer: UnkeyedEncodingContainer {
    let node: JSONTreeNode
    let codingPath: [any CodingKey]
    var count: Int { node.count }

    mutating func encodeNil() throws { node.appendItem().setValue(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try node.appendItem().set(value, path: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        JSONTreeEncoder(node: node.appendItem(), codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        JSONTreeEncoder(node: node.appendItem(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        JSONTreeEncoder(node: node.appendItem(), codingPath: codingPath)
    }
}

struct JSONSingleContainer: SingleValueEncodingContainer {
    let node: JSONTreeNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.setValue(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try node.set(value, path: codingPath)
    }
}
