import PlanMarkFormats

/// A JSON object from a request, with typed accessors whose errors name the field (`$.lat: expected a number`).
struct JSONObject {
    /// The members.
    let value: JSONValue
    /// The object's JSON path, for errors.
    let path: String
    /// The exact source text of the numbers that are the value of a member named `id` anywhere in the
    /// request body, by JSON path from the body's root (`$.markers.features[3].id` -> `1.50`).
    let idNumberTexts: [String: String]

    /// Wraps `value`, which must be an object.
    init(_ value: JSONValue, path: String, idNumberTexts: [String: String] = [:]) throws(APIError) {
        guard case .object = value else { throw .invalidField(path, "expected a JSON object, found \(value.typeName)") }
        self.value = value
        self.path = path
        self.idNumberTexts = idNumberTexts
    }

    /// The path of member `key`.
    func path(_ key: String) -> String { path + "." + key }

    /// True when `key` is present (even as null).
    func has(_ key: String) -> Bool { value[key] != nil }

    /// The raw member, nil when absent.
    subscript(key: String) -> JSONValue? { value[key] }

    /// A finite number, nil when absent; 400 when present but not a number.
    func number(_ key: String) throws(APIError) -> Double? {
        switch value[key] {
        case nil: return nil
        case .number(let number)?:
            guard number.isFinite else { throw .invalidField(path(key), "expected a finite number") }
            return number
        case let other?: throw .invalidField(path(key), "expected a number, found \(other.typeName)")
        }
    }

    /// What a member says of a text field: absent `.keep`, `null` `.clear` (when `allowNull`), a string `.set`; 400
    /// otherwise.
    func update(_ key: String, allowNull: Bool = true) throws(APIError) -> Update<String> {
        switch value[key] {
        case nil: return .keep
        case .null? where allowNull: return .clear
        case .string(let text)?: return .set(text)
        case let other?: throw .invalidField(path(key), "expected a string\(allowNull ? " or null" : ""), found \(other.typeName)")
        }
    }

    /// A string, nil when absent (or `null`, when `allowNull`); 400 otherwise.
    func string(_ key: String, allowNull: Bool = false) throws(APIError) -> String? {
        try update(key, allowNull: allowNull).applied(to: nil)
    }

    /// A boolean, nil when absent; 400 when present but not a boolean.
    func bool(_ key: String) throws(APIError) -> Bool? {
        switch value[key] {
        case nil: return nil
        case .bool(let flag)?: return flag
        case let other?: throw .invalidField(path(key), "expected true or false, found \(other.typeName)")
        }
    }

    /// Refuses members other than `allowed`, so a misspelt field is reported rather than ignored.
    func onlyKeys(_ allowed: Set<String>) throws(APIError) {
        guard case .object(let members) = value else { return }
        for (key, _) in members where !allowed.contains(key) {
            throw .invalidField(path(key), "unknown field; expected one of \(allowed.sorted().joined(separator: ", "))")
        }
    }
}
