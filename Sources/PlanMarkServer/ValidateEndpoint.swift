import Hummingbird
import PlanMarkFormats
import PlanMarkGeometry

/// `POST /validate`: `{"regions": <GeoJSON or LabelMe>, "size": [W, H], "markers": <GeoJSON or [[x, y], ...]>}`
/// (optional `"boundary": "include"|"exclude"`, `"requireRoom": true`) -> the report of
/// `planmark validate --report json`, written by the same `ValidationReport`.
///
/// The work one request may cause is bounded: the body by its size, the regions by `maxVertices` and
/// the markers by `maxMarkers` (both 413, counted in the parsed JSON before any region or marker is
/// built), and the validations running at once by `limiter` (503 with `Retry-After` beyond it).
struct ValidateEndpoint: Sendable {
    /// The most region vertices one request may hold.
    let maxVertices: Int
    /// The most markers one request may hold.
    let maxMarkers: Int
    /// Validations running at once.
    let limiter: ConcurrencyLimiter

    func respond(to request: Request, bodies: RequestBodyReader) async throws -> Response {
        try QueryParameters(request).onlyKeys([])
        let body = try await bodies.jsonObject(of: request)
        try checkCounts(body)
        guard limiter.tryAcquire() else {
            throw APIError.unavailable(code: "too-many-validations",
                                       message: "\(limiter.limit) validations are running, the most this server runs at once (--max-validations); retry shortly")
        }
        defer { limiter.release() }
        let bytes = try await BlockingWork.run { () throws -> [UInt8] in try Self.report(for: body) }
        return JSONResponse.make(bytes)
    }

    /// 413 when the regions hold more than `maxVertices` positions or the markers more than
    /// `maxMarkers` entries. Counting stops at the first position over the limit.
    /// - Complexity: O(min(size of the regions, maxVertices) + 1) for the regions; O(1) for the markers.
    func checkCounts(_ body: JSONObject) throws(APIError) {
        if let regions = body["regions"], case .array(let features)? = regions["features"] {
            var count = 0
            for feature in features {
                guard let coordinates = feature["geometry"]?["coordinates"] else { continue }
                guard Self.countPositions(coordinates, into: &count, limit: maxVertices) else {
                    throw .tooMany("vertices", field: body.path("regions"), limit: maxVertices, option: "--max-vertices")
                }
            }
        }
        // A LabelMe file's points, counted the same way.
        if let regions = body["regions"], case .array(let shapes)? = regions["shapes"] {
            var count = 0
            for shape in shapes {
                guard let points = shape["points"] else { continue }
                guard Self.countPositions(points, into: &count, limit: maxVertices) else {
                    throw .tooMany("vertices", field: body.path("regions"), limit: maxVertices, option: "--max-vertices")
                }
            }
        }
        let markers: Int
        switch body["markers"] {
        case .array(let items)?: markers = items.count
        case let value? where value["features"] != nil:
            if case .array(let features)? = value["features"] { markers = features.count } else { markers = 0 }
        default: markers = 0
        }
        if markers > maxMarkers {
            throw .tooMany("markers", field: body.path("markers"), limit: maxMarkers, option: "--max-markers")
        }
    }

    /// Adds the positions (arrays starting with a number) nested in `value` to `count`; false as soon
    /// as it passes `limit`.
    static func countPositions(_ value: JSONValue, into count: inout Int, limit: Int) -> Bool {
        guard case .array(let items) = value else { return true }
        if case .number? = items.first {
            count += 1
            return count <= limit
        }
        for item in items where !countPositions(item, into: &count, limit: limit) { return false }
        return true
    }

    /// Validates the request's markers and returns the JSON report's bytes.
    /// - Complexity: O(m * k) for m markers and k edges tested per marker.
    static func report(for body: JSONObject) throws(APIError) -> [UInt8] {
        try body.onlyKeys(["regions", "size", "markers", "boundary", "requireRoom"])
        guard let regionsValue = body["regions"] else { throw .invalidField(body.path("regions"), "required: a GeoJSON FeatureCollection") }
        var size: DrawingSize?
        if let value = body["size"] {
            guard case .array(let pair) = value, pair.count == 2, case .number(let width) = pair[0], case .number(let height) = pair[1],
                  width.isFinite, height.isFinite, width > 0, height > 0
            else { throw .invalidField(body.path("size"), "expected [width, height], two positive numbers") }
            size = DrawingSize(width: width, height: height)
        }
        // GeoJSON, or a LabelMe file (its image size must be `size` when given, and is the size otherwise;
        // its shapes that are not regions are left out).
        let regions: [Region]
        do {
            let input = try RegionsInput.input(from: regionsValue, source: "request", drawingSize: size)
            regions = input.regions
            size = size ?? input.imageSize
        } catch {
            throw .invalidField(subPath(error.path, of: body.path("regions")), error.message)
        }
        var boundary = BoundaryRule.include
        if let text = try body.string("boundary") {
            guard let rule = BoundaryRule(rawValue: text) else { throw .invalidField(body.path("boundary"), "expected \"include\" or \"exclude\"") }
            boundary = rule
        }
        let requireRoom = try body.bool("requireRoom") ?? false
        guard let markersValue = body["markers"] else { throw .invalidField(body.path("markers"), "required: a GeoJSON FeatureCollection or [[x, y], ...]") }
        let rows = try markerRows(markersValue, path: body.path("markers"),
                                  idNumberTexts: rerooted(body.idNumberTexts, from: body.path("markers")))

        let validator = MarkerValidator(regions: regions, size: size, boundary: boundary, requireRoom: requireRoom)
        let report = ValidationReport(format: .json, regions: validator.regions)
        var summary = ValidationSummary()
        var out = ReportBuffer(capacity: 64 + rows.count * 112)
        out.append(report.header())
        var hits: [RegionHit] = []
        for (index, row) in rows.enumerated() {
            let reason: InvalidReason?
            if let position = row.position {
                reason = validator.validate(position, hits: &hits)
            } else {
                hits.removeAll(keepingCapacity: true)
                reason = .invalidCoordinate
            }
            report.entry(row, reason: reason, hits: hits, isFirst: index == 0, into: &out)
            summary.count(reason)
        }
        out.append(report.footer(summary))
        return out.bytes
    }

    /// Rows from a GeoJSON FeatureCollection of Points (ids as `planmark validate` gives them: the
    /// feature's id, else `properties.id`, else its 1-based position) or from `[[x, y], ...]` (ids 1, 2, ...).
    /// A position that is not two finite numbers is kept as a row without position (`invalid-coordinate`).
    /// A numeric id keeps its source text (`1.50` stays `1.50`), as in `planmark validate`: `idNumberTexts`
    /// are keyed by JSON path from the markers' collection (`$.features[3].id`).
    static func markerRows(_ value: JSONValue, path: String, idNumberTexts: [String: String] = [:]) throws(APIError) -> [MarkerRow] {
        switch value {
        case .array(let items):
            return items.enumerated().map { index, item in
                var position: PixelPoint?
                if case .array(let pair) = item, pair.count == 2, case .number(let x) = pair[0], case .number(let y) = pair[1], x.isFinite, y.isFinite {
                    position = PixelPoint(x: x, y: y)
                }
                return MarkerRow(id: String(index + 1), line: 0, position: position)
            }
        case .object:
            guard value["type"] == .string("FeatureCollection") else { throw .invalidField(path + ".type", "expected \"FeatureCollection\"") }
            guard case .array(let features)? = value["features"] else { throw .invalidField(path + ".features", "expected an array of features") }
            var rows: [MarkerRow] = []
            rows.reserveCapacity(features.count)
            for (index, feature) in features.enumerated() {
                do {
                    rows.append(try MarkerFileReader.row(from: feature, index: index, source: "request", idNumberTexts: idNumberTexts))
                } catch {
                    throw .invalidField(subPath(error.path, of: path), error.message)
                }
            }
            return rows
        default:
            throw .invalidField(path, "expected a GeoJSON FeatureCollection or an array of [x, y], found \(value.typeName)")
        }
    }

    /// The entries of `texts` under `outer` (a path from the body's root), keyed by their path from `outer`:
    /// `$.markers.features[0].id` under `$.markers` is `$.features[0].id`.
    /// - Complexity: O(n) for n entries.
    static func rerooted(_ texts: [String: String], from outer: String) -> [String: String] {
        var result: [String: String] = [:]
        for (key, text) in texts where key.hasPrefix(outer + ".") || key.hasPrefix(outer + "[") {
            result["$" + key.dropFirst(outer.count)] = text
        }
        return result
    }

    /// `inner` (a path from `$`) re-rooted at `outer`: `$.features[0]` under `$.regions` is `$.regions.features[0]`.
    static func subPath(_ inner: String?, of outer: String) -> String {
        guard let inner, inner.hasPrefix("$") else { return outer }
        return outer + inner.dropFirst()
    }
}
