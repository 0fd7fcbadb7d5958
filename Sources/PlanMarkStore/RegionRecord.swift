import PlanMarkFormats
import PlanMarkGeometry

/// A region as stored: its id, kind, name, geometry as GeoJSON text, its bounding box (for queries) and its label's box.
package struct RegionRecord: Hashable, Sendable {
    /// The drawing's store id.
    package var drawingID: Int64
    /// The position of the region in its file (regions are reported in this order).
    package var position: Int
    /// The region's id from the regions file.
    package var regionID: String
    /// `room` or `allowed`.
    package var kind: RegionKind
    /// Optional display name.
    package var name: String?
    /// A GeoJSON `Polygon` or `MultiPolygon` geometry in pixels.
    package var geometry: String
    /// Bounding box.
    package var bounds: BoundingBox
    /// Where the drawing prints the region's label, as GeoJSON `[minX, minY, maxX, maxY]` text; nil when unknown.
    package var labelBox: String?

    /// A record from its stored columns.
    package init(drawingID: Int64, position: Int, regionID: String, kind: RegionKind, name: String?, geometry: String, bounds: BoundingBox,
                 labelBox: String? = nil) {
        self.drawingID = drawingID
        self.position = position
        self.regionID = regionID
        self.kind = kind
        self.name = name
        self.geometry = geometry
        self.bounds = bounds
        self.labelBox = labelBox
    }

    package init(drawingID: Int64, position: Int, region: Region) {
        self.drawingID = drawingID
        self.position = position
        regionID = region.id
        kind = region.kind
        name = region.name
        geometry = Self.geometryText(region)
        bounds = region.bounds
        labelBox = region.labelBox.map { RegionsGeoJSONWriter.labelBox($0) }
    }

    /// The region's geometry as GeoJSON (rings closed; coordinates in shortest round-trip form).
    /// - Complexity: O(n) for n vertices.
    package static func geometryText(_ region: Region) -> String {
        RegionsGeoJSONWriter.geometry(region)
    }

    /// Rebuilds regions from stored records (in `position` order), checking every ring again.
    /// - Complexity: O(n log n) for n vertices.
    package static func regions(_ records: [RegionRecord]) throws(StoreError) -> [Region] {
        var text = "{\"type\":\"FeatureCollection\",\"features\":["
        for (index, record) in records.enumerated() {
            if index > 0 { text += "," }
            text += "{\"type\":\"Feature\",\"id\":" + JSONString.quoted(record.regionID)
            text += ",\"properties\":{\"kind\":\"\(record.kind.rawValue)\""
            if let name = record.name { text += ",\"name\":" + JSONString.quoted(name) }
            if let labelBox = record.labelBox { text += ",\"labelBox\":" + labelBox }
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
