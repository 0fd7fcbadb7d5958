/// A parsed JSON value. Objects keep their keys in file order.
public enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, keys in file order.
    case object([(String, JSONValue)])

    /// The member named `key` of an object, or nil. (`JSONParser` refuses repeated keys; for a value
    /// built in code that repeats one, the last is taken.)
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { $0.0 == key })?.1
    }

    /// A short name of the value's type for error messages.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .number(let n): hasher.combine(n)
        case .string(let s): hasher.combine(s)
        case .array(let a): hasher.combine(a)
        case .object(let o): for (k, v) in o { hasher.combine(k); hasher.combine(v) }
        }
    }
}

extension JSONValue {
    /// The value as compact JSON text: keys in order, strings escaped as `JSONString` does, numbers as
    /// `JSONNumber` writes them (shortest text that parses back to the same double). Non-finite
    /// numbers, which JSON cannot spell (a literal like `1e400` parses to infinity), become `null` as
    /// in `JSON.stringify`; every other value parses back (`JSONParser.parse`) to an equal value.
    /// - Complexity: O(n) for a value of n bytes of text.
    public var serialized: String {
        var out = ""
        serialize(into: &out)
        return out
    }

    /// True when some number in the value is infinite or NaN.
    /// - Complexity: O(n) for n values.
    public var containsNonFiniteNumber: Bool {
        switch self {
        case .number(let n): return !n.isFinite
        case .array(let items): return items.contains { $0.containsNonFiniteNumber }
        case .object(let members): return members.contains { $0.1.containsNonFiniteNumber }
        case .null, .bool, .string: return false
        }
    }

    private func serialize(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .number(let n): out += JSONNumber.text(n)
        case .string(let text):
            out += "\""
            JSONString.append(text, to: &out)
            out += "\""
        case .array(let items): JSONWriting.array(items, to: &out) { $0.serialize(into: &$1) }
        case .object(let members): JSONWriting.object(members, to: &out) { $0.serialize(into: &$1) }
        }
    }
}

/// The brackets, commas and member names of JSON text, around values each caller writes its own way (`JSONValue`,
/// `JSONDocument`'s tree).
enum JSONWriting {
    /// `[ITEM,...]`.
    /// - Complexity: O(n) plus what `write` does for each of the n items.
    static func array<Item>(_ items: [Item], to out: inout String, _ write: (Item, inout String) -> Void) {
        out += "["
        for (index, item) in items.enumerated() {
            if index > 0 { out += "," }
            write(item, &out)
        }
        out += "]"
    }

    /// `{"NAME":VALUE,...}`, names escaped as `JSONString` does.
    /// - Complexity: O(length of the names) plus what `write` does for each value.
    static func object<Value>(_ members: [(String, Value)], to out: inout String, _ write: (Value, inout String) -> Void) {
        out += "{"
        for (index, (name, value)) in members.enumerated() {
            if index > 0 { out += "," }
            out += "\""
            JSONString.append(name, to: &out)
            out += "\":"
            write(value, &out)
        }
        out += "}"
    }
}

extension JSONValue: Encodable {
    /// A member name of an object being encoded.
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The value as JSON (an object's members in `JSONDocument`'s key order).
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .array(let items):
            var array = encoder.unkeyedContainer()
            for item in items { try array.encode(item) }
        case .object(let members):
            var object = encoder.container(keyedBy: Key.self)
            for (name, value) in members { try object.encode(value, forKey: Key(stringValue: name)) }
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .number(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .string(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        }
    }
}
