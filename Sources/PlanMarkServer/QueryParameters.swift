import Hummingbird
import PlanMarkGeometry
import PlanMarkStore

/// Typed access to a request's query parameters; errors name the parameter.
struct QueryParameters {
    /// The decoded parameters.
    let values: [String: String]

    /// Reads the query of `request` (percent-escapes and `+` decoded).
    init(_ request: Request) throws(APIError) {
        var values: [String: String] = [:]
        for (key, value) in request.uri.queryParameters {
            guard let name = PathComponent.decode(key.replacingPlus()), let text = PathComponent.decode(value.replacingPlus()) else {
                throw .invalidField(String(key), "bad percent-escape in the query")
            }
            values[name] = text
        }
        self.values = values
    }

    /// The zoom in `zoom`, nil when absent; 400 unless a number in [-64, 64].
    func zoom(_ name: String = "zoom") throws(APIError) -> Zoom? {
        guard let text = values[name] else { return nil }
        guard let value = Double(text), value.isFinite else { throw .invalidField(name, "expected a number, found \"\(text)\"") }
        return try Self.checkedZoom(value, field: name)
    }

    /// `value` as a zoom; 400 outside [-64, 64] (beyond that, pixels and latLng overflow or vanish).
    static func checkedZoom(_ value: Double, field: String) throws(APIError) -> Zoom {
        guard value >= -64 && value <= 64 else { throw .invalidField(field, "expected a zoom between -64 and 64, found \(value)") }
        return Zoom(value)
    }

    /// `status=open|resolved` (and `all` when `allowAll`), nil when absent or `all`.
    func status(allowAll: Bool = false) throws(APIError) -> MarkerStatus? {
        guard let text = values["status"] else { return nil }
        if allowAll && text == "all" { return nil }
        guard let status = MarkerStatus(rawValue: text) else {
            throw .invalidField("status", "expected open\(allowAll ? ", resolved or all" : " or resolved"), found \"\(text)\"")
        }
        return status
    }

    /// A whole number at least `minimum`, nil when absent.
    func integer(_ name: String, minimum: Int) throws(APIError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text), value >= minimum else { throw .invalidField(name, "expected a whole number >= \(minimum), found \"\(text)\"") }
        return value
    }

    /// A number, nil when absent.
    func number(_ name: String) throws(APIError) -> Double? {
        guard let text = values[name] else { return nil }
        guard let value = Double(text), value.isFinite else { throw .invalidField(name, "expected a number, found \"\(text)\"") }
        return value
    }

    /// `true`/`false`/`1`/`0`, nil when absent.
    func bool(_ name: String) throws(APIError) -> Bool? {
        guard let text = values[name] else { return nil }
        switch text {
        case "true", "1", "": return true
        case "false", "0": return false
        default: throw .invalidField(name, "expected true or false, found \"\(text)\"")
        }
    }

    /// Refuses parameters other than `allowed`.
    func onlyKeys(_ allowed: Set<String>) throws(APIError) {
        for key in values.keys.sorted() where !allowed.contains(key) {
            throw .invalidField(key, "unknown query parameter; this endpoint takes \(allowed.isEmpty ? "none" : allowed.sorted().joined(separator: ", "))")
        }
    }
}

extension Substring {
    /// The text with `+` read as a space, as forms encode it.
    func replacingPlus() -> String {
        String(self.map { $0 == "+" ? " " : $0 })
    }
}
