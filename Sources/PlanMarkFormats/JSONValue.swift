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
        case .array(let items):
            out += "["
            for (k, item) in items.enumerated() {
                if k > 0 { out += "," }
                item.serialize(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (k, (key, value)) in members.enumerated() {
                if k > 0 { out += "," }
                out += "\""
                JSONString.append(key, to: &out)
                out += "\":"
                value.serialize(into: &out)
            }
            out += "}"
        }
    }
}
