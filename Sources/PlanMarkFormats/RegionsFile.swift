import PlanMarkGeometry

/// Reads a regions file: a GeoJSON FeatureCollection of `Polygon` / `MultiPolygon` features in pixel
/// coordinates (`[x, y]`, origin top-left, y down).
///
/// A feature's id is its `id` (string or number), else `properties.id`, else its 1-based position
/// (a `null` id counts as absent). An id is kept exactly as written: a string as is (never trimmed),
/// a number as its source text (`1.50` stays `1.50`, `1e2` stays `1e2`; JSON has no `007`), when the
/// file is parsed here; a tree parsed elsewhere (`regions(from:)` without `idNumberTexts`) only has
/// the number's value, written as `JSONNumber.text` writes it. An id with a control character (C0 but
/// tab, or DEL) is refused; JSON strings with invalid UTF-8 or NUL never get this far.
/// `properties.kind` is `room` (default) or `allowed`; `properties.name` is optional; `properties.labelBox`, optional,
/// is where the drawing prints the room's label, `[minX, minY, maxX, maxY]` in pixels (review images keep pins off it). Every ring is
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
        let document: JSONParser.Document
        do {
            document = try JSONParser.parseDocument(bytes)
        } catch {
            throw error.formatError(source: source)
        }
        return try regions(from: document.root, source: source, idNumberTexts: document.idNumberTexts)
    }

    /// Builds regions from an already parsed FeatureCollection; `idNumberTexts` (from
    /// `JSONParser.parseDocument`) gives numeric ids their source text.
    /// - Complexity: O(n log n) for n vertices.
    public static func regions(from root: JSONValue, source: String, idNumberTexts: [String: String] = [:]) throws(FormatError) -> [Region] {
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
            let (idValue, idPath) = FeatureID.find(in: feature, path: path)
            switch idValue {
            case .string(let text)?: id = text
            case .number(let number)?: id = idNumberTexts[idPath] ?? JSONNumber.text(number)
            case nil: id = String(index + 1)
            case let other?: throw bad(idPath, "expected a string or a number, found \(other.typeName)")
            }
            if let problem = TextCheck.idProblem(id) { throw FormatError(problem, source: source, path: idPath) }
            guard seen.insert(id).inserted else { throw bad(idPath, "duplicate region id \"\(id)\"") }
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
            let labelBox = try Self.labelBox(properties?["labelBox"], path: path + ".properties.labelBox", source: source)
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
                regions.append(try Region(id: id, kind: kind, name: name, coordinates: polygons, labelBox: labelBox))
            } catch {
                throw bad(path + ".geometry", error.description)
            }
        }
        return regions
    }

    /// Reads a label's box, `[minX, minY, maxX, maxY]` in pixels (GeoJSON's `bbox` order); nil when absent or null.
    static func labelBox(_ value: JSONValue?, path: String, source: String) throws(FormatError) -> BoundingBox? {
        switch value {
        case nil, .null?: return nil
        case .array(let sides)? where sides.count == 4:
            var numbers: [Double] = []
            for side in sides {
                guard case .number(let number) = side, number.isFinite else { break }
                numbers.append(number)
            }
            if numbers.count == 4 && numbers[0] <= numbers[2] && numbers[1] <= numbers[3] {
                return BoundingBox(minX: numbers[0], minY: numbers[1], maxX: numbers[2], maxY: numbers[3])
            }
        default: break
        }
        throw FormatError(.malformed, source: source, path: path, message: "expected [minX, minY, maxX, maxY] with minX <= maxX and minY <= maxY")
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

/// Where a GeoJSON feature's id is: its `id` member, else `properties.id` (`null` counts as absent).
enum FeatureID {
    /// The id's value (nil when there is none) and the JSON path of where it was looked for.
    static func find(in feature: JSONValue, path: String) -> (JSONValue?, String) {
        if let value = feature["id"], value != .null { return (value, path + ".id") }
        if let value = feature["properties"]?["id"], value != .null { return (value, path + ".properties.id") }
        return (nil, path + ".id")
    }
}
