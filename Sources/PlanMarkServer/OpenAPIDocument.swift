import PlanMarkExport
import PlanMarkFormats

/// The service's OpenAPI 3.1 document, built from a few helpers so that every operation states the
/// same things the same way: its parameters, its body (always `application/json`, 415 otherwise) and
/// every status the server can answer for it. Tests check it with a validator and against the router;
/// `Benchmarks/schemathesis/run.sh` checks the server against it.
enum OpenAPIDocument {
    /// The document as JSON text.
    static let json: String = document.text + "\n"

    // MARK: The document

    static var document: Doc {
        [
            "openapi": "3.1.0",
            "info": [
                "title": "PlanMark",
                "version": .string(PlanMarkVersion.current),
                "description": .string(description),
                "license": ["name": "MIT", "identifier": "MIT"],
            ],
            "servers": [["url": "http://127.0.0.1:8080"]],
            "security": [["bearer": []]],
            "paths": .object(paths),
            "components": [
                "securitySchemes": [
                    "bearer": [
                        "type": "http", "scheme": "bearer",
                        "description": "Required on every endpoint but /health when the server was started with a token.",
                    ],
                ],
                "parameters": [
                    "DrawingName": pathParameter("name", "The drawing's name (percent-encoded).", ["type": "string", "minLength": 1]),
                    "MarkerNumber": pathParameter("number", "The marker's number.", ["type": "integer", "minimum": 1, "maximum": .integer(Int.max)]),
                    "Zoom": queryParameter(
                        "zoom", "Answer in latLng at this zoom ([lng, lat] in GeoJSON) in the drawing's CRS flavour; without it, pixels.",
                        zoomSchema),
                    "Status": queryParameter("status", "Only markers with this status.", enumeration(["open", "resolved"])),
                ],
                "responses": .object(errorResponses.map { ($0.name, response($0.description, content: jsonContent(ref("Error")), headers: $0.headers)) }),
                "schemas": .object(schemas),
            ],
        ]
    }

    static let description = """
        Floor-plan annotation service for map clients (Leaflet or flutter_map with CRS.Simple): drawings, regions, \
        numbered markers, review images. Pixels are full-resolution image pixels (x right, y down); latLng values are \
        CRS.Simple coordinates at the given zoom in the drawing's CRS flavour. GeoJSON positions are [x, y] in pixels, \
        or [lng, lat] when a zoom is given. Every error is {"error":{"code":"...","message":"..."}} and never names a \
        server path. With or without a token the server refuses: a Host that is not the server (421; 400 without a \
        Host), writes whose body is not sent as Content-Type: application/json (415), writes carrying an Origin header \
        that is neither the server's own nor the configured CORS origin (403), and any method a path does not list \
        (405 with Allow). HEAD is answered wherever GET is. Unknown query parameters and body fields are 400.
        """

    // MARK: Paths

    static var paths: [(String, Doc)] {
        [
            ("/health", getAndHead(
                id: "health", summary: "Liveness check (no token needed).", security: false, storeAccess: false,
                success: ok("The service is up.", jsonContent(object(["status": ["const": "ok"]], required: ["status"]))))),
            ("/openapi.json", getAndHead(
                id: "openapi", summary: "This document.", storeAccess: false,
                success: ok("The OpenAPI 3.1 document.", jsonContent(["type": "object"])))),
            ("/validate", [
                "post": operation(
                    id: "validate", summary: "Validate markers against regions and a size; the report of `planmark validate --report json`.",
                    body: ref("ValidateRequest"), storeAccess: false,
                    success: ok("The report (valid and invalid markers alike).", jsonContent(ref("ValidationReport"))),
                    errors: [400, 401, 403, 413, 415, 421, 503]),
            ]),
            ("/drawings", getAndHead(
                id: "listDrawings", summary: "Every drawing.",
                success: ok("The drawings, by name.", jsonContent(object(["drawings": ["type": "array", "items": ref("Drawing")]], required: ["drawings"]))))),
            ("/drawings/{name}", withPath(["DrawingName"], getAndHead(
                id: "getDrawing", summary: "One drawing with its image bounds at its zoom.",
                success: ok("The drawing.", jsonContent(ref("Drawing"))), errors: [404]))),
            ("/drawings/{name}/image", withPath(["DrawingName"], getAndHead(
                id: "getDrawingImage", summary: "The drawing's PNG.",
                parameters: [["name": "If-None-Match", "in": "header", "required": false, "schema": ["type": "string"]]],
                success: [
                    ("200", response("The image.", content: pngContent, headers: [("ETag", header("The image's SHA-256, quoted.")), ("Cache-Control", header())])),
                    ("304", response("Not modified (the ETag matched).", headers: [("ETag", header()), ("Cache-Control", header())])),
                ],
                errors: [404]))),
            ("/drawings/{name}/regions", withPath(["DrawingName"], getAndHead(
                id: "getRegions", summary: "The drawing's regions as GeoJSON.", parameters: [parameterRef("Zoom")],
                success: ok("Polygons in pixels, or [lng, lat] at zoom.", geoJSONContent), errors: [404]))),
            ("/drawings/{name}/markers", withPath(["DrawingName"], getAndHead(
                id: "getMarkers", summary: "The drawing's markers as GeoJSON.", parameters: [parameterRef("Zoom"), parameterRef("Status")],
                success: ok("""
                    Points: coordinates [x, y] in pixels, or [lng, lat] at zoom; the feature id is the marker's number and \
                    its properties are the Marker object (x, y always; lat, lng at zoom when zoom is given). \
                    The same bytes as `planmark markers NAME --format geojson [--latlng --zoom Z]`.
                    """, ["application/geo+json": ["schema": ref("MarkerCollection")]]),
                errors: [404],
                extra: [
                    ("post", operation(
                        id: "addMarker", summary: "Validate a tap and store it as the next numbered marker.", body: ref("NewMarker"),
                        success: [
                            ("201", response("Stored.", content: jsonContent(ref("Marker")), headers: [("Location", header("The marker's URL path."))])),
                        ],
                        errors: [400, 401, 403, 404, 413, 415, 421, 422, 500, 503])),
                ]))),
            ("/drawings/{name}/markers/{number}", withPath(["DrawingName", "MarkerNumber"], getAndHead(
                id: "getMarker", summary: "One marker.", parameters: [parameterRef("Zoom")],
                success: ok("The marker.", jsonContent(ref("Marker"))), errors: [404],
                extra: [
                    ("patch", operation(
                        id: "changeMarker", summary: "Move (validated like a new marker), resolve or reopen, or change the note of a marker.",
                        body: ref("MarkerChange"),
                        success: ok("The marker after the change.", jsonContent(ref("Marker"))),
                        errors: [400, 401, 403, 404, 409, 413, 415, 421, 422, 500, 503])),
                    ("delete", operation(
                        id: "removeMarker", summary: "Remove a marker; its number is never given again. A body, if sent, must be JSON (it is ignored).",
                        parameters: [queryParameter("author", "Who removed it (kept in the history).", ["type": "string"])],
                        success: ok("Removed.", jsonContent(object(["number": ["type": "integer", "minimum": 1], "removed": ["const": true]],
                                                                    required: ["number", "removed"]))),
                        errors: [400, 401, 403, 404, 415, 421, 500, 503])),
                ]))),
            ("/drawings/{name}/markers/{number}/history", withPath(["DrawingName", "MarkerNumber"], getAndHead(
                id: "getMarkerHistory", summary: "The marker's changes, oldest first (kept after removal).",
                success: ok("The history.", jsonContent(ref("History"))), errors: [404]))),
            ("/drawings/{name}/review.png", withPath(["DrawingName"], getAndHead(
                id: "getReviewImage", summary: "The drawing with its regions and numbered markers, drawn by the renderer.",
                parameters: [
                    queryParameter("around", "Crop around this marker number.", ["type": "integer", "minimum": 1, "maximum": .integer(Int.max)]),
                    queryParameter("margin", "Crop margin in pixels; only with around (default 200).",
                                   ["type": "integer", "minimum": 0, "maximum": 100_000]),
                    queryParameter("scale", "Output size over full size, in (0, 1].", ["type": "number", "exclusiveMinimum": 0, "maximum": 1]),
                    queryParameter("status", "Only markers with this status (default all).", enumeration(["open", "resolved", "all"])),
                    queryParameter("legend", "Draw the legend.", ["type": "boolean"]),
                ],
                success: ok("The PNG.", pngContent), errors: [404, 422]))),
        ]
    }

    // MARK: Operations

    /// A GET operation and its HEAD twin (same parameters and statuses, no bodies), with the statuses
    /// every read can answer: 400, 401 (unless `security` is false), 421; and 500 and 503 when it
    /// reads the store. `extra` holds the path's other operations.
    static func getAndHead(id: String, summary: String, security: Bool = true, storeAccess: Bool = true, parameters: [Doc] = [],
                           success: [(String, Doc)], errors: [Int] = [], extra: [(String, Doc)] = []) -> Doc {
        var statuses = Set(errors).union([400, 421])
        if security { statuses.insert(401) }
        if storeAccess { statuses.formUnion([500, 503]) }
        let get = operation(id: id, summary: summary, parameters: parameters, security: security, storeAccess: storeAccess,
                            success: success, errors: statuses)
        let headSuccess = success.map { status, response in (status, response.removing("content")) }
        let head = operation(id: "head" + id.prefix(1).uppercased() + id.dropFirst(), summary: "Headers of " + id + " (HEAD).",
                             parameters: parameters, security: security, storeAccess: storeAccess,
                             success: headSuccess, errors: statuses, bodies: false)
        return .object([("get", get), ("head", head)] + extra)
    }

    /// One operation: its parameters, its JSON body (required, `application/json` only), its success
    /// answers and its error statuses (from `errorResponses`).
    static func operation(id: String, summary: String, parameters: [Doc] = [], body: Doc? = nil, security: Bool = true,
                          storeAccess: Bool = true, success: [(String, Doc)], errors: some Sequence<Int>, bodies: Bool = true) -> Doc {
        var fields: [(String, Doc)] = [("operationId", .string(id)), ("summary", .string(summary))]
        if !security { fields.append(("security", [])) }
        if !parameters.isEmpty { fields.append(("parameters", .array(parameters))) }
        if let body {
            fields.append(("requestBody", [
                "required": true,
                "description": "Sent with Content-Type: application/json (parameters such as charset allowed); anything else is 415.",
                "content": ["application/json": ["schema": body]],
            ]))
        }
        var responses = success
        for status in Set(errors).sorted() {
            guard let error = errorResponses.first(where: { $0.status == status }) else { continue }
            responses.append((String(status), bodies ? ["$ref": .string("#/components/responses/" + error.name)]
                                                     : response(error.description, headers: error.headers)))
        }
        fields.append(("responses", .object(responses)))
        return .object(fields)
    }

    /// The error answers: status, component name, description, headers.
    static let errorResponses: [(status: Int, name: String, description: String, headers: [(String, Doc)])] = [
        (400, "BadRequest", "Malformed JSON, an invalid field or parameter (the message names it), an unknown query parameter, a body that could not be read to its end, or no Host header.", []),
        (401, "Unauthorized", "Missing or wrong bearer token.", [("WWW-Authenticate", header())]),
        (403, "ForbiddenOrigin", "A write from a page on another origin (an Origin header that is neither the server's nor --cors-origin).", []),
        (404, "NotFound", "Unknown drawing, marker or endpoint.", []),
        (409, "Conflict", "The change conflicts with the marker's state.", []),
        (413, "TooLarge", "The body is over the limit (--max-body, 1 MiB by default); for /validate also more region vertices (--max-vertices, default 200000) or markers (--max-markers, default 100000) than the server takes.", []),
        (415, "UnsupportedMediaType", "The body was not sent as Content-Type: application/json.", []),
        (421, "MisdirectedRequest", "The Host header names neither the address the server listens on nor an --allowed-host.", []),
        (422, "Refused", "The position was refused (code outside-drawing, outside-allowed-area or invalid-coordinate; review.png: marker-off-drawing). Nothing was stored.", []),
        (500, "ServerError", "The store or the drawing's image failed (details in the server log only).", []),
        (503, "Unavailable", "The store stayed locked past the busy timeout (store-busy), or /validate is at its concurrency limit (too-many-validations). Retry after Retry-After seconds.", [("Retry-After", header("Seconds to wait.", ["type": "string", "pattern": "^[0-9]+$"]))]),
    ]

    // MARK: Schemas

    static var schemas: [(String, Doc)] {
        [
            ("Error", object(["error": object(["code": ["type": "string"], "message": ["type": "string"]], required: ["code", "message"])],
                             required: ["error"])),
            ("LatLngPair", pair(description: "[lat, lng]")),
            ("Drawing", object([
                "name": ["type": "string"], "width": ["type": "integer"], "height": ["type": "integer"], "zoom": ["type": "number"],
                "crs": enumeration(["leaflet", "flutter"]), "singleMarker": ["type": "boolean"],
                "markers": ["type": "integer", "description": "Markers stored (removed ones excluded)."],
                "regions": ["type": "integer"], "nextNumber": ["type": "integer", "minimum": 1], "createdAt": dateTime,
                "image": ["type": "string", "description": "URL path of the PNG (the CLI's `drawing show` gives the file it was added from)."],
                "sha256": ["type": "string", "description": "SHA-256 of the PNG's bytes, also its ETag."],
                "bounds": object(["southWest": ref("LatLngPair"), "northEast": ref("LatLngPair")], required: ["southWest", "northEast"],
                                 description: "Image overlay bounds at the drawing's zoom in its CRS flavour."),
            ], required: ["name", "width", "height", "zoom", "crs", "markers", "bounds"])),
            ("NewMarker", object(positionFields + [("note", ["type": "string"]), ("author", ["type": "string"])],
                                 closed: true, description: "x and y in pixels, or lat and lng at zoom (default: the drawing's zoom).")
                .adding("oneOf", [pixelPosition, latLngPosition])),
            ("MarkerChange", object(positionFields + [
                ("status", enumeration(["open", "resolved"])), ("note", ["type": ["string", "null"]]), ("author", ["type": "string"]),
            ], closed: true, description: "At least one of a position (x and y, or lat and lng with optional zoom), status or note.")
                .adding("anyOf", [pixelPosition, latLngPosition, ["required": ["status"]], ["required": ["note"]]])
                .adding("dependentRequired", positionDependencies)
                .adding("not", bothPositionKinds)),
            ("Marker", object([
                "number": ["type": "integer", "minimum": 1], "x": ["type": "number"], "y": ["type": "number"],
                "lat": ["type": "number", "description": "When the request used latLng (or gave zoom): at that zoom."], "lng": ["type": "number"],
                "status": enumeration(["open", "resolved"]), "rooms": ["type": "array", "items": ["type": "string"]],
                "note": ["type": ["string", "null"]], "author": ["type": ["string", "null"]], "createdAt": dateTime, "updatedAt": dateTime,
            ], required: ["number", "x", "y", "status", "rooms"])),
            ("MarkerCollection", object([
                "type": ["const": "FeatureCollection"],
                "features": ["type": "array", "items": object([
                    "type": ["const": "Feature"], "id": ["type": "integer", "minimum": 1],
                    "geometry": object(["type": ["const": "Point"], "coordinates": ["type": "array", "items": ["type": "number"], "minItems": 2, "maxItems": 2]],
                                       required: ["type", "coordinates"]),
                    "properties": ref("Marker"),
                ], required: ["type", "id", "geometry", "properties"])],
            ], required: ["type", "features"])),
            ("FeatureCollection", object([
                "type": ["const": "FeatureCollection"],
                "features": ["type": "array", "items": object([
                    "type": ["const": "Feature"], "id": ["type": ["string", "integer"]], "geometry": ["type": "object"],
                    "properties": ["type": "object"],
                ], required: ["type", "geometry", "properties"])],
            ], required: ["type", "features"])),
            ("History", object([
                "drawing": ["type": "string"], "number": ["type": "integer", "minimum": 1],
                "history": ["type": "array", "items": object([
                    "action": enumeration(["created", "moved", "resolved", "reopened", "removed", "edited"]), "at": dateTime,
                    "author": ["type": ["string", "null"]], "old": ["type": ["object", "null"]], "new": ["type": ["object", "null"]],
                ], required: ["action", "at"])],
            ], required: ["drawing", "number", "history"])),
            ("RegionCollection", object([
                "type": ["const": "FeatureCollection"],
                "features": ["type": "array", "items": object([
                    "type": ["const": "Feature"], "id": ["type": ["string", "number", "null"]],
                    "properties": ["description": "Read when an object: id, kind, name.", "properties": [
                        "id": ["type": ["string", "number", "null"]], "kind": ["enum": ["room", "allowed", nil]], "name": ["type": ["string", "null"]],
                    ]],
                    "geometry": ["oneOf": [
                        object(["type": ["const": "Polygon"], "coordinates": polygonSchema], required: ["type", "coordinates"]),
                        object(["type": ["const": "MultiPolygon"], "coordinates": ["type": "array", "items": polygonSchema]],
                               required: ["type", "coordinates"]),
                    ]],
                ], required: ["type", "geometry"])],
            ], required: ["type", "features"],
               description: "Rooms and allowed areas in pixels. Also checked, and 400 otherwise: region ids unique, rings closed and simple.")),
            ("ValidateRequest", object([
                "regions": ref("RegionCollection"),
                "size": pair(description: "[width, height] in pixels.", item: ["type": "number", "exclusiveMinimum": 0]),
                "markers": ["oneOf": [
                    object(["type": ["const": "FeatureCollection"], "features": ["type": "array", "items": object([
                        "type": ["const": "Feature"],
                        "geometry": object(["type": ["const": "Point"], "coordinates": ["description": "[x, y]; anything else is reported as invalid-coordinate."]],
                                           required: ["type"]),
                    ], required: ["type", "geometry"])]], required: ["type", "features"]),
                    ["type": "array", "items": ["description": "[x, y]; anything else is reported as invalid-coordinate."]],
                ], "description": "At most --max-markers (default 100000) markers."],
                "boundary": enumeration(["include", "exclude"]), "requireRoom": ["type": "boolean"],
            ], required: ["regions", "markers"], closed: true)),
            ("ValidationReport", object([
                "markers": ["type": "array", "items": object([
                    "id": ["type": "string"], "x": ["type": ["number", "null"]], "y": ["type": ["number", "null"]], "valid": ["type": "boolean"],
                    "reason": ["enum": ["invalid-coordinate", "outside-drawing", "outside-allowed-area", "outside-rooms", nil]],
                    "regions": ["type": "array", "items": object([
                        "id": ["type": "string"], "kind": enumeration(["room", "allowed"]), "location": enumeration(["inside", "boundary"]),
                    ], required: ["id", "kind", "location"])],
                ], required: ["id", "x", "y", "valid", "reason", "regions"])],
                "summary": object([
                    "total": ["type": "integer"], "valid": ["type": "integer"], "invalid": ["type": "integer"],
                    "byReason": ["type": "object", "additionalProperties": ["type": "integer"]],
                ], required: ["total", "valid", "invalid", "byReason"]),
            ], required: ["markers", "summary"])),
        ]
    }

    /// A zoom: a number with |zoom| <= 64.
    static let zoomSchema: Doc = ["type": "number", "minimum": -64, "maximum": 64]

    /// The position members of a marker body.
    static var positionFields: [(String, Doc)] {
        [("x", ["type": "number"]), ("y", ["type": "number"]), ("lat", ["type": "number"]), ("lng", ["type": "number"]), ("zoom", zoomSchema)]
    }

    /// x and y, and no latLng member.
    static let pixelPosition: Doc = [
        "title": "pixels", "required": ["x", "y"],
        "not": ["anyOf": [["required": ["lat"]], ["required": ["lng"]], ["required": ["zoom"]]]],
    ]
    /// lat and lng (optional zoom), and no pixel member.
    static let latLngPosition: Doc = [
        "title": "latLng", "required": ["lat", "lng"], "not": ["anyOf": [["required": ["x"]], ["required": ["y"]]]],
    ]
    /// Members that need their partner.
    static let positionDependencies: Doc = ["x": ["y"], "y": ["x"], "lat": ["lng"], "lng": ["lat"], "zoom": ["lat", "lng"]]
    /// A pixel member together with a latLng member.
    static let bothPositionKinds: Doc = [
        "allOf": [
            ["anyOf": [["required": ["x"]], ["required": ["y"]]]],
            ["anyOf": [["required": ["lat"]], ["required": ["lng"]], ["required": ["zoom"]]]],
        ],
    ]

    /// One polygon: rings of at least 4 [x, y] positions.
    static let polygonSchema: Doc = [
        "type": "array", "minItems": 1,
        "items": ["type": "array", "minItems": 4, "items": ["type": "array", "minItems": 2, "prefixItems": [["type": "number"], ["type": "number"]]]],
    ]

    static let dateTime: Doc = ["type": "string", "format": "date-time"]
    static let pngContent: Doc = ["image/png": ["schema": ["type": "string", "contentMediaType": "image/png"]]]
    static let geoJSONContent: Doc = ["application/geo+json": ["schema": ref("FeatureCollection")]]

    // MARK: Helpers

    static func ref(_ schema: String) -> Doc { ["$ref": .string("#/components/schemas/" + schema)] }
    static func parameterRef(_ name: String) -> Doc { ["$ref": .string("#/components/parameters/" + name)] }
    static func jsonContent(_ schema: Doc) -> Doc { ["application/json": ["schema": schema]] }
    static func enumeration(_ values: [String]) -> Doc { ["type": "string", "enum": .array(values.map(Doc.string))] }

    static func ok(_ description: String, _ content: Doc) -> [(String, Doc)] { [("200", response(description, content: content))] }

    static func response(_ description: String, content: Doc? = nil, headers: [(String, Doc)] = []) -> Doc {
        var fields: [(String, Doc)] = [("description", .string(description))]
        if !headers.isEmpty { fields.append(("headers", .object(headers))) }
        if let content { fields.append(("content", content)) }
        return .object(fields)
    }

    static func header(_ description: String? = nil, _ schema: Doc = ["type": "string"]) -> Doc {
        var fields: [(String, Doc)] = []
        if let description { fields.append(("description", .string(description))) }
        fields.append(("schema", schema))
        return .object(fields)
    }

    static func pathParameter(_ name: String, _ description: String, _ schema: Doc) -> Doc {
        ["name": .string(name), "in": "path", "required": true, "description": .string(description), "schema": schema]
    }

    static func queryParameter(_ name: String, _ description: String, _ schema: Doc) -> Doc {
        ["name": .string(name), "in": "query", "required": false, "description": .string(description), "schema": schema]
    }

    static func withPath(_ parameters: [String], _ item: Doc) -> Doc {
        guard case .object(let fields) = item else { return item }
        return .object([("parameters", .array(parameters.map(parameterRef)))] + fields)
    }

    static func object(_ properties: KeyValuePairs<String, Doc>, required: [String] = [], closed: Bool = false, description: String? = nil) -> Doc {
        object(properties.map { ($0.key, $0.value) }, required: required, closed: closed, description: description)
    }

    static func object(_ properties: [(String, Doc)], required: [String] = [], closed: Bool = false, description: String? = nil) -> Doc {
        var fields: [(String, Doc)] = [("type", "object")]
        if let description { fields.append(("description", .string(description))) }
        if !required.isEmpty { fields.append(("required", .array(required.map(Doc.string)))) }
        if closed { fields.append(("additionalProperties", false)) }
        fields.append(("properties", .object(properties)))
        return .object(fields)
    }

    static func pair(description: String, item: Doc = ["type": "number"]) -> Doc {
        ["type": "array", "description": .string(description), "prefixItems": [item, item], "minItems": 2, "maxItems": 2]
    }
}

/// A JSON value whose objects keep their members' order, written with literals.
indirect enum Doc: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
    case object([(String, Doc)])
    case array([Doc])
    case string(String)
    case integer(Int)
    case bool(Bool)
    case null

    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .integer(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: Doc...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, Doc)...) { self = .object(elements) }
    init(nilLiteral: ()) { self = .null }

    /// This object with `key` set to `value` at the end.
    func adding(_ key: String, _ value: Doc) -> Doc {
        guard case .object(let fields) = self else { return self }
        return .object(fields + [(key, value)])
    }

    /// This object without `key`.
    func removing(_ key: String) -> Doc {
        guard case .object(let fields) = self else { return self }
        return .object(fields.filter { $0.0 != key })
    }

    /// Compact JSON text.
    var text: String {
        switch self {
        case .object(let fields): return "{" + fields.map { JSONString.quoted($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
        case .array(let items): return "[" + items.map(\.text).joined(separator: ",") + "]"
        case .string(let value): return JSONString.quoted(value)
        case .integer(let value): return String(value)
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        }
    }
}
