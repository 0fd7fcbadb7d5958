import GRDB
import PlanMarkFormats
import PlanMarkGeometry

/// A region as stored: its id, kind, name, geometry as GeoJSON text and its bounding box (for queries).
struct RegionRecord: Hashable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "region"

    /// The drawing's store id.
    var drawingID: Int64
    /// The position of the region in its file (regions are reported in this order).
    var position: Int
    /// The region's id from the regions file.
    var regionID: String
    /// `room` or `allowed`.
    var kind: RegionKind
    /// Optional display name.
    var name: String?
    /// A GeoJSON `Polygon` or `MultiPolygon` geometry in pixels.
    var geometry: String
    /// Bounding box.
    var bounds: BoundingBox

    init(drawingID: Int64, position: Int, region: Region) {
        self.drawingID = drawingID
        self.position = position
        regionID = region.id
        kind = region.kind
        name = region.name
        geometry = Self.geometryText(region)
        bounds = region.bounds
    }

    init(row: Row) throws {
        let kindText: String = try row.decode(forColumn: "kind")
        guard let kind = RegionKind(rawValue: kindText) else { throw StoreError.io("region has an unknown kind \"\(kindText)\"") }
        drawingID = try row.decode(forColumn: "drawingId")
        position = try row.decode(forColumn: "position")
        regionID = try row.decode(forColumn: "regionId")
        self.kind = kind
        name = try row.decode(forColumn: "name")
        geometry = try row.decode(forColumn: "geometry")
        bounds = BoundingBox(minX: try row.decode(forColumn: "minX"), minY: try row.decode(forColumn: "minY"),
                             maxX: try row.decode(forColumn: "maxX"), maxY: try row.decode(forColumn: "maxY"))
    }

    func encode(to container: inout PersistenceContainer) throws {
        container["drawingId"] = drawingID
        container["position"] = position
        container["regionId"] = regionID
        container["kind"] = kind.rawValue
        container["name"] = name
        container["geometry"] = geometry
        container["minX"] = bounds.minX
        container["minY"] = bounds.minY
        container["maxX"] = bounds.maxX
        container["maxY"] = bounds.maxY
    }

    /// The region's geometry as GeoJSON (rings closed; coordinates in shortest round-trip form).
    /// - Complexity: O(n) for n vertices.
    static func geometryText(_ region: Region) -> String {
        RegionsGeoJSONWriter.geometry(region)
    }

    /// Rebuilds regions from stored records (in `position` order), checking every ring again.
    /// - Complexity: O(n log n) for n vertices.
    static func regions(_ records: [RegionRecord]) throws(StoreError) -> [Region] {
        var text = "{\"type\":\"FeatureCollection\",\"features\":["
        for (index, record) in records.enumerated() {
            if index > 0 { text += "," }
            text += "{\"type\":\"Feature\",\"id\":" + JSONString.quoted(record.regionID)
            text += ",\"properties\":{\"kind\":\"\(record.kind.rawValue)\""
            if let name = record.name { text += ",\"name\":" + JSONString.quoted(name) }
            text += "},\"geometry\":" + record.geometry + "}"
        }
        text += "]}"
        do {
            return try RegionsFile.parse(Array(text.utf8), source: "store")
        } catch {
            throw .io("stored regions are damaged: \(error.description)")
        }
    }
}
