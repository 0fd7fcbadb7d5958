import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore

/// The formats markers are written in.
public enum MarkerFormat: String, CaseIterable, Sendable {
    case text, json, jsonl, csv, geojson
}

/// Writes markers, the one writer of every marker format: `planmark markers` and the service's marker
/// answers (`GET .../markers` is `.geojson`; one marker is `MarkerWriter.object`) both use it, so the CLI's
/// export and the service's answer for the same store and options are the same bytes.
///
/// Written byte by byte into a `ReportBuffer`, not as a `Codable` shape (`JSONDocument`): it is the measured hot path
/// of every marker listing (`GET .../markers` of 10,000 markers, `Benchmarks/server` and `Benchmarks/postgres`; exports
/// of a million, `Benchmarks/store`).
///
/// Every format carries every field of a punch item, so that an export can be imported into another store
/// without loss; the marker's `ref` (the markers file's id it was imported with) is written back as `id`.
///
/// - The marker **object** (json, jsonl, one marker, and GeoJSON `properties`):
///   `{"id","uuid","number","x","y"[,"lat","lng"],"status","category","priority","assignee","due","capturedAt",
///   "note","author","rooms","createdAt","updatedAt","overdue","needsPlacement","version"}`; `id` (the ref), `category`, `assignee`, `due`,
///   `capturedAt`, `note`, `author` are null when not set; `x`, `y` in pixels always, `lat`, `lng` when a latLng
///   conversion is given; `overdue` is `true` when due before `today` and not closed or void; `needsPlacement` is
///   the reason a marker carried to a new revision needs placing again, null when it is placed; `version` is 1 when created
///   and one more per change (`Marker.version`: the service's `ETag` and `If-Match`).
/// - **GeoJSON**: a FeatureCollection of `{"type":"Feature","id":NUMBER,"geometry":{"type":"Point",
///   "coordinates":[x,y]},"properties":OBJECT}`, coordinates `[lng, lat]` when converting (the properties'
///   `number` tells a reader the file is a PlanMark export, whose ref is `properties.id`).
/// - **json**: `{"drawing":NAME,"markers":[OBJECT,...]}`; **jsonl**: one object a line;
///   **csv**: `id,uuid,number,x,y[,lat,lng],status,category,priority,assignee,due,capturedAt,note,author,rooms,createdAt,updatedAt,needsPlacement`
///   (empty fields for what is not set, rooms `;`-joined);
///   **text**: tab-separated `number x y [lat lng] status priority assignee due rooms note`, one line a marker; in the
///   text fields a backslash, tab, line feed and carriage return are written `\\`, `\t`, `\n`, `\r` (as
///   PostgreSQL's text format does), so that a note of several lines stays on its marker's line.
///
/// Each marker is formatted straight into one byte buffer from prepared pieces: latLng with the scale
/// computed once, the last two timestamps' text cached (markers of one import share theirs).
public struct MarkerWriter {
    /// The format.
    public let format: MarkerFormat
    /// The CRS and zoom for latLng, or nil for pixels only.
    public let conversion: LatLngConversion?
    /// The bytes not yet taken.
    public private(set) var buffer: ReportBuffer
    /// The scale at the conversion's zoom (`pow` once, not per marker).
    private let scale: Double
    private var count = 0
    private var timeCache: [(Int64, [UInt8])] = [(Int64.min, []), (Int64.min, [])]
    /// Today (UTC), for `overdue`.
    public let today: DueDate
    /// Each marker's comments by number, oldest first: when set, the json, jsonl and geojson objects carry
    /// `"comments":[{"id","author","createdAt","text"}, ...]` (`Comment.json`); text and csv do not.
    public var threads: [Int: [Comment]]? = nil

    /// Starts writing `format`; the header (`drawing` names the drawing in json) is in the buffer already.
    /// `today` decides which markers are overdue (the UTC date now by default).
    public init(format: MarkerFormat, conversion: LatLngConversion?, drawing: String, capacity: Int = 1 << 17,
                today: DueDate = .today) {
        self.format = format
        self.conversion = conversion
        self.today = today
        scale = conversion.map { $0.crs.transformationScale(at: $0.zoom) } ?? 1
        buffer = ReportBuffer(capacity: capacity)
        let latLng = conversion != nil
        switch format {
        case .text:
            let header: StaticString = latLng ? "number\tx\ty\tlat\tlng\tstatus\tpriority\tassignee\tdue\trooms\tnote\n"
                                              : "number\tx\ty\tstatus\tpriority\tassignee\tdue\trooms\tnote\n"
            buffer.append(header)
        case .json: buffer.append("{\"drawing\":"); buffer.appendJSONString(drawing); buffer.append(",\"markers\":[")
        case .jsonl: break
        case .csv:
            let header: StaticString = latLng
                ? "id,uuid,number,x,y,lat,lng,status,category,priority,assignee,due,capturedAt,note,author,rooms,createdAt,updatedAt,needsPlacement\n"
                : "id,uuid,number,x,y,status,category,priority,assignee,due,capturedAt,note,author,rooms,createdAt,updatedAt,needsPlacement\n"
            buffer.append(header)
        case .geojson: buffer.append("{\"type\":\"FeatureCollection\",\"features\":[")
        }
    }

    /// One marker as a JSON object (the service's answer for one marker), without a line break.
    /// - Complexity: O(length of the text).
    public static func object(_ marker: Marker, conversion: LatLngConversion?, today: DueDate = .today) -> String {
        var writer = MarkerWriter(format: .jsonl, conversion: conversion, drawing: "", capacity: 512, today: today)
        writer.appendObject(marker, writer.latLng(of: marker))
        return writer.buffer.text
    }

    /// `marker`'s latLng under the conversion: the arithmetic of `SimpleCRS.latLng(from:at:)` with its scale
    /// computed once, so bit-identical to it.
    @inline(__always)
    func latLng(of marker: Marker) -> LatLng? {
        guard let conversion else { return nil }
        let unprojected = conversion.crs.transformation.untransform(marker.position, scale: scale)
        return conversion.crs.projection.unproject(x: unprojected.x, y: unprojected.y)
    }

    /// Appends one marker.
    /// - Complexity: O(length of the marker's text).
    public mutating func append(_ marker: Marker) {
        let latLng = latLng(of: marker)
        switch format {
        case .text:
            buffer.appendInteger(Int64(marker.number)); buffer.append("\t")
            buffer.appendNumber(marker.position.x); buffer.append("\t")
            buffer.appendNumber(marker.position.y); buffer.append("\t")
            if let latLng {
                buffer.append(latLng.lat.description); buffer.append("\t")
                buffer.append(latLng.lng.description); buffer.append("\t")
            }
            buffer.append(marker.status.rawValue); buffer.append("\t")
            buffer.append(marker.priority.rawValue); buffer.append("\t")
            appendTextField(marker.assignee ?? ""); buffer.append("\t")
            if let due = marker.due { appendDue(due) }
            buffer.append("\t")
            appendTextField(marker.rooms.joined(separator: ";")); buffer.append("\t")
            appendTextField(marker.note ?? ""); buffer.append("\n")
        case .json:
            if count > 0 { buffer.append(",") }
            appendObject(marker, latLng)
        case .jsonl:
            appendObject(marker, latLng)
            buffer.append("\n")
        case .csv:
            if let ref = marker.ref { appendCSVField(ref) }
            buffer.append(","); buffer.append(marker.uuid.text); buffer.append(",")
            buffer.appendInteger(Int64(marker.number)); buffer.append(",")
            buffer.appendNumber(marker.position.x); buffer.append(",")
            buffer.appendNumber(marker.position.y); buffer.append(",")
            if let latLng {
                buffer.appendNumber(latLng.lat); buffer.append(",")
                buffer.appendNumber(latLng.lng); buffer.append(",")
            }
            buffer.append(marker.status.rawValue); buffer.append(",")
            if let category = marker.category { appendCSVField(category) }
            buffer.append(","); buffer.append(marker.priority.rawValue); buffer.append(",")
            if let assignee = marker.assignee { appendCSVField(assignee) }
            buffer.append(",")
            if let due = marker.due { appendDue(due) }
            buffer.append(",")
            if let capturedAt = marker.capturedAt { appendCSVField(capturedAt.text) }
            buffer.append(",")
            appendCSVField(marker.note ?? ""); buffer.append(",")
            appendCSVField(marker.author ?? ""); buffer.append(",")
            appendCSVField(marker.rooms.joined(separator: ";")); buffer.append(",")
            appendTime(marker.createdAt); buffer.append(",")
            appendTime(marker.updatedAt); buffer.append(",")
            if let reason = marker.needsPlacement { appendCSVField(reason) }
            buffer.append("\n")
        case .geojson:
            if count > 0 { buffer.append(",") }
            buffer.append("{\"type\":\"Feature\",\"id\":"); buffer.appendInteger(Int64(marker.number))
            buffer.append(",\"geometry\":{\"type\":\"Point\",\"coordinates\":[")
            // Each number is formatted once: the properties repeat the coordinates' bytes.
            let first = appendNumberText(latLng?.lng ?? marker.position.x)
            buffer.append(",")
            let second = appendNumberText(latLng?.lat ?? marker.position.y)
            buffer.append("]},\"properties\":")
            if latLng != nil {
                appendObject(marker, latLng, prepared: Prepared(lat: second, lng: first))
            } else {
                appendObject(marker, nil, prepared: Prepared(x: first, y: second))
            }
            buffer.append("}")
        }
        count += 1
    }

    /// The bytes written so far (header included), emptying the buffer; for streaming.
    public mutating func take() -> [UInt8] {
        defer { buffer = ReportBuffer(capacity: 1 << 17) }
        return buffer.bytes
    }

    /// Appends the footer and returns what is left in the buffer.
    public mutating func finish() -> [UInt8] {
        switch format {
        case .text, .jsonl, .csv: break
        case .json, .geojson: buffer.append("]}\n")
        }
        return take()
    }

    /// Where numbers already written for this marker are in the buffer, to be repeated instead of formatted again.
    private struct Prepared {
        var x: Range<Int>? = nil, y: Range<Int>? = nil, lat: Range<Int>? = nil, lng: Range<Int>? = nil
    }

    /// Appends `value` as JSON and returns where its bytes are.
    private mutating func appendNumberText(_ value: Double) -> Range<Int> {
        let start = buffer.bytes.count
        buffer.appendNumber(value)
        return start..<buffer.bytes.count
    }

    /// Appends the number at `prepared` again, or formats `value`.
    /// - Complexity: O(length of the number's text).
    private mutating func appendNumber(_ value: Double, prepared: Range<Int>?) {
        guard let prepared else { buffer.appendNumber(value); return }
        for index in prepared { buffer.bytes.append(buffer.bytes[index]) }
    }

    /// The marker object.
    /// - Complexity: O(length of the marker's text).
    private mutating func appendObject(_ marker: Marker, _ latLng: LatLng?, prepared: Prepared = Prepared()) {
        buffer.append("{\"id\":")
        if let ref = marker.ref { buffer.appendJSONString(ref) } else { buffer.append("null") }
        buffer.append(",\"uuid\":\""); buffer.append(marker.uuid.text)
        buffer.append("\",\"number\":"); buffer.appendInteger(Int64(marker.number))
        buffer.append(",\"x\":"); appendNumber(marker.position.x, prepared: prepared.x)
        buffer.append(",\"y\":"); appendNumber(marker.position.y, prepared: prepared.y)
        if let latLng {
            buffer.append(",\"lat\":"); appendNumber(latLng.lat, prepared: prepared.lat)
            buffer.append(",\"lng\":"); appendNumber(latLng.lng, prepared: prepared.lng)
        }
        buffer.append(",\"status\":\""); buffer.append(marker.status.rawValue)
        buffer.append("\",\"category\":")
        if let category = marker.category { buffer.appendJSONString(category) } else { buffer.append("null") }
        buffer.append(",\"priority\":\""); buffer.append(marker.priority.rawValue)
        buffer.append("\",\"assignee\":")
        if let assignee = marker.assignee { buffer.appendJSONString(assignee) } else { buffer.append("null") }
        buffer.append(",\"due\":")
        if let due = marker.due { buffer.append("\""); appendDue(due); buffer.append("\"") } else { buffer.append("null") }
        buffer.append(",\"capturedAt\":")
        if let capturedAt = marker.capturedAt { buffer.appendJSONString(capturedAt.text) } else { buffer.append("null") }
        buffer.append(",\"note\":")
        if let note = marker.note { buffer.appendJSONString(note) } else { buffer.append("null") }
        buffer.append(",\"author\":")
        if let author = marker.author { buffer.appendJSONString(author) } else { buffer.append("null") }
        buffer.append(",\"rooms\":[")
        for (index, room) in marker.rooms.enumerated() {
            if index > 0 { buffer.append(",") }
            buffer.appendJSONString(room)
        }
        buffer.append("],\"createdAt\":\""); appendTime(marker.createdAt)
        buffer.append("\",\"updatedAt\":\""); appendTime(marker.updatedAt)
        buffer.append(marker.isOverdue(today: today) ? "\",\"overdue\":true" : "\",\"overdue\":false")
        buffer.append(",\"needsPlacement\":")
        if let reason = marker.needsPlacement { buffer.appendJSONString(reason) } else { buffer.append("null") }
        buffer.append(",\"version\":"); buffer.appendInteger(Int64(marker.version))
        if let threads {
            buffer.append(",\"comments\":[")
            buffer.append((threads[marker.number] ?? []).map(\.json).joined(separator: ","))
            buffer.append("]")
        }
        buffer.append("}")
    }

    /// `due` as `YYYY-MM-DD`, digits straight into the buffer (no intermediate string).
    /// - Complexity: O(1).
    private mutating func appendDue(_ due: DueDate) {
        let y = due.year, m = due.month, d = due.day
        buffer.bytes.append(UInt8(48 + y / 1000)); buffer.bytes.append(UInt8(48 + y / 100 % 10))
        buffer.bytes.append(UInt8(48 + y / 10 % 10)); buffer.bytes.append(UInt8(48 + y % 10)); buffer.bytes.append(45)
        buffer.bytes.append(UInt8(48 + m / 10)); buffer.bytes.append(UInt8(48 + m % 10)); buffer.bytes.append(45)
        buffer.bytes.append(UInt8(48 + d / 10)); buffer.bytes.append(UInt8(48 + d % 10))
    }

    /// `timestamp` as ISO 8601 text, from the cache when it was one of the last two.
    /// - Complexity: O(1).
    private mutating func appendTime(_ timestamp: Timestamp) {
        if timeCache[0].0 == timestamp.milliseconds { buffer.append(bytes: timeCache[0].1); return }
        if timeCache[1].0 == timestamp.milliseconds { buffer.append(bytes: timeCache[1].1); return }
        let text = Array(timestamp.text.utf8)
        timeCache[1] = timeCache[0]
        timeCache[0] = (timestamp.milliseconds, text)
        buffer.append(bytes: text)
    }

    /// A field of the text format: backslash, tab, line feed and carriage return escaped as `\\`, `\t`, `\n`, `\r`.
    /// - Complexity: O(length of the text).
    private mutating func appendTextField(_ text: String) {
        guard text.utf8.contains(where: { $0 == 92 || $0 == 9 || $0 == 10 || $0 == 13 }) else { buffer.append(text); return }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            switch byte {
            case 92: escaped += [92, 92]
            case 9: escaped += [92, UInt8(ascii: "t")]
            case 10: escaped += [92, UInt8(ascii: "n")]
            case 13: escaped += [92, UInt8(ascii: "r")]
            default: escaped.append(byte)
            }
        }
        buffer.append(bytes: escaped)
    }

    /// A CSV field, quoted when it holds a comma, quote or line break (RFC 4180).
    /// - Complexity: O(length of the text).
    private mutating func appendCSVField(_ text: String) {
        guard text.utf8.contains(where: { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 }) else { buffer.append(text); return }
        var quoted: [UInt8] = [34]
        for byte in text.utf8 {
            quoted.append(byte)
            if byte == 34 { quoted.append(34) }
        }
        quoted.append(34)
        buffer.append(bytes: quoted)
    }
}
