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
/// - The marker **object** (json, jsonl, one marker, and GeoJSON `properties`):
///   `{"number","x","y"[,"lat","lng"],"status","rooms","note","author","createdAt","updatedAt"}`, `x`, `y`
///   in pixels always, `lat`, `lng` when a latLng conversion is given.
/// - **GeoJSON**: a FeatureCollection of `{"type":"Feature","id":NUMBER,"geometry":{"type":"Point",
///   "coordinates":[x,y]},"properties":OBJECT}`, coordinates `[lng, lat]` when converting.
/// - **json**: `{"drawing":NAME,"markers":[OBJECT,...]}`; **jsonl**: one object a line;
///   **csv**: `number,x,y[,lat,lng],status,rooms,note,author,createdAt,updatedAt`;
///   **text**: tab-separated `number x y [lat lng] status rooms note`.
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

    /// Starts writing `format`; the header (`drawing` names the drawing in json) is in the buffer already.
    public init(format: MarkerFormat, conversion: LatLngConversion?, drawing: String, capacity: Int = 1 << 17) {
        self.format = format
        self.conversion = conversion
        scale = conversion.map { $0.crs.transformationScale(at: $0.zoom) } ?? 1
        buffer = ReportBuffer(capacity: capacity)
        let latLng = conversion != nil
        switch format {
        case .text:
            let header: StaticString = latLng ? "number\tx\ty\tlat\tlng\tstatus\trooms\tnote\n" : "number\tx\ty\tstatus\trooms\tnote\n"
            buffer.append(header)
        case .json: buffer.append("{\"drawing\":"); buffer.appendJSONString(drawing); buffer.append(",\"markers\":[")
        case .jsonl: break
        case .csv:
            let header: StaticString = latLng ? "number,x,y,lat,lng,status,rooms,note,author,createdAt,updatedAt\n"
                                              : "number,x,y,status,rooms,note,author,createdAt,updatedAt\n"
            buffer.append(header)
        case .geojson: buffer.append("{\"type\":\"FeatureCollection\",\"features\":[")
        }
    }

    /// One marker as a JSON object (the service's answer for one marker), without a line break.
    /// - Complexity: O(length of the text).
    public static func object(_ marker: Marker, conversion: LatLngConversion?) -> String {
        var writer = MarkerWriter(format: .jsonl, conversion: conversion, drawing: "", capacity: 256)
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
            buffer.append(marker.rooms.joined(separator: ";")); buffer.append("\t")
            buffer.append(marker.note ?? ""); buffer.append("\n")
        case .json:
            if count > 0 { buffer.append(",") }
            appendObject(marker, latLng)
        case .jsonl:
            appendObject(marker, latLng)
            buffer.append("\n")
        case .csv:
            buffer.appendInteger(Int64(marker.number)); buffer.append(",")
            buffer.appendNumber(marker.position.x); buffer.append(",")
            buffer.appendNumber(marker.position.y); buffer.append(",")
            if let latLng {
                buffer.appendNumber(latLng.lat); buffer.append(",")
                buffer.appendNumber(latLng.lng); buffer.append(",")
            }
            buffer.append(marker.status.rawValue); buffer.append(",")
            appendCSVField(marker.rooms.joined(separator: ";")); buffer.append(",")
            appendCSVField(marker.note ?? ""); buffer.append(",")
            appendCSVField(marker.author ?? ""); buffer.append(",")
            appendTime(marker.createdAt); buffer.append(",")
            appendTime(marker.updatedAt); buffer.append("\n")
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
    private mutating func appendObject(_ marker: Marker, _ latLng: LatLng?, prepared: Prepared = Prepared()) {
        buffer.append("{\"number\":"); buffer.appendInteger(Int64(marker.number))
        buffer.append(",\"x\":"); appendNumber(marker.position.x, prepared: prepared.x)
        buffer.append(",\"y\":"); appendNumber(marker.position.y, prepared: prepared.y)
        if let latLng {
            buffer.append(",\"lat\":"); appendNumber(latLng.lat, prepared: prepared.lat)
            buffer.append(",\"lng\":"); appendNumber(latLng.lng, prepared: prepared.lng)
        }
        buffer.append(",\"status\":\""); buffer.append(marker.status.rawValue)
        buffer.append("\",\"rooms\":[")
        for (index, room) in marker.rooms.enumerated() {
            if index > 0 { buffer.append(",") }
            buffer.appendJSONString(room)
        }
        buffer.append("],\"note\":")
        if let note = marker.note { buffer.appendJSONString(note) } else { buffer.append("null") }
        buffer.append(",\"author\":")
        if let author = marker.author { buffer.appendJSONString(author) } else { buffer.append("null") }
        buffer.append(",\"createdAt\":\""); appendTime(marker.createdAt)
        buffer.append("\",\"updatedAt\":\""); appendTime(marker.updatedAt)
        buffer.append("\"}")
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
