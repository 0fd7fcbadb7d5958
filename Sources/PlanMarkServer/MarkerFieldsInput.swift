import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore

/// The punch-item fields of a marker body (`POST` and `PATCH /drawings/{name}/markers[/{n}]`), each
/// checked with an error naming its JSON path (`$.due: expected a date YYYY-MM-DD, found "tomorrow"`).
enum MarkerFieldsInput {
    /// The members a new marker may carry.
    static let newMarkerKeys: Set<String> = [
        "x", "y", "lat", "lng", "zoom", "note", "author", "uuid", "status", "category", "priority", "assignee", "due", "capturedAt",
    ]
    /// The members a change may carry.
    static let changeKeys: Set<String> = [
        "x", "y", "lat", "lng", "zoom", "note", "author", "status", "reason", "category", "priority", "assignee", "due",
    ]

    /// The marker a POST body describes, at `position` (pixels; the caller sets the converted position
    /// when the body gives latLng). `null` is the same as leaving a field out.
    static func newMarker(_ body: JSONObject, at position: PixelPoint) throws(APIError) -> NewMarker {
        NewMarker(
            position: position,
            uuid: try uuid(body),
            status: try status(body) ?? .open,
            note: try text(body, "note").applied(to: nil),
            category: try category(body).applied(to: nil),
            priority: try priority(body, allowNull: true) ?? .normal,
            assignee: try text(body, "assignee").applied(to: nil),
            due: try due(body).applied(to: nil),
            capturedAt: try capturedAt(body))
    }

    /// The change a PATCH body describes (without the position, which needs the drawing): `null` clears
    /// note, category, assignee and due; priority and status cannot be null.
    static func change(_ body: JSONObject) throws(APIError) -> MarkerChange {
        let status = try status(body)
        let reason = try body.string("reason")
        if reason != nil && status == nil { throw .invalidField(body.path("reason"), "only meaningful with status") }
        return MarkerChange(
            status: status, reason: reason, note: try text(body, "note"), category: try category(body),
            priority: try priority(body, allowNull: false), assignee: try text(body, "assignee"), due: try due(body))
    }

    /// A string member: `.keep` when absent, `.clear` for null.
    static func text(_ body: JSONObject, _ key: String) throws(APIError) -> Update<String> {
        try body.update(key)
    }

    /// `uuid`: RFC 4122 text (any case; kept in lower case).
    static func uuid(_ body: JSONObject) throws(APIError) -> MarkerUUID? {
        guard let text = try body.string("uuid", allowNull: true) else { return nil }
        guard let uuid = MarkerUUID(text: text) else {
            throw .invalidField(body.path("uuid"), "expected a UUID, 8-4-4-4-12 hexadecimal digits, found \"\(text)\"")
        }
        return uuid
    }

    /// `status`: one of the five (`resolved` is read as `closed`); nil when absent.
    static func status(_ body: JSONObject) throws(APIError) -> MarkerStatus? {
        guard let text = try body.string("status") else { return nil }
        guard let status = MarkerStatus(text: text) else {
            throw .invalidField(body.path("status"), "expected one of \(quotedList(MarkerStatus.allCases.map(\.rawValue))), found \"\(text)\"")
        }
        return status
    }

    /// `category`: at most `Marker.maxCategoryLength` characters.
    static func category(_ body: JSONObject) throws(APIError) -> Update<String> {
        let value = try text(body, "category")
        if case .set(let text) = value, text.count > Marker.maxCategoryLength {
            throw .invalidField(body.path("category"), "longer than \(Marker.maxCategoryLength) characters (\(text.count))")
        }
        return value
    }

    /// `priority`: low, normal, high or critical.
    static func priority(_ body: JSONObject, allowNull: Bool) throws(APIError) -> MarkerPriority? {
        guard let text = try body.string("priority", allowNull: allowNull) else { return nil }
        guard let priority = MarkerPriority(rawValue: text) else {
            throw .invalidField(body.path("priority"), "expected one of \(quotedList(MarkerPriority.allCases.map(\.rawValue))), found \"\(text)\"")
        }
        return priority
    }

    /// `due`: `YYYY-MM-DD`, a day that exists; null clears.
    static func due(_ body: JSONObject) throws(APIError) -> Update<DueDate> {
        switch try text(body, "due") {
        case .keep: return .keep
        case .clear: return .clear
        case .set(let text):
            guard let date = DueDate(text: text) else { throw .invalidField(body.path("due"), "expected a date YYYY-MM-DD, found \"\(text)\"") }
            return .set(date)
        }
    }

    /// `capturedAt`: RFC 3339 date-time with an offset, kept as sent.
    static func capturedAt(_ body: JSONObject) throws(APIError) -> CaptureTime? {
        guard let text = try body.string("capturedAt", allowNull: true) else { return nil }
        guard let time = CaptureTime(text: text) else {
            throw .invalidField(body.path("capturedAt"), "expected an RFC 3339 date-time with an offset (2026-11-20T09:41:07+01:00), found \"\(text)\"")
        }
        return time
    }

    /// `"a", "b", "c"`.
    static func quotedList(_ values: [String]) -> String {
        values.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}
