import PlanMarkFormats
import Hummingbird
import PlanMarkGeometry
import PlanMarkStore

/// Typed access to a request's query parameters; errors name the parameter.
struct QueryParameters {
    /// The decoded parameters (a repeated key: its last value).
    let values: [String: String]
    /// Every value of each key, in the order given (`signOff=A&signOff=B`).
    let all: [String: [String]]

    /// Reads the query of `request`: percent-escapes decoded exactly once (RFC 3986), `+` kept as a plus.
    init(_ request: Request) throws(APIError) {
        all = try Self.parseAll(request.uri.query)
        values = all.compactMapValues(\.last)
    }

    /// The parameters of the raw query text `query` (what follows `?`, as the client sent it).
    ///
    /// Each `&`-separated item is `KEY=VALUE` (or `KEY`, an empty value); key and value are percent-decoded
    /// once, here and nowhere else, so `%2B` is a plus, `%25` a percent sign and `%2541` the text `%41`. A `+`
    /// is a plus: only `application/x-www-form-urlencoded` bodies read it as a space, and a query is not one.
    /// A bad escape (`%`, `%4`, `%GG`) or bytes that are not UTF-8 once decoded (`%FF`) are 400 naming the
    /// parameter; a repeated key keeps its last value; empty items (`a=1&&b=2`) are skipped.
    /// - Complexity: O(length of the query).
    static func parse(_ query: String?) throws(APIError) -> [String: String] {
        try parseAll(query).compactMapValues(\.last)
    }

    /// As `parse`, with every value of a repeated key, in order.
    /// - Complexity: O(length of the query).
    static func parseAll(_ query: String?) throws(APIError) -> [String: [String]] {
        guard let query, !query.isEmpty else { return [:] }
        var values: [String: [String]] = [:]
        for item in query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = item.firstIndex(of: UInt8(ascii: "="))
            let rawKey = item[..<(equals ?? item.endIndex)]
            let rawValue = equals.map { item[item.index(after: $0)...] } ?? item[item.endIndex...]
            guard let key = PathComponent.decode(Substring(rawKey)) else {
                throw .invalidField(String(decoding: rawKey, as: UTF8.self), "bad percent-escape or text that is not UTF-8 in the query's parameter name")
            }
            guard let value = PathComponent.decode(Substring(rawValue)) else {
                throw .invalidField(key, "bad percent-escape or text that is not UTF-8 in the query")
            }
            values[key, default: []].append(value)
        }
        return values
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

    /// The filter keys of marker listings, summaries and review images.
    static let filterKeys: Set<String> = ["status", "category", "assignee", "priority", "room", "overdue", "q", "needsPlacement"]

    /// The marker filter of `filterKeys`: `status=open,ready` (any of; `resolved` is `closed`, and `all`, alone,
    /// is every status when `allowAll`), `priority=high,critical`, `category=`, `assignee=` (whole text, any
    /// case), `room=ID`, `overdue=true`, `q=TEXT` (in note, category or assignee, any case), `needsPlacement=true`. A parameter given
    /// empty is no condition; a bad value is 400 naming the parameter.
    /// - Complexity: O(length of the query).
    func markerFilter(allowAll: Bool = false) throws(APIError) -> MarkerFilter {
        var filter = MarkerFilter()
        if let text = nonEmpty("status"), !(allowAll && text == "all") {
            for item in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let status = MarkerStatus(text: String(item)) else {
                    let names = MarkerStatus.allCases.map(\.rawValue) + (allowAll ? ["all"] : [])
                    throw .invalidField("status", "expected a comma-separated list of \(names.joined(separator: ", ")), found \"\(item)\"")
                }
                filter.statuses.insert(status)
            }
        }
        if let text = nonEmpty("priority") {
            for item in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let priority = MarkerPriority(rawValue: String(item)) else {
                    let names = MarkerPriority.allCases.map(\.rawValue).joined(separator: ", ")
                    throw .invalidField("priority", "expected a comma-separated list of \(names), found \"\(item)\"")
                }
                filter.priorities.insert(priority)
            }
        }
        filter.category = nonEmpty("category")
        filter.assignee = nonEmpty("assignee")
        filter.room = nonEmpty("room")
        filter.search = nonEmpty("q")
        filter.overdue = try bool("overdue") ?? false
        filter.needsPlacement = try bool("needsPlacement") ?? false
        return filter
    }

    /// The value of `name`, nil when absent or empty.
    func nonEmpty(_ name: String) -> String? {
        guard let text = values[name], !text.isEmpty else { return nil }
        return text
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
