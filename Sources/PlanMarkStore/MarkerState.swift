import PlanMarkFormats

/// The values of a marker before or after a change, as kept in its history. Only the fields the change
/// touched are set (a move sets `x`, `y` and `rooms`; a status change sets `status`). A text field that was
/// absent is recorded as such (`note == .clear`, `"note":null`), so old values are exact; one the change did not touch
/// is `.keep` (no member).
public struct MarkerState: Hashable, Sendable {
    /// Pixel x.
    public var x: Double?
    /// Pixel y.
    public var y: Double?
    /// The workflow status.
    public var status: MarkerStatus?
    /// The note: `.keep` when the change did not touch it, `.clear` when there was no note.
    public var note: Update<String>
    /// The covering rooms.
    public var rooms: [String]?
    /// For a marker removed because a single-marker drawing got a new one: that marker's number.
    public var replacedBy: Int?
    /// The uuid (set in a created or removed marker's whole state).
    public var uuid: MarkerUUID?
    /// The markers file's id (whole state only).
    public var ref: Update<String>
    /// The category.
    public var category: Update<String>
    /// The priority.
    public var priority: MarkerPriority?
    /// The assignee.
    public var assignee: Update<String>
    /// The due date.
    public var due: Update<DueDate>
    /// The client's capture time (whole state only).
    public var capturedAt: Update<CaptureTime>
    /// Why a status changed (required when work that was ready is rejected back to open).
    public var reason: String?
    /// The attachment an `attached` or `detached` entry is about.
    public var attachment: Attachment?
    /// Why the marker needs placing again (`Marker.needsPlacement`): `.keep` when the change did not touch it,
    /// `.clear` when it was (or became) placed.
    public var needsPlacement: Update<String> = .keep
    /// The drawing's revision number the position belongs to (a `revised` entry's old and new revision).
    public var revision: Int? = nil
    /// A `commented` entry's text.
    public var comment: String? = nil

    /// Creates a state; unset fields were not part of the change.
    public init(x: Double? = nil, y: Double? = nil, status: MarkerStatus? = nil, note: Update<String> = .keep,
                rooms: [String]? = nil, replacedBy: Int? = nil, uuid: MarkerUUID? = nil, ref: Update<String> = .keep,
                category: Update<String> = .keep, priority: MarkerPriority? = nil, assignee: Update<String> = .keep,
                due: Update<DueDate> = .keep, capturedAt: Update<CaptureTime> = .keep, reason: String? = nil, attachment: Attachment? = nil) {
        self.x = x
        self.y = y
        self.status = status
        self.note = note
        self.rooms = rooms
        self.replacedBy = replacedBy
        self.uuid = uuid
        self.ref = ref
        self.category = category
        self.priority = priority
        self.assignee = assignee
        self.due = due
        self.capturedAt = capturedAt
        self.reason = reason
        self.attachment = attachment
    }

    /// `self` with every field `later` sets taken from `later`.
    public func overlaid(with later: MarkerState) -> MarkerState {
        var state = self
        if let x = later.x { state.x = x }
        if let y = later.y { state.y = y }
        if let status = later.status { state.status = status }
        if !later.note.keeps { state.note = later.note }
        if let rooms = later.rooms { state.rooms = rooms }
        if let uuid = later.uuid { state.uuid = uuid }
        if !later.ref.keeps { state.ref = later.ref }
        if !later.category.keeps { state.category = later.category }
        if let priority = later.priority { state.priority = priority }
        if !later.assignee.keeps { state.assignee = later.assignee }
        if !later.due.keeps { state.due = later.due }
        if !later.capturedAt.keeps { state.capturedAt = later.capturedAt }
        return state
    }

    /// The state as a JSON object, set fields only, in a fixed order.
    ///
    /// Written by hand rather than as a `Codable` shape (`JSONDocument`): it is on a measured hot path, two states for
    /// each marker a revision carries (300,000 in `Benchmarks/revise`) and for each of a bulk update's, and `.keep` /
    /// `.clear` / `.set` are "no member" / `null` / a value, which this writer says in one line each.
    /// - Complexity: O(size of the text).
    public var jsonText: String {
        var out = "{"
        func key(_ name: String) {
            if out.count > 1 { out += "," }
            out += "\"\(name)\":"
        }
        func text(_ name: String, _ value: Update<String>) {
            switch value {
            case .keep: return
            case .clear: key(name); out += "null"
            case .set(let text): key(name); out += JSONString.quoted(text)
            }
        }
        if let x { key("x"); out += JSONNumber.text(x) }
        if let y { key("y"); out += JSONNumber.text(y) }
        if let status { key("status"); out += "\"\(status.rawValue)\"" }
        text("note", note)
        if let rooms { key("rooms"); out += RoomList.jsonText(rooms) }
        if let replacedBy { key("replacedBy"); out += String(replacedBy) }
        if let uuid { key("uuid"); out += "\"\(uuid.text)\"" }
        text("ref", ref)
        text("category", category)
        if let priority { key("priority"); out += "\"\(priority.rawValue)\"" }
        text("assignee", assignee)
        text("due", due.map(\.text))
        text("capturedAt", capturedAt.map(\.text))
        if let reason { key("reason"); out += JSONString.quoted(reason) }
        if let attachment { key("attachment"); out += attachment.historyJSON }
        text("needsPlacement", needsPlacement)
        if let revision { key("revision"); out += String(revision) }
        if let comment { key("comment"); out += JSONString.quoted(comment) }
        return out + "}"
    }

    /// Parses `jsonText` output back (and the history of stores written before punch items, whose
    /// `resolved` is `closed`); nil for text that is not such an object.
    public init?(jsonText: String) {
        guard case .object(let members)? = try? JSONParser.parse(Array(jsonText.utf8)) else { return nil }
        self.init()
        func text(_ value: JSONValue) -> Update<String> {
            switch value {
            case .string(let s): return .set(s)
            case .null: return .clear
            default: return .keep
            }
        }
        for (name, value) in members {
            switch (name, value) {
            case ("x", .number(let n)): x = n
            case ("y", .number(let n)): y = n
            case ("status", .string(let s)): status = MarkerStatus(text: s)
            case ("note", _): note = text(value)
            case ("rooms", .array(let items)): rooms = items.compactMap { if case .string(let s) = $0 { s } else { nil } }
            case ("replacedBy", .number(let n)): replacedBy = Int(exactly: n)
            case ("uuid", .string(let s)): uuid = MarkerUUID(text: s)
            case ("ref", _): ref = text(value)
            case ("category", _): category = text(value)
            case ("priority", .string(let s)): priority = MarkerPriority(rawValue: s)
            case ("assignee", _): assignee = text(value)
            case ("due", .string(let s)): due = Update(DueDate(text: s))
            case ("due", .null): due = .clear
            case ("capturedAt", .string(let s)): capturedAt = Update(CaptureTime(text: s))
            case ("capturedAt", .null): capturedAt = .clear
            case ("reason", .string(let s)): reason = s
            case ("attachment", _): attachment = Attachment(historyJSON: value)
            case ("needsPlacement", _): needsPlacement = text(value)
            case ("revision", .number(let n)): revision = Int(exactly: n)
            case ("comment", .string(let s)): comment = s
            default: return nil
            }
        }
    }
}

/// A list of room ids stored as a JSON array of strings (`["2.04","2.05"]`), so exports copy it as is.
public enum RoomList {
    /// `rooms` as a JSON array.
    public static func jsonText(_ rooms: [String]) -> String {
        var out = "["
        for (index, room) in rooms.enumerated() {
            if index > 0 { out += "," }
            out += JSONString.quoted(room)
        }
        return out + "]"
    }

    /// The room ids in `jsonText`; empty for anything that is not an array of strings.
    /// - Complexity: O(length); arrays of plain strings (no escapes) skip the JSON parser.
    public static func rooms(fromJSON jsonText: String) -> [String] {
        if jsonText == "[]" { return [] }
        if let plain = plainRooms(jsonText) { return plain }
        guard case .array(let items)? = try? JSONParser.parse(Array(jsonText.utf8)) else { return [] }
        return items.compactMap { if case .string(let s) = $0 { s } else { nil } }
    }

    /// `["a","b"]` without backslashes or spaces, split directly; nil for anything else.
    static func plainRooms(_ jsonText: String) -> [String]? {
        var text = jsonText
        return text.withUTF8 { bytes -> [String]? in
            guard bytes.count >= 4, bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]"), !bytes.contains(UInt8(ascii: "\\")) else { return nil }
            var rooms: [String] = []
            var index = 1
            while index < bytes.count - 1 {
                guard bytes[index] == UInt8(ascii: "\"") else { return nil }
                guard let close = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
                rooms.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[(index + 1)..<close]), as: UTF8.self))
                index = close + 1
                if index < bytes.count - 1 {
                    guard bytes[index] == UInt8(ascii: ",") else { return nil }
                    index += 1
                    guard index < bytes.count - 1 else { return nil }
                }
            }
            return rooms
        }
    }
}
