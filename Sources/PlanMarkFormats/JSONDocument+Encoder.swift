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
/// A class because a container hands out nested containers that write into it later (as Foundation's encoders do);
/// an object's members and an array's items are kept in the node's own arrays, so adding one is amortised O(1).
final class JSONTreeNode {
    private enum Kind {
        case empty
        /// A string, number, boolean or null.
        case value(JSONValue)
        /// An integer, written exactly (a `JSONValue` number is a double: exact only up to 2^53).
        case integer(Int64)
        /// JSON text made already, written as it is (`JSONFragment`).
        case fragment(String)
        case object
        case array
    }

    private var kind = Kind.empty
    /// The members when `kind` is `.object`, in order.
    private var members: [(String, JSONTreeNode)] = []
    /// The items when `kind` is `.array`, in order.
    private var items: [JSONTreeNode] = []

    /// Makes this node an object (keeping members written through an earlier container).
    func makeObject() {
        if case .object = kind { return }
        kind = .object
    }

    /// Makes this node an array (keeping items written through an earlier container).
    func makeArray() {
        if case .array = kind { return }
        kind = .array
    }

    /// A new member `name` of this object. A keyed container that encodes a name again replaces the earlier member, as in
    /// a dictionary; `unique` (a dictionary's keys, which are) skips that search.
    /// - Complexity: O(1) amortised with `unique`, else O(m) for the m members so far (a shape's few).
    func member(_ name: String, unique: Bool = false) -> JSONTreeNode {
        precondition(isObject, "a member of a value that is not an object")
        let node = JSONTreeNode()
        if !unique, let index = members.firstIndex(where: { $0.0 == name }) {
            members[index].1 = node
        } else {
            members.append((name, node))
        }
        return node
    }

    /// A new item at the end of this array.
    /// - Complexity: O(1) amortised.
    func appendItem() -> JSONTreeNode {
        precondition(isArray, "an item of a value that is not an array")
        let node = JSONTreeNode()
        items.append(node)
        return node
    }

    /// How many items this array has.
    var count: Int { items.count }

    private var isObject: Bool { if case .object = kind { true } else { false } }
    private var isArray: Bool { if case .array = kind { true } else { false } }

    func setValue(_ value: JSONValue) { kind = .value(value) }

    /// Appends the value's text to `out`: as `JSONValue.serialized`, integers exactly, fragments as they are.
    /// - Complexity: O(size of the text).
    func write(to out: inout String) {
        switch kind {
        case .empty: out += "null"
        case .value(let value): out += value.serialized
        case .integer(let number): out += String(number)
        case .fragment(let text): out += text
        case .object: JSONWriting.object(members, to: &out) { $0.write(to: &$1) }
        case .array: JSONWriting.array(items, to: &out) { $0.write(to: &$1) }
        }
    }

    /// Encodes `value` here: plain values directly, a dictionary with string keys as an object in byte order of its
    /// keys, anything else through its `encode(to:)`. The plain types are told apart by their metatype (no dynamic
    /// cast of every value, which most values, numbers of coordinates, would pay).
    /// - Complexity: O(size of the value), plus O(k log k) for a dictionary of k keys.
    func set<T: Encodable>(_ value: T, path: [any CodingKey]) throws {
        switch T.self {
        case is String.Type: setValue(.string(value as! String))
        case is Double.Type: setValue(.number(value as! Double))
        case is Int.Type: kind = .integer(Int64(value as! Int))
        case is Bool.Type: setValue(.bool(value as! Bool))
        case is Int64.Type: kind = .integer(value as! Int64)
        case is JSONFragment.Type: kind = .fragment((value as! JSONFragment).text)
        case is Float.Type: setValue(.number(Double(value as! Float)))
        case is any BinaryInteger.Type:
            // Every other integer type (its own `encode(to:)` would hand it back here): exact, beyond Int64 as its digits.
            let number = value as! any BinaryInteger
            if let exact = Int64(exactly: number) { kind = .integer(exact) } else { kind = .fragment(String(describing: number)) }
        case is any JSONStringKeyed.Type:
            makeObject()
            let dictionary = value as! any JSONStringKeyed
            for (key, member) in dictionary.membersInByteOrder {
                try self.member(key, unique: true).set(member, path: path + [JSONMemberName(key)])
            }
        default:
            try value.encode(to: JSONTreeEncoder(node: self, codingPath: path))
        }
    }
}

/// A dictionary with string keys, which `JSONDocument` writes as an object, its members in byte order of their keys.
protocol JSONStringKeyed {
    /// The members, in byte order of their keys.
    var membersInByteOrder: [(String, any Encodable)] { get }
}

extension Dictionary: JSONStringKeyed where Key == String, Value: Encodable {
    var membersInByteOrder: [(String, any Encodable)] {
        keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { ($0, self[$0]! as any Encodable) }
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
