import PlanMarkFormats

/// The values of a marker before or after a change, as kept in its history. Only the fields the change
/// touched are set (a move sets `x`, `y` and `rooms`; a resolve sets `status`). A note that was
/// absent is recorded as such (`note == .some(nil)`, `"note":null`), so old values are exact.
public struct MarkerState: Hashable, Sendable {
    /// Pixel x.
    public var x: Double?
    /// Pixel y.
    public var y: Double?
    /// Open or resolved.
    public var status: MarkerStatus?
    /// The note: nil when the change did not touch it, `.some(nil)` when there was no note.
    public var note: String??
    /// The covering rooms.
    public var rooms: [String]?
    /// For a marker removed because a single-marker drawing got a new one: that marker's number.
    public var replacedBy: Int?

    /// Creates a state; unset fields were not part of the change.
    public init(x: Double? = nil, y: Double? = nil, status: MarkerStatus? = nil, note: String?? = nil,
                rooms: [String]? = nil, replacedBy: Int? = nil) {
        self.x = x
        self.y = y
        self.status = status
        self.note = note
        self.rooms = rooms
        self.replacedBy = replacedBy
    }

    /// The state as a JSON object, set fields only, in a fixed order.
    /// - Complexity: O(size of the text).
    public var jsonText: String {
        var out = "{"
        func key(_ name: String) {
            if out.count > 1 { out += "," }
            out += "\"\(name)\":"
        }
        if let x { key("x"); out += JSONNumber.text(x) }
        if let y { key("y"); out += JSONNumber.text(y) }
        if let status { key("status"); out += "\"\(status.rawValue)\"" }
        if let note { key("note"); out += note.map(JSONString.quoted) ?? "null" }
        if let rooms { key("rooms"); out += RoomList.jsonText(rooms) }
        if let replacedBy { key("replacedBy"); out += String(replacedBy) }
        return out + "}"
    }

    /// Parses `jsonText` output back; nil for text that is not such an object.
    public init?(jsonText: String) {
        guard case .object(let members)? = try? JSONParser.parse(Array(jsonText.utf8)) else { return nil }
        self.init()
        for (name, value) in members {
            switch (name, value) {
            case ("x", .number(let n)): x = n
            case ("y", .number(let n)): y = n
            case ("status", .string(let s)): status = MarkerStatus(rawValue: s)
            case ("note", .string(let s)): note = .some(s)
            case ("note", .null): note = .some(nil)
            case ("rooms", .array(let items)): rooms = items.compactMap { if case .string(let s) = $0 { s } else { nil } }
            case ("replacedBy", .number(let n)): replacedBy = Int(exactly: n)
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
