/// What a change does to one optional field: leaves it as it is, clears it, or sets it. A change's fields and a history
/// entry's old and new values are of this type (what `T??` said before, with names: `.keep` was `nil`, `.clear` was
/// `.some(nil)`, `.set(v)` was `.some(v)`).
public enum Update<Value: Hashable & Sendable>: Hashable, Sendable {
    /// Not part of the change: the field keeps its value.
    case keep
    /// The field becomes empty (absent).
    case clear
    /// The field becomes `value`.
    case set(Value)

    /// `value`, or clear for nil: what a field that is recorded whole becomes.
    public init(_ value: Value?) {
        self = value.map(Update.set) ?? .clear
    }

    /// The field's value after the update, given its value before.
    /// - Complexity: O(1).
    public func applied(to current: Value?) -> Value? {
        switch self {
        case .keep: return current
        case .clear: return nil
        case .set(let value): return value
        }
    }

    /// Whether the update leaves the field as it is.
    public var keeps: Bool { self == .keep }

    /// The update of another type: `transform` applied to a set value.
    public func map<Other>(_ transform: (Value) -> Other) -> Update<Other> {
        switch self {
        case .keep: return .keep
        case .clear: return .clear
        case .set(let value): return .set(transform(value))
        }
    }
}

extension Update: ExpressibleByUnicodeScalarLiteral, ExpressibleByExtendedGraphemeClusterLiteral, ExpressibleByStringLiteral
where Value == String {
    /// A text literal sets the field to it.
    public init(stringLiteral value: String) { self = .set(value) }
}
