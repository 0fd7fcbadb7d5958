import PlanMarkGeometry

/// Reads a regions file: a GeoJSON FeatureCollection of `Polygon` / `MultiPolygon` features in pixel
/// coordinates (`[x, y]`, origin top-left, y down).
///
/// A feature's id is its `id` (string or number), else `properties.id`, else its 1-based position;
/// `properties.kind` is `room` (default) or `allowed`; `properties.name` is optional. Every ring is
/// checked by the geometry core; a bad one is reported with its JSON path.
public enum RegionsFile {
    /// Reads and checks the regions in `path` (`-` for stdin).
    /// - Complexity: O(n log n) for n vertices (the self-intersection check dominates).
    public static func read(path: String) throws(FormatError) -> [Region] {
        try parse(try InputFile.readAll(path: path), source: path)
    }

    /// Parses and checks regions from `bytes`; `source` names the file in errors.
    /// - Complexity: O(n log n) for n vertices.
    public static func parse(_ bytes: [UInt8], source: String) throws(FormatError) -> [Region] {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw FormatError(.malformed, source: source, line: error.line, message: error.message)
        }
        return try regions(from: root, source: source)
    }

    /// Builds regions from an already parsed FeatureCollection.
    public static func regions(from root: JSONValue, source: String) throws(FormatError) -> [Region] {
        func bad(_ path: String, _ message: String) -> FormatError {
            FormatError(.malformed, source: source, path: path, message: message)
        }
        guard case .object = root else { throw bad("$", "expected a GeoJSON FeatureCollection object, found \(root.typeName)") }
        guard root["type"] == .string("FeatureCollection") else {
            throw bad("$.type", "expected \"FeatureCollection\"")
        }
        guard case .array(let features)? = root["features"] else { throw bad("$.features", "expected an array of features") }
        var regions: [Region] = []
        regions.reserveCapacity(features.count)
        var seen: Set<String> = []
        for (index, feature) in features.enumerated() {
            let path = "$.features[\(index)]"
            guard case .object = feature, feature["type"] == .string("Feature") else {
                throw bad(path, "expected a GeoJSON Feature object")
            }
            let properties = feature["properties"]
            let id: String
            switch feature["id"] ?? properties?["id"] {
            case .string(let text)?: id = text
            case .number(let number)?: id = JSONNumber.text(number)
            case nil, .null?: id = String(index + 1)
            case let other?: throw bad(path + ".id", "expected a string or a number, found \(other.typeName)")
            }
            guard seen.insert(id).inserted else { throw bad(path + ".id", "duplicate region id \"\(id)\"") }
            var kind = RegionKind.room
            switch properties?["kind"] {
            case nil, .null?: break
            case .string(let text)?:
                guard let parsed = RegionKind(rawValue: text) else {
                    throw bad(path + ".properties.kind", "expected \"room\" or \"allowed\", found \"\(text)\"")
                }
                kind = parsed
            case let other?: throw bad(path + ".properties.kind", "expected a string, found \(other.typeName)")
            }
            var name: String?
            switch properties?["name"] {
            case nil, .null?: break
            case .string(let text)?: name = text
            case let other?: throw bad(path + ".properties.name", "expected a string, found \(other.typeName)")
            }
            guard let geometry = feature["geometry"], case .object = geometry else {
                throw bad(path + ".geometry", "expected a Polygon or MultiPolygon geometry")
            }
            let coordinates = geometry["coordinates"] ?? .null
            let polygons: [[[PixelPoint]]]
            switch geometry["type"] {
            case .string("Polygon")?:
                polygons = [try rings(coordinates, path: path + ".geometry.coordinates", source: source)]
            case .string("MultiPolygon")?:
                guard case .array(let parts) = coordinates else {
                    throw bad(path + ".geometry.coordinates", "expected an array of polygons")
                }
                var collected: [[[PixelPoint]]] = []
                for (p, part) in parts.enumerated() {
                    collected.append(try rings(part, path: path + ".geometry.coordinates[\(p)]", source: source))
                }
                polygons = collected
            case .string(let other)?:
                throw bad(path + ".geometry.type", "expected Polygon or MultiPolygon, found \(other)")
            default:
                throw bad(path + ".geometry.type", "expected Polygon or MultiPolygon")
            }
            do {
                regions.append(try Region(id: id, kind: kind, name: name, coordinates: polygons))
            } catch {
                throw bad(path + ".geometry", error.description)
            }
        }
        return regions
    }

    /// Reads `[[x, y], ...]` rings of one polygon.
    static func rings(_ value: JSONValue, path: String, source: String) throws(FormatError) -> [[PixelPoint]] {
        func bad(_ path: String, _ message: String) -> FormatError {
            FormatError(.malformed, source: source, path: path, message: message)
        }
        guard case .array(let ringValues) = value, !ringValues.isEmpty else {
            throw bad(path, "expected a non-empty array of rings")
        }
        var rings: [[PixelPoint]] = []
        for (r, ringValue) in ringValues.enumerated() {
            guard case .array(let positions) = ringValue else { throw bad(path + "[\(r)]", "expected an array of positions") }
            var ring: [PixelPoint] = []
            ring.reserveCapacity(positions.count)
            for (k, position) in positions.enumerated() {
                guard case .array(let pair) = position, pair.count >= 2,
                      case .number(let x) = pair[0], case .number(let y) = pair[1]
                else { throw bad(path + "[\(r)][\(k)]", "expected a position [x, y]") }
                ring.append(PixelPoint(x: x, y: y))
            }
            rings.append(ring)
        }
        return rings
    }
}
