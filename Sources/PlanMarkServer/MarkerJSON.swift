import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore

/// Markers as the service writes them: single objects and GeoJSON FeatureCollections.
enum MarkerJSON {
    /// `{"number","x","y","status","rooms","note","author","createdAt","updatedAt"}`, plus `lat`,`lng` when
    /// `conversion` is given.
    /// - Complexity: O(length of the text).
    static func object(_ marker: Marker, conversion: LatLngConversion? = nil) -> String {
        var out = ReportBuffer(capacity: 192)
        out.append("{\"number\":"); out.appendInteger(Int64(marker.number))
        out.append(",\"x\":"); out.appendNumber(marker.position.x)
        out.append(",\"y\":"); out.appendNumber(marker.position.y)
        if let conversion {
            let latLng = conversion.crs.latLng(from: marker.position, at: conversion.zoom)
            out.append(",\"lat\":"); out.appendNumber(latLng.lat)
            out.append(",\"lng\":"); out.appendNumber(latLng.lng)
        }
        appendProperties(marker, into: &out)
        out.append("}")
        return out.text
    }

    /// `"status","rooms","note","author","createdAt","updatedAt"` members (leading comma included).
    static func appendProperties(_ marker: Marker, into out: inout ReportBuffer) {
        out.append(",\"status\":\""); out.append(marker.status.rawValue)
        out.append("\",\"rooms\":[")
        for (index, room) in marker.rooms.enumerated() {
            if index > 0 { out.append(",") }
            out.appendJSONString(room)
        }
        out.append("],\"note\":")
        if let note = marker.note { out.appendJSONString(note) } else { out.append("null") }
        out.append(",\"author\":")
        if let author = marker.author { out.appendJSONString(author) } else { out.append("null") }
        out.append(",\"createdAt\":\""); out.append(marker.createdAt.text)
        out.append("\",\"updatedAt\":\""); out.append(marker.updatedAt.text); out.append("\"")
    }

    /// Streams markers as a GeoJSON FeatureCollection: Point geometry in pixels `[x, y]`, or `[lng, lat]`
    /// when `conversion` is given; properties `number`, `status`, `rooms`, `note`, `author`, `createdAt`,
    /// `updatedAt`; the feature id is the number.
    struct FeatureCollectionWriter {
        /// Pixels, or latLng at a zoom.
        let conversion: LatLngConversion?
        /// The text so far.
        var out = ReportBuffer(capacity: 1 << 16)
        private var count = 0

        /// Starts the collection.
        init(conversion: LatLngConversion?) {
            self.conversion = conversion
            out.append("{\"type\":\"FeatureCollection\",\"features\":[")
        }

        /// Appends one marker.
        /// - Complexity: O(length of its text).
        mutating func append(_ marker: Marker) {
            if count > 0 { out.append(",") }
            count += 1
            out.append("{\"type\":\"Feature\",\"id\":"); out.appendInteger(Int64(marker.number))
            out.append(",\"geometry\":{\"type\":\"Point\",\"coordinates\":[")
            if let conversion {
                let latLng = conversion.crs.latLng(from: marker.position, at: conversion.zoom)
                out.appendNumber(latLng.lng); out.append(","); out.appendNumber(latLng.lat)
            } else {
                out.appendNumber(marker.position.x); out.append(","); out.appendNumber(marker.position.y)
            }
            out.append("]},\"properties\":{\"number\":"); out.appendInteger(Int64(marker.number))
            appendProperties(marker, into: &out)
            out.append("}}")
        }

        /// Ends the collection and returns its bytes.
        consuming func finish() -> [UInt8] {
            out.append("]}\n")
            return out.bytes
        }
    }
}
