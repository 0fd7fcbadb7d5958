import PlanMarkGeometry

/// Writes regions as a GeoJSON FeatureCollection, in pixels or transformed (e.g. to `[lng, lat]`): `Codable` shapes
/// (`RegionsGeoJSONWriter.Feature` ...) written by `JSONDocument`.
public enum RegionsGeoJSONWriter {
    /// A point carried through the caller's transform, as `[first, second]`.
    public typealias Transform = (PixelPoint) -> (Double, Double)

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
                                         transform: Transform = { ($0.x, $0.y) }) -> String {
        struct Collection: Encodable { var type = "FeatureCollection"; var features: [Feature] }
        return JSONDocument.text(Collection(features: regions.map { Feature($0, metresPerPixel: metresPerPixel, transform: transform) }))
    }

    /// A label's box as `[minX, minY, maxX, maxY]` (GeoJSON's `bbox` order) of its corners carried through `transform`
    /// (so `[minLng, minLat, maxLng, maxLat]` for a map's transform).
    /// - Complexity: O(1).
    public static func labelBox(_ box: BoundingBox, transform: Transform = { ($0.x, $0.y) }) -> String {
        JSONDocument.text(sides(box, transform: transform))
    }

    /// One region's geometry as a GeoJSON `Polygon` or `MultiPolygon` object, rings closed, each
    /// position `transform(vertex)` written as `[first, second]`.
    /// - Complexity: O(n) for n vertices.
    public static func geometry(_ region: Region, transform: Transform = { ($0.x, $0.y) }) -> String {
        JSONDocument.text(Geometry(region, transform: transform))
    }

    static func sides(_ box: BoundingBox, transform: Transform) -> [Double] {
        let a = transform(PixelPoint(x: box.minX, y: box.minY)), b = transform(PixelPoint(x: box.maxX, y: box.maxY))
        return [min(a.0, b.0), min(a.1, b.1), max(a.0, b.0), max(a.1, b.1)]
    }

    /// A region as a GeoJSON feature: `{"type":"Feature","id","properties":{"kind","name","labelBox","area",
    /// "perimeter","areaExact","perimeterExact"},"geometry"}`, absent properties left out.
    struct Feature: Encodable {
        struct Properties: Encodable {
            var kind: String
            var name: String?
            var labelBox: [Double]?
            var area: JSONFragment?
            var perimeter: JSONFragment?
            var areaExact: Double?
            var perimeterExact: Double?
        }

        var type = "Feature"
        var id: String
        var properties: Properties
        var geometry: Geometry

        init(_ region: Region, metresPerPixel: Double?, transform: Transform) {
            id = region.id
            properties = Properties(kind: region.kind.rawValue, name: region.name, labelBox: region.labelBox.map { sides($0, transform: transform) })
            if let metresPerPixel {
                let area = region.area * metresPerPixel * metresPerPixel, perimeter = region.perimeter * metresPerPixel
                properties.area = JSONFragment(Quantity.squareMetres.json(area))
                properties.perimeter = JSONFragment(Quantity.metres.json(perimeter))
                properties.areaExact = area
                properties.perimeterExact = perimeter
            }
            geometry = Geometry(region, transform: transform)
        }
    }

    /// `{"type":"Polygon","coordinates":[RING,...]}` or, for several polygons, `{"type":"MultiPolygon","coordinates":
    /// [[RING,...],...]}`; a ring is its positions, the first repeated last.
    struct Geometry: Encodable {
        var type: String
        var polygons: [[[[Double]]]]

        init(_ region: Region, transform: Transform) {
            type = region.polygons.count > 1 ? "MultiPolygon" : "Polygon"
            polygons = region.polygons.map { polygon in
                ([polygon.exterior] + polygon.holes).map { ring in
                    (ring.vertices + [ring.vertices[0]]).map { let (a, b) = transform($0); return [a, b] }
                }
            }
        }

        private enum CodingKeys: String, CodingKey { case type, coordinates }

        func encode(to encoder: any Encoder) throws {
            var object = encoder.container(keyedBy: CodingKeys.self)
            try object.encode(type, forKey: .type)
            if polygons.count > 1 { try object.encode(polygons, forKey: .coordinates) } else { try object.encode(polygons[0], forKey: .coordinates) }
        }
    }
}
