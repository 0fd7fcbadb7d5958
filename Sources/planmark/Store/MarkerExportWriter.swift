import ArgumentParser
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore

/// Formats of `planmark markers`.
enum MarkerExportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, jsonl, csv, geojson
}

/// Writes markers in one export format into a text buffer, one marker at a time.
struct MarkerExportWriter {
    let format: MarkerExportFormat
    /// Set for `--latlng`.
    let conversion: LatLngConversion?
    let drawing: String
    /// Text not yet written.
    var buffer = ""
    private var count = 0
    /// The last two times formatted (markers of one import share theirs; formatting is the costly part).
    private var timeCache: [(Int64, String)] = [(Int64.min, ""), (Int64.min, "")]

    init(format: MarkerExportFormat, conversion: LatLngConversion?, drawing: String) {
        self.format = format
        self.conversion = conversion
        self.drawing = drawing
        buffer.reserveCapacity(1 << 17)
    }

    /// What comes before the first marker.
    func header() -> String {
        let latlng = conversion != nil
        switch format {
        case .text: return latlng ? "number\tx\ty\tlat\tlng\tstatus\trooms\tnote\n" : "number\tx\ty\tstatus\trooms\tnote\n"
        case .json: return "{\"drawing\":\(JSONString.quoted(drawing)),\"markers\":["
        case .jsonl: return ""
        case .csv: return latlng ? "number,x,y,lat,lng,status,rooms,note,author,createdAt,updatedAt\n" : "number,x,y,status,rooms,note,author,createdAt,updatedAt\n"
        case .geojson: return "{\"type\":\"FeatureCollection\",\"features\":["
        }
    }

    /// What comes after the last marker.
    func footer() -> String {
        switch format {
        case .text, .jsonl, .csv: return ""
        case .json: return "]}\n"
        case .geojson: return "]}\n"
        }
    }

    /// Returns the buffered text and empties the buffer.
    mutating func take() -> String {
        defer { buffer = ""; buffer.reserveCapacity(1 << 17) }
        return buffer
    }

    /// Appends one marker.
    /// - Complexity: O(size of the marker's text).
    mutating func append(_ marker: Marker) {
        let latLng = conversion.map { $0.crs.latLng(from: marker.position, at: $0.zoom) }
        switch format {
        case .text:
            buffer += "\(marker.number)\t" + JSONNumber.text(marker.position.x) + "\t" + JSONNumber.text(marker.position.y) + "\t"
            if let latLng { buffer += "\(latLng.lat)\t\(latLng.lng)\t" }
            buffer += "\(marker.status.rawValue)\t\(marker.rooms.joined(separator: ";"))\t\(marker.note ?? "")\n"
        case .json, .jsonl:
            if format == .json && count > 0 { buffer += "," }
            appendObject(marker, latLng)
            if format == .jsonl { buffer += "\n" }
        case .csv:
            buffer += "\(marker.number),\(JSONNumber.text(marker.position.x)),\(JSONNumber.text(marker.position.y)),"
            if let latLng { buffer += "\(JSONNumber.text(latLng.lat)),\(JSONNumber.text(latLng.lng)),"}
            buffer += marker.status.rawValue + "," + Self.csvField(marker.rooms.joined(separator: ";")) + ","
            buffer += Self.csvField(marker.note ?? "") + "," + Self.csvField(marker.author ?? "") + ","
            buffer += time(marker.createdAt) + "," + time(marker.updatedAt) + "\n"
        case .geojson:
            if count > 0 { buffer += "," }
            buffer += "{\"type\":\"Feature\",\"id\":\(marker.number),\"geometry\":{\"type\":\"Point\",\"coordinates\":["
            if let latLng {
                buffer += JSONNumber.text(latLng.lng) + "," + JSONNumber.text(latLng.lat)
            } else {
                buffer += JSONNumber.text(marker.position.x) + "," + JSONNumber.text(marker.position.y)
            }
            buffer += "]},\"properties\":"
            appendObject(marker, nil)
            buffer += "}"
        }
        count += 1
    }

    /// The marker as a JSON object.
    private mutating func appendObject(_ marker: Marker, _ latLng: LatLng?) {
        buffer += "{\"number\":\(marker.number),\"x\":" + JSONNumber.text(marker.position.x) + ",\"y\":" + JSONNumber.text(marker.position.y)
        if let latLng { buffer += ",\"lat\":" + JSONNumber.text(latLng.lat) + ",\"lng\":" + JSONNumber.text(latLng.lng) }
        buffer += ",\"status\":\"\(marker.status.rawValue)\",\"rooms\":" + RoomList.jsonText(marker.rooms)
        buffer += ",\"note\":" + (marker.note.map(JSONString.quoted) ?? "null")
        buffer += ",\"author\":" + (marker.author.map(JSONString.quoted) ?? "null")
        buffer += ",\"createdAt\":\"" + time(marker.createdAt) + "\",\"updatedAt\":\"" + time(marker.updatedAt) + "\"}"
    }

    /// `timestamp` as ISO 8601 text, from the cache when it was one of the last two.
    private mutating func time(_ timestamp: Timestamp) -> String {
        for entry in timeCache where entry.0 == timestamp.milliseconds { return entry.1 }
        let text = timestamp.text
        timeCache[1] = timeCache[0]
        timeCache[0] = (timestamp.milliseconds, text)
        return text
    }

    /// A CSV field, quoted when it holds a comma, quote or line break (RFC 4180).
    static func csvField(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
