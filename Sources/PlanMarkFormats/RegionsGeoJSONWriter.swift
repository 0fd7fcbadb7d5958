import PlanMarkGeometry

/// Writes regions as a GeoJSON FeatureCollection, in pixels or transformed (e.g. to `[lng, lat]`).
public enum RegionsGeoJSONWriter {
    /// The regions as GeoJSON text. Each position is `transform(vertex)` written as `[first, second]`;
    /// rings are closed (the first position repeated last), as GeoJSON requires.
    ///
    /// A region's `labelBox` is written in the same coordinates (`labelBox(_:transform:)`).
    ///
    /// With `metresPerPixel` (a calibrated drawing) each feature's properties also carry `area` (square
    /// metres, holes subtracted: `Region.area` times its square) and `perimeter` (metres, every ring
    /// including holes: `Region.perimeter` times it), rounded for people (`Quantity.squareMetres`, 0.01 m²;
    /// `Quantity.metres`, 1 mm), then `areaExact` and `perimeterExact`, the same unrounded; without it the
    /// four keys are absent, never 0.
    /// - Complexity: O(n) for n vertices.
    public static func featureCollection(_ regions: [Region], metresPerPixel: Double? = nil,
                                         transform: (PixelPoint) -> (Double, Double) = { ($0.x, $0.y) }) -> String {
        var out = "{\"type\":\"FeatureCollection\",\"features\":["
        for (index, region) in regions.enumerated() {
            if index > 0 { out += "," }
            out += "{\"type\":\"Feature\",\"id\":"
            out += JSONString.quoted(region.id)
            out += ",\"properties\":{\"kind\":\"\(region.kind.rawValue)\""
            if let name = region.name { out += ",\"name\":" + JSONString.quoted(name) }
            if let box = region.labelBox { out += ",\"labelBox\":" + labelBox(box, transform: transform) }
            if let metresPerPixel {
                let area = region.area * metresPerPixel * metresPerPixel, perimeter = region.perimeter * metresPerPixel
                out += ",\"area\":" + Quantity.squareMetres.json(area) + ",\"perimeter\":" + Quantity.metres.json(perimeter)
                out += ",\"areaExact\":" + JSONNumber.text(area) + ",\"perimeterExact\":" + JSONNumber.text(perimeter)
            }
            out += "},\"geometry\":"
            out += geometry(region, transform: transform)
            out += "}"
        }
        return out + "]}"
    }

    /// A label's box as `[minX, minY, maxX, maxY]` (GeoJSON's `bbox` order) of its corners carried through `transform`
    /// (so `[minLng, minLat, maxLng, maxLat]` for a map's transform).
    public static func labelBox(_ box: BoundingBox, transform: (PixelPoint) -> (Double, Double) = { ($0.x, $0.y) }) -> String {
        let a = transform(PixelPoint(x: box.minX, y: box.minY)), b = transform(PixelPoint(x: box.maxX, y: box.maxY))
        let sides = [min(a.0, b.0), min(a.1, b.1), max(a.0, b.0), max(a.1, b.1)]
        return "[" + sides.map(JSONNumber.text).joined(separator: ",") + "]"
    }

    /// One region's geometry as a GeoJSON `Polygon` or `MultiPolygon` object, rings closed, each
    /// position `transform(vertex)` written as `[first, second]`.
    /// - Complexity: O(n) for n vertices.
    public static func geometry(_ region: Region, transform: (PixelPoint) -> (Double, Double) = { ($0.x, $0.y) }) -> String {
        let multi = region.polygons.count > 1
        var out = multi ? "{\"type\":\"MultiPolygon\",\"coordinates\":[" : "{\"type\":\"Polygon\",\"coordinates\":"
        for (p, polygon) in region.polygons.enumerated() {
            if p > 0 { out += "," }
            out += "["
            for (r, ring) in ([polygon.exterior] + polygon.holes).enumerated() {
                if r > 0 { out += "," }
                out += "["
                for (k, vertex) in (ring.vertices + [ring.vertices[0]]).enumerated() {
                    if k > 0 { out += "," }
                    let (a, b) = transform(vertex)
                    out += "[" + JSONNumber.text(a) + "," + JSONNumber.text(b) + "]"
                }
                out += "]"
            }
            out += "]"
        }
        if multi { out += "]" }
        return out + "}"
    }
}
