import PlanMarkExport
import PlanMarkFormats
import PlanMarkStore

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
                        "description": "A user's token (planmark user token; pmk_...) or the server's --token: required on every endpoint but /health when the server was started with a token or the store has users. A token that signs no one in is 401; after 10 such from one address within a minute, that address is answered 429 until the minute is over.",
                    ],
                ],
                "parameters": [
                    "DrawingName": pathParameter("name", "The drawing's name (percent-encoded).", ["type": "string", "minLength": 1]),
                    "MarkerNumber": pathParameter("number", "The marker's number.", ["type": "integer", "minimum": 1, "maximum": .integer(Int.max)]),
                    "Zoom": queryParameter(
                        "zoom", "Answer in latLng at this zoom ([lng, lat] in GeoJSON) in the drawing's CRS flavour; without it, pixels.",
                        zoomSchema),
                    "Status": queryParameter(
                        "status", "Only markers with any of these statuses: a comma-separated list of \(MarkerStatus.names()) (\(MarkerStatus.closedFormerly) is read as closed).",
                        ["type": "string", "pattern": .string(statusListPattern)]),
                    "Category": queryParameter("category", "Only markers of this category (the whole text, any case).", ["type": "string"]),
                    "Assignee": queryParameter("assignee", "Only markers assigned to this person (the whole text, any case).", ["type": "string"]),
                    "Priority": queryParameter(
                        "priority", "Only markers with any of these priorities: a comma-separated list of \(MarkerPriority.names()).",
                        ["type": "string", "pattern": .string("^(" + list(priorityNames) + ")?$")]),
                    "Room": queryParameter("room", "Only markers in the room with this id.", ["type": "string"]),
                    "Overdue": queryParameter("overdue", "Only overdue markers (due before today, UTC, and not closed or void).", ["type": "boolean"]),
                    "NeedsPlacement": queryParameter("needsPlacement", "Only markers that need placing again after a new revision of the sheet.", ["type": "boolean"]),
                    "Search": queryParameter("q", "Only markers with this text in their note, category or assignee (any case).", ["type": "string"]),
                    "AttachmentID": pathParameter("id", "The attachment's id.", ["type": "integer", "minimum": 1, "maximum": .integer(Int.max)]),
                ],
                "responses": .object(errorResponses.map { ($0.name, response($0.description, content: jsonContent(ref($0.status == 412 ? "VersionConflict" : "Error")), headers: $0.headers)) }),
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
        (405 with Allow). HEAD is answered wherever GET is. Unknown query parameters and body fields are 400. \
        On any path: beyond --max-connections open connections a new one is answered 503 too-many-connections (with \
        Retry-After) before its request is read, and closed; a connection that sends no whole request head within \
        --head-timeout seconds (--idle-timeout after an answer) is closed without an answer.
        """

    // MARK: Paths

    static var paths: [(String, Doc)] {
        [
            ("/health", getAndHead(
                id: "health", summary: "Liveness check (no token needed).", security: false, storeAccess: false,
                success: ok("The service is up.", jsonContent(object(["status": ["const": "ok"]], required: ["status"]))))),
            ("/me", getAndHead(
                id: "me", summary: "Who is signed in: a user with their role in each project and what that role may do, or the operator (the server's token, or anyone while the store has no users).",
                success: ok("The signed-in user; for the operator every field is null, projects is empty and operator is true (the operator may do everything).", jsonContent(object([
                    "name": ["type": ["string", "null"]], "email": ["type": ["string", "null"]], "company": ["type": ["string", "null"]],
                    "projects": ["type": "array", "items": object([
                        "name": ["type": "string"], "role": enumeration(ProjectRole.allCases.map(\.rawValue)),
                        "permissions": object(TeamAction.allCases.map { ($0.code, enumeration(permissionCodes)) }, required: TeamAction.allCases.map(\.code),
                                              closed: true, description: "What the role may do, by action: always, on-their-markers (those assigned to the user by name or company) or never."),
                    ], required: ["name", "role", "permissions"], closed: true)],
                    "operator": ["const": true],
                ], required: ["name", "email", "company", "projects"], closed: true))))),
            ("/vocabulary", getAndHead(
                id: "vocabulary",
                summary: "The workflow's words, signs and colours (no token needed): each status with its title, glyph, colour and the ink on it, whether it still needs work, and the changes it may make (each with its button's words, whether it needs a reason and whether it is work on the item or an inspection); the priorities; the overdue flag. Made from the service's own definition; the review page reads it instead of keeping a copy.",
                security: false, storeAccess: false,
                success: ok("The vocabulary.", jsonContent(object([
                    "statuses": ["type": "array", "items": object([
                        "name": enumeration(statusNames), "title": ["type": "string"], "glyph": ["type": "string"],
                        "colour": ["type": "string", "pattern": "^#[0-9A-F]{6}$"], "ink": ["type": "string", "pattern": "^#[0-9A-F]{6}$"],
                        "active": ["type": "boolean"],
                        "next": ["type": "array", "items": object([
                            "to": enumeration(statusNames), "action": ["type": "string"], "needsReason": ["type": "boolean"],
                            "advances": ["type": "boolean"],
                        ], required: ["to", "action", "needsReason", "advances"], closed: true)],
                    ], required: ["name", "title", "glyph", "colour", "ink", "active", "next"], closed: true)],
                    "priorities": ["type": "array", "items": enumeration(priorityNames)],
                    "overdue": object(["glyph": ["type": "string"], "colour": ["type": "string", "pattern": "^#[0-9A-F]{6}$"]],
                                      required: ["glyph", "colour"], closed: true),
                    "formerly": ["type": "object", "additionalProperties": enumeration(statusNames)],
                ], required: ["statuses", "priorities", "overdue", "formerly"], closed: true))))),
            ("/openapi.json", getAndHead(
                id: "openapi", summary: "This document.", storeAccess: false,
                success: ok("The OpenAPI 3.1 document.", jsonContent(["type": "object"])))),
            ("/metrics", getAndHead(
                id: "metrics",
                summary: "This server's metrics in the Prometheus text format: requests by route and status, their latency, "
                    + "store calls and their latency, store connections in use and waiting, tile cache hits and misses "
                    + "(docs/metrics.md).",
                storeAccess: false,
                success: [("200", response("The metrics.", content: prometheusContent,
                                           headers: [("Cache-Control", header("no-store: never cached."))]))])),
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
            ("/changes", getAndHead(
                id: "listChanges",
                summary: "The change feed: every change to a marker (upsert, with the marker as it is now; remove, a tombstone) or to a drawing after the cursor since, in the order they were committed, a marker once at its last change. Keep next and ask from it next time: no change is missed or given twice. A signed-in user gets the drawings of their projects; a subcontractor the upserts of the markers assigned to them.",
                parameters: [
                    queryParameter("since", "The cursor to read after (next of the last page); 0 or absent: from the beginning.", ["type": "integer", "minimum": 0]),
                    queryParameter("drawing", "Only this drawing's changes.", ["type": "string"]),
                    queryParameter("limit", "At most this many changes (default 1000).", ["type": "integer", "minimum": 1, "maximum": .integer(ChangePage.maxLimit)]),
                ],
                success: ok("A page of changes.", jsonContent(ref("ChangePage"))), errors: [400, 404])),
            ("/drawings/{name}/events", withPath(["DrawingName"], getAndHead(
                id: "drawingEvents",
                summary: "The drawing's changes as server-sent events, live: one event a change (id: its cursor, event: its kind, data: the Change object on one line), and a comment line every 15 s. With Last-Event-ID (or since) every change after it is sent first, then the live ones, none missed and none twice; without, changes from now on. Changes made through any server on the store, or by the CLI, arrive. A viewer whose stream falls 1000 changes behind is disconnected and resumes with Last-Event-ID. At most --max-streams streams (503 too-many-streams beyond). HEAD answers the headers only.",
                parameters: [
                    queryParameter("since", "Send the changes after this cursor first (Last-Event-ID wins when both are given).", ["type": "integer", "minimum": 0]),
                    ["name": "Last-Event-ID", "in": "header", "required": false, "schema": ["type": "string", "pattern": "^[0-9]+$"],
                     "description": "The id of the last event received: an EventSource sends it when it reconnects."],
                ],
                success: [("200", response("The stream (it does not end while the server runs).",
                                           content: ["text/event-stream": ["schema": ["type": "string"]]]))],
                errors: [400, 404]))),
            ("/drawings/{name}", withPath(["DrawingName"], getAndHead(
                id: "getDrawing", summary: "One drawing with its image bounds at its zoom.",
                success: ok("The drawing.", jsonContent(ref("Drawing"))), errors: [404],
                extra: [
                    ("patch", operation(
                        id: "renameDrawing", summary: "Rename a drawing; its markers, history and attachments go with it.",
                        body: object(["name": ["type": "string", "minLength": 1]], required: ["name"], closed: true),
                        success: [("200", response("The drawing under its new name.", content: jsonContent(ref("Drawing")),
                                                   headers: [("Location", header("The drawing's new URL path."))]))],
                        errors: [400, 401, 403, 404, 409, 413, 415, 421, 500, 503],
                        codes: [409: [StoreError.duplicateDrawing("").code]])),
                    ("delete", operation(
                        id: "removeDrawing",
                        summary: "Remove a drawing with its regions, markers and attachments in one transaction (its history stays in the hash chain); refused (409) while it has markers unless force=true. A body, if sent, must be JSON (it is ignored).",
                        parameters: [queryParameter("force", "Remove it with its markers.", ["type": "boolean"])],
                        success: ok("Removed.", jsonContent(object([
                            "name": ["type": "string"], "removed": ["const": true],
                            "markers": ["type": "integer", "minimum": 0], "attachments": ["type": "integer", "minimum": 0],
                        ], required: ["name", "removed", "markers", "attachments"]))),
                        errors: [400, 401, 403, 404, 409, 415, 421, 500, 503],
                        codes: [409: [StoreRefusal.Code.drawingHasMarkers.rawValue]])),
                ]))),
            ("/drawings/{name}/summary", withPath(["DrawingName"], getAndHead(
                id: "getSummary", summary: "Counts of the drawing's markers (those the filters take): by status, priority, room and assignee, and overdue.",
                parameters: filterParameters,
                success: ok("The counts.", jsonContent(ref("Summary"))), errors: [404]))),
            ("/drawings/{name}/image", withPath(["DrawingName"], getAndHead(
                id: "getDrawingImage", summary: "The drawing's image as added: its PNG, or the PDF of a PDF drawing (its page and dpi are in the drawing's pdf).",
                parameters: [["name": "If-None-Match", "in": "header", "required": false, "schema": ["type": "string"]]],
                success: [
                    ("200", response("The image.", content: pngOrPDFContent,
                                     headers: [("ETag", header("The image's SHA-256, quoted.")), ("Cache-Control", header())])),
                    ("304", response("Not modified (the ETag matched).", headers: [("ETag", header()), ("Cache-Control", header())])),
                ],
                errors: [404]))),
            ("/drawings/{name}/tiles/{z}/{x}/{y}.png", withPath(["DrawingName"], getAndHead(
                id: "getTile",
                summary: "One 256x256 PNG tile of the drawing's pyramid, as a Leaflet or flutter_map TileLayer asks for it under CRS.Simple: tile (z, x, y) covers the image pixels [x*256*f, (x+1)*256*f) x [y*256*f, (y+1)*256*f), f = 2^(zoom - z), z from the drawing's tiles.minZoom to tiles.maxZoom. Made with the whole pyramid on first request and cached on disk by the image's SHA-256 (and a PDF drawing's page and dpi). A PDF drawing's pyramid is its page drawn at its dpi; its two levels above floor(zoom) (up to tiles.maxZoom) are drawn from the page's vectors at 2 and 4 times the dpi, one tile at a time, and kept with the pyramid. A PDF that cannot be drawn is 422 pdf-unreadable, one that takes longer than the server's --pdf-time-limit 504 pdf-timed-out: the server remembers it and starts no PDF renderer for that drawing's tiles again until it restarts.",
                parameters: [
                    pathParameter("z", "The level, tiles.minZoom...tiles.maxZoom (may be negative).", ["type": "integer"]),
                    pathParameter("x", "The column, from 0 at the left.", ["type": "integer", "minimum": 0]),
                    pathParameter("y", "The row, from 0 at the top.", ["type": "integer", "minimum": 0]),
                    queryParameter("v", "The drawing's tile key, as the tiles.template gives it: its sha256, and for a PDF drawing its page and dpi (SHA256-pPAGE-DPI). When it is the current one the answer is cached for a year (immutable); otherwise it is the current image's tile with Cache-Control: no-cache (also a PDF drawing's tile drawn alone before its pyramid is made).", ["type": "string"]),
                    ["name": "If-None-Match", "in": "header", "required": false, "schema": ["type": "string"]],
                ],
                success: [
                    ("200", response("The tile.", content: pngContent, headers: [("ETag", header("The SHA-256 of the tile's bytes, quoted.")), ("Cache-Control", header())])),
                    ("304", response("Not modified (the ETag matched).", headers: [("ETag", header()), ("Cache-Control", header())])),
                ],
                errors: [404, 422, 504]))),
            ("/drawings/{name}/regions", withPath(["DrawingName"], getAndHead(
                id: "getRegions", summary: "The drawing's regions as GeoJSON.", parameters: [parameterRef("Zoom")],
                success: ok("Polygons in pixels, or [lng, lat] at zoom.", geoJSONContent), errors: [404]))),
            ("/drawings/{name}/revisions", withPath(["DrawingName"], getAndHead(
                id: "getRevisions", summary: "The drawing's sheet revisions, oldest first (the last is current; `planmark drawing revise` adds them).",
                success: ok("The revisions.", jsonContent(object([
                    "drawing": ["type": "string"], "revision": ["type": "integer", "minimum": 1],
                    "revisions": ["type": "array", "items": ref("Revision")],
                ], required: ["drawing", "revision", "revisions"]))), errors: [404]))),
            ("/drawings/{name}/markers", withPath(["DrawingName"], getAndHead(
                id: "getMarkers", summary: "The drawing's markers as GeoJSON (those the filters take; every one without filters). The ETag changes whenever any marker of the drawing is added, moved, changed, attached to or removed (by this server or any other process, the CLI included): poll with If-None-Match for a cheap 304.",
                parameters: [parameterRef("Zoom")] + filterParameters + [["name": "If-None-Match", "in": "header", "required": false, "schema": ["type": "string"]]],
                success: [
                    ("200", response("""
                    Points: coordinates [x, y] in pixels, or [lng, lat] at zoom; the feature id is the marker's number and \
                    its properties are the Marker object (x, y always; lat, lng at zoom when zoom is given). \
                    The same bytes as `planmark markers NAME --format geojson [--latlng --zoom Z]`.
                    """, content: ["application/geo+json": ["schema": ref("MarkerCollection")]],
                    headers: [("ETag", header("The markers' version, the drawing and the query, quoted.")), ("Cache-Control", header())])),
                    ("304", response("Not modified: no marker of the drawing changed since the ETag was given.",
                                     headers: [("ETag", header()), ("Cache-Control", header())])),
                ],
                errors: [404],
                extra: [
                    ("post", operation(
                        id: "addMarker",
                        summary: "Validate a tap and store it as the next numbered marker. Idempotent by uuid (offline capture): a uuid stored already for this drawing with the same position and fields answers 200 with the stored marker (nothing new stored, no history entry); with other content, or on another drawing, 409.",
                        body: ref("NewMarker"),
                        success: [
                            ("200", response("Stored already (same uuid, same content): the stored marker, same number.", content: jsonContent(ref("Marker")),
                                             headers: [("Location", header("The marker's URL path."))])),
                            ("201", response("Stored.", content: jsonContent(ref("Marker")), headers: [("Location", header("The marker's URL path."))])),
                        ],
                        errors: [400, 401, 403, 404, 409, 413, 415, 421, 422, 500, 503],
                        codes: [409: [StoreError.uuidConflict(uuid: MarkerUUID(canonical: ""), drawing: "", number: 0).code, StoreRefusal.Code.uuidNotIssued.rawValue]])),
                ]))),
            ("/drawings/{name}/markers/{number}", withPath(["DrawingName", "MarkerNumber"], getAndHead(
                id: "getMarker", summary: "One marker.", parameters: [parameterRef("Zoom")],
                success: [("200", response("The marker.", content: jsonContent(ref("Marker")),
                                           headers: [("ETag", header("The marker's version, quoted (\"3\"): what If-Match names."))]))],
                errors: [404],
                extra: [
                    ("patch", operation(
                        id: "changeMarker",
                        summary: "Change any of a marker's fields in one transaction, all or none: position (validated like a new marker's), status (as the workflow allows; 409 transition-refused otherwise; ready to open needs a reason), note, category, priority, assignee, due (null clears note, category, assignee, due).",
                        parameters: [ifMatchParameter, idempotencyKeyParameter],
                        body: ref("MarkerChange"),
                        success: ok("The marker after the change (its ETag: the new version).", jsonContent(ref("Marker"))),
                        errors: [400, 401, 403, 404, 409, 412, 413, 415, 421, 422, 500, 503],
                        codes: [409: [StoreError.transitionRefused(drawing: "", number: 0, from: .open, to: .open).code,
                                      StoreRefusal.Code.reasonRequired.rawValue]])),
                    ("delete", operation(
                        id: "removeMarker", summary: "Remove a marker; its number is never given again. A body, if sent, must be JSON (it is ignored).",
                        parameters: [queryParameter("author", "Who removed it (kept in the history).", ["type": "string"]), ifMatchParameter,
                                     idempotencyKeyParameter],
                        success: ok("Removed.", jsonContent(object(["number": ["type": "integer", "minimum": 1], "removed": ["const": true]],
                                                                    required: ["number", "removed"]))),
                        errors: [400, 401, 403, 404, 412, 415, 421, 422, 500, 503])),
                ]))),
            ("/drawings/{name}/markers/{number}/history", withPath(["DrawingName", "MarkerNumber"], getAndHead(
                id: "getMarkerHistory", summary: "The marker's changes, oldest first (kept after removal).",
                success: ok("The history.", jsonContent(ref("History"))), errors: [404]))),
            ("/drawings/{name}/markers/{number}/comments", withPath(["DrawingName", "MarkerNumber"], getAndHead(
                id: "listComments", summary: "The marker's comments, oldest first (history entries: never edited or removed).",
                success: ok("The comments.", jsonContent(["type": "array", "items": ref("Comment")])),
                errors: [404],
                extra: [
                    ("post", operation(
                        id: "addComment",
                        summary: "Add a comment to the marker's thread; its author is the signed-in user (an author that differs is 400 author-mismatch). Empty or blank text, or more than 4000 characters, is 400 invalid-field.",
                        parameters: [idempotencyKeyParameter],
                        body: object(["text": ["type": "string", "minLength": 1, "maxLength": .integer(Comment.maxLength)],
                                      "author": ["type": "string"]], required: ["text"], closed: true),
                        success: [("201", response("Stored.", content: jsonContent(ref("Comment"))))],
                        errors: [400, 401, 403, 404, 413, 415, 421, 422, 500, 503])),
                ]))),
            ("/drawings/{name}/markers/{number}/attachments", withPath(["DrawingName", "MarkerNumber"], getAndHead(
                id: "listAttachments", summary: "The marker's attachments, oldest first.",
                success: ok("The attachments.", jsonContent(object(["attachments": ["type": "array", "items": ref("Attachment")]],
                                                                   required: ["attachments"]))),
                errors: [404],
                extra: [
                    ("post", operation(
                        id: "attach",
                        summary: "Attach a photo or document: the raw file as the body. Its type is decided by its bytes (JPEG, PNG, PDF); a declared Content-Type other than application/octet-stream must agree (415 otherwise). At most --max-attachment bytes (20 MiB by default; 413, checked before the body is read). A JPEG or PNG whose header declares more than 100,000,000 pixels or 20,000 a side is refused (422, photo-too-large). Bytes are stored once per SHA-256.",
                        parameters: [
                            queryParameter("caption", "A caption.", ["type": "string"]),
                            queryParameter("author", "Who attached it (kept in the history).", ["type": "string"]),
                            idempotencyKeyParameter,
                        ],
                        rawBody: ["image/jpeg", "image/png", "application/pdf", "application/octet-stream"],
                        success: [("201", response("Stored.", content: jsonContent(ref("Attachment")),
                                                   headers: [("Location", header("The attachment's URL path."))]))],
                        errors: [400, 401, 403, 404, 413, 415, 421, 422, 500, 503])),
                ]))),
            ("/drawings/{name}/markers/{number}/attachments/{id}", withPath(["DrawingName", "MarkerNumber", "AttachmentID"], getAndHead(
                id: "getAttachment", summary: "The attachment's bytes, as stored.",
                parameters: [["name": "If-None-Match", "in": "header", "required": false, "schema": ["type": "string"]]],
                success: [
                    ("200", response("The bytes, with the stored Content-Type.", content: [
                        "image/jpeg": ["schema": ["type": "string", "contentMediaType": "image/jpeg"]],
                        "image/png": ["schema": ["type": "string", "contentMediaType": "image/png"]],
                        "application/pdf": ["schema": ["type": "string", "contentMediaType": "application/pdf"]],
                    ], headers: attachmentHeaders)),
                    ("304", response("Not modified (the ETag matched).", headers: attachmentHeaders)),
                ],
                errors: [404],
                extra: [
                    ("delete", operation(
                        id: "detach", summary: "Remove an attachment (its bytes go when no other attachment has them). A body, if sent, must be JSON (it is ignored).",
                        parameters: [queryParameter("author", "Who removed it (kept in the history).", ["type": "string"]), idempotencyKeyParameter],
                        success: ok("Removed.", jsonContent(object(["id": ["type": "integer", "minimum": 1], "removed": ["const": true]],
                                                                    required: ["id", "removed"]))),
                        errors: [400, 401, 403, 404, 415, 421, 422, 500, 503])),
                ]))),
            ("/drawings/{name}/review.png", withPath(["DrawingName"], getAndHead(
                id: "getReviewImage", summary: "The drawing with its regions and numbered markers, drawn by the renderer.",
                parameters: [
                    queryParameter("around", "Crop around this marker number.", ["type": "integer", "minimum": 1, "maximum": .integer(Int.max)]),
                    queryParameter("margin", "Crop margin in pixels; only with around (default 200).",
                                   ["type": "integer", "minimum": 0, "maximum": 100_000]),
                    queryParameter("scale", "Output size over full size, in (0, 1].", ["type": "number", "exclusiveMinimum": 0, "maximum": 1]),
                    queryParameter("legend", "Draw the legend.", ["type": "boolean"]),
                    queryParameter(
                        "markerSize",
                        "Pin diameter in output pixels; by default 2% of the image's shorter side, at least 20 (labels and legend follow it).",
                        ["type": "number", "exclusiveMinimum": 0, "maximum": 10_000]),
                    queryParameter(
                        "status", "Only markers with any of these statuses (comma-separated; all, the default, for every status).",
                        ["type": "string", "pattern": .string("^(all|(" + statusList + ")?)$")]),
                ] + filterParameters.dropFirst(),
                success: ok("The PNG.", pngContent), errors: [404, 422]))),
            ("/drawings/{name}/report.pdf", withPath(["DrawingName"], getAndHead(
                id: "getReport",
                summary: "The punch-list report as a PDF: page 1 with the counts, the whole sheet, its legend and a table of contents; then a card per marker that never splits across pages (a crop of its room, its fields, who raised it, its photos, its last history entries and comments); the photos full size; a sign-off block when asked for. Every page says Page N of M.",
                parameters: [
                    queryParameter(
                        "status", "Only markers with any of these statuses (comma-separated; all, the default, for every status).",
                        ["type": "string", "pattern": .string("^(all|(" + statusList + ")?)$")]),
                ] + filterParameters.dropFirst() + [
                    queryParameter("groupBy", "Group the markers by room (the first covering each), assignee or status.",
                                   enumeration(["room", "assignee", "status"])),
                    queryParameter("paper", "Page size (default a4).", enumeration(["a4", "letter"])),
                    queryParameter("signOff", "Someone who signs the report off, \"Name\" or \"Name, Role\"; repeat it for each (in order). The report ends with their names and lines for the date and signature.",
                                   ["type": "array", "items": ["type": "string", "minLength": 1]]),
                ],
                success: ok("The PDF (streamed: chunked beyond its first 256 KiB).", pdfContent), errors: [404]))),
            ("/drawings/{name}/issues.bcf", withPath(["DrawingName"], getAndHead(
                id: "getBCF",
                summary: "The markers as a BCF file (buildingSMART BCF-XML, a zip) for BIM tools: one topic per marker the filters take and the signed-in user may see, with its fields, comments and status changes, a snapshot around its pin, a reference to the drawing and its position (docs/bcf.md). The same bytes as `planmark export NAME --format bcf` but for the times of day of the zip's entries.",
                parameters: [
                    queryParameter("version", "BCF-XML version (default 2.1).", enumeration(["2.1", "3.0"])),
                    queryParameter("baseUrl", "The review page's address: each topic's document reference links to its marker there.",
                                   ["type": "string", "pattern": "^https?://"]),
                    queryParameter(
                        "status", "Only markers with any of these statuses (comma-separated; all, the default, for every status).",
                        ["type": "string", "pattern": .string("^(all|(" + statusList + ")?)$")]),
                ] + filterParameters.dropFirst(),
                success: ok("The BCF file.", zipContent), errors: [404, 422]))),
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
    static func operation(id: String, summary: String, parameters: [Doc] = [], body: Doc? = nil, rawBody: [String] = [], security: Bool = true,
                          storeAccess: Bool = true, success: [(String, Doc)], errors: some Sequence<Int>, bodies: Bool = true,
                          codes: [Int: [String]] = [:]) -> Doc {
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
        if !rawBody.isEmpty {
            fields.append(("requestBody", [
                "required": true,
                "description": "The file's bytes as they are.",
                "content": .object(rawBody.map { ($0, ["schema": ["type": "string", "contentMediaType": .string($0)]]) }),
            ]))
        }
        var responses = success
        var errors = Set(errors)
        if security { errors.insert(429) }
        for status in errors.sorted() {
            guard let error = errorResponses.first(where: { $0.status == status }) else { continue }
            if let codes = codes[status] {
                // The codes this operation can answer with this status, as the schema's enum.
                let schema = object(["error": object(["code": enumeration(codes), "message": ["type": "string"]], required: ["code", "message"])],
                                    required: ["error"])
                responses.append((String(status), response(error.description + " This operation's codes: " + codes.joined(separator: ", ") + ".",
                                                           content: bodies ? jsonContent(schema) : nil, headers: error.headers)))
                continue
            }
            responses.append((String(status), bodies ? ["$ref": .string("#/components/responses/" + error.name)]
                                                     : response(error.description, headers: error.headers)))
        }
        fields.append(("responses", .object(responses)))
        return .object(fields)
    }

    /// The error answers: status, component name, description, headers.
    static let errorResponses: [(status: Int, name: String, description: String, headers: [(String, Doc)])] = [
        (400, "BadRequest", "Malformed JSON, an invalid field or parameter (the message names it), an unknown query parameter, a body that could not be read to its end, no Host header (missing-host), or more than one (duplicate-host); an author (body or query) that is not the signed-in user (author-mismatch).", []),
        (401, "Unauthorized", "Missing or wrong bearer token.", [("WWW-Authenticate", header())]),
        (429, "TooManySignIns", "Too many failed sign-ins from this address within a minute (too-many-sign-ins): every request from it is refused until the minute is over.", [("Retry-After", header("Seconds to wait.", ["type": "string", "pattern": "^[0-9]+$"]))]),
        (403, "ForbiddenOrigin", "A write from a page on another origin (an Origin header that is neither the server's nor --cors-origin: forbidden-origin); or an action the signed-in user's role may not take on what it touches (forbidden, naming the role and the action; docs/team.md).", []),
        (404, "NotFound", "Unknown drawing, marker, attachment or endpoint; for a signed-in user also a drawing of a project where they have no role, and for a subcontractor a marker not assigned to them.", []),
        (409, "Conflict", "Refused by the store's state: a status change the workflow does not allow (code transition-refused, naming the current and the requested status) or ready to open without a reason (reason-required); a uuid stored already with other content (uuid-conflict) or of the store's own form for a number not given yet (uuid-not-issued); a drawing name taken (name-taken); a drawing removal while it has markers without force=true (drawing-has-markers).", []),
        (412, "VersionConflict", "If-Match named a version the marker no longer has (version-conflict): nothing was changed; the body carries the marker as stored, and its ETag the current version.", [("ETag", header("The marker's current version, quoted."))]),
        (413, "TooLarge", "The body is over the limit (--max-body, 1 MiB by default; attachments --max-attachment, 20 MiB by default, checked from Content-Length before the body is read, and while a chunked body arrives); for /validate also more region vertices (--max-vertices, default 200000) or markers (--max-markers, default 100000) than the server takes.", []),
        (415, "UnsupportedMediaType", "The body was not sent as Content-Type: application/json; for an attachment, its bytes are not a JPEG, PNG or PDF, or its declared Content-Type disagrees with them.", []),
        (421, "MisdirectedRequest", "The Host header (or the host of an absolute-form request target, which takes its place) names neither the address the server listens on nor an --allowed-host.", []),
        (422, "Refused", "The position was refused (code outside-drawing, outside-allowed-area or invalid-coordinate; review.png: marker-off-drawing); an Idempotency-Key used before for another request (idempotency-key-reused). Nothing was stored. Tiles, review.png and report.pdf: the drawing's PDF cannot be drawn (pdf-unreadable: refused, or the PDF renderer crashed on it).", []),
        (500, "ServerError", "The store or the drawing's image failed (details in the server log only).", []),
        (503, "Unavailable", "The store stayed locked past the busy timeout (store-busy); the database is unreachable (store-unavailable); the SQLite store file or its WAL was removed or replaced while the server ran (store-replaced: nothing was changed; the server must be restarted on the new file); /validate is at its concurrency limit (too-many-validations); review.png, report.pdf and tiles: as many images, reports and tile pyramids run and wait as --max-heavy-jobs and --heavy-queue allow (server-busy); the request was cancelled because the server is stopping (request-cancelled). Retry after Retry-After seconds.", [("Retry-After", header("Seconds to wait.", ["type": "string", "pattern": "^[0-9]+$"]))]),
        (504, "GatewayTimeout", "Tiles, review.png and report.pdf: the drawing's PDF took longer than the server's --pdf-time-limit to draw (pdf-timed-out); the renderer was stopped (tiles: and the drawing's tiles are refused so until the server restarts).", []),
    ]

    // MARK: Schemas

    static var schemas: [(String, Doc)] {
        [
            ("Error", object(["error": object(["code": ["type": "string"], "message": ["type": "string"]], required: ["code", "message"])],
                             required: ["error"])),
            ("VersionConflict", object(["error": object(["code": ["const": "version-conflict"], "message": ["type": "string"]], required: ["code", "message"]),
                                        "marker": ref("Marker")], required: ["error", "marker"])),
            ("Change", object([
                "cursor": ["type": "integer", "minimum": 1], "drawing": ["type": "string"],
                "kind": enumeration(ChangeKind.allCases.map(\.rawValue)),
                "number": ["type": ["integer", "null"], "description": "The marker's number (upsert, remove); null for a drawing's change."],
                "uuid": ["type": ["string", "null"], "description": "The marker's uuid (upsert, remove)."],
                "marker": ["oneOf": [ref("Marker"), ["type": "null"]], "description": "The marker as it is now (upsert); null otherwise."],
            ], required: ["cursor", "drawing", "kind", "number", "uuid", "marker"])),
            ("ChangePage", object([
                "changes": ["type": "array", "items": ref("Change")],
                "next": ["type": "integer", "minimum": 0, "description": "The cursor to ask from next (since)."],
                "more": ["type": "boolean", "description": "More changes followed this page when it was read."],
            ], required: ["changes", "next", "more"])),
            ("LatLngPair", pair(description: "[lat, lng]")),
            ("Drawing", object([
                "name": ["type": "string"], "width": ["type": "integer"], "height": ["type": "integer"], "zoom": ["type": "number"],
                "crs": enumeration(["leaflet", "flutter"]), "singleMarker": ["type": "boolean"],
                "project": ["type": "string", "description": "The project the drawing belongs to (`planmark drawing add --project`; else `default`)."],
                "markers": ["type": "integer", "description": "Markers stored (removed ones excluded)."],
                "regions": ["type": "integer"], "nextNumber": ["type": "integer", "minimum": 1], "createdAt": dateTime,
                "revision": ["type": "integer", "minimum": 1, "description": "The current revision of the sheet (see /drawings/{name}/revisions)."],
                "image": ["type": "string", "description": "URL path of the PNG (the CLI's `drawing show` gives the file it was added from)."],
                "sha256": ["type": "string", "description": "SHA-256 of the PNG's bytes, also its ETag."],
                "bounds": object(["southWest": ref("LatLngPair"), "northEast": ref("LatLngPair")], required: ["southWest", "northEast"],
                                 description: "Image overlay bounds at the drawing's zoom in its CRS flavour."),
                "metresPerPixel": ["type": "number", "exclusiveMinimum": 0,
                                   "description": "The drawing's scale (`planmark drawing calibrate`), in full: a factor to multiply by, derived exactly from the calibration's decimals (1:100 at 254 dpi is 0.01); absent until it is calibrated."],
                "calibration": ["type": "object", "description": """
                    How the scale was set; absent with metresPerPixel: {"method":"two-points","from":[x,y],"to":[x,y],"distance":D,"unit":"m"|"mm"|"ft"} \
                    or {"method":"paper-scale","scale":"1:100","dpi":300}.
                    """],
                "tiles": object([
                    "template": ["type": "string", "description": "The TileLayer URL template: /drawings/NAME/tiles/{z}/{x}/{y}.png?v=KEY, KEY the image's SHA256 (a PDF drawing: SHA256-pPAGE-DPI)."],
                    "minZoom": ["type": "integer", "description": "The level at which the whole drawing fits in one tile."],
                    "maxZoom": ["type": "integer", "description": "The highest level served: floor(zoom), the full-resolution level, for a PNG drawing (clients over-zoom with maxNativeZoom); floor(zoom) + 2 for a PDF drawing, whose two top levels are drawn from the page's vectors (at 2 and 4 times its dpi)."],
                    "tileSize": ["const": 256],
                    "progress": ["type": "number", "minimum": 0, "maximum": 1,
                                 "description": "GET /drawings/{name} only: how much of the pyramid is made (to the hundredth, 1 once it is on disk). A big sheet's pyramid is made in the background from this request on; its tiles are served meanwhile, each made alone."],
                ], required: ["template", "minZoom", "maxZoom", "tileSize"], closed: true,
                   description: "The drawing's tile pyramid (the service's JSON only; the CLI's has none)."),
                "pdf": pdfSource,
            ], required: ["name", "width", "height", "zoom", "crs", "project", "markers", "bounds"])),
            ("NewMarker", object(positionFields + [("note", nullableString), ("author", nullableString)] + punchItemFields + [
                ("uuid", ["type": ["string", "null"], "pattern": .string(uuidPattern),
                          "description": "The client's identifier (RFC 4122 text, any case; kept in lower case); the server makes one when none is given. Unique in the store: resending the same item is answered 200, other content under the same uuid 409."]),
                ("status", nullableEnumeration(statusWords, "The status it starts in (default open); " + MarkerStatus.closedFormerly + " is closed.")),
                ("priority", nullableEnumeration(priorityNames, "Default normal.")),
                ("due", nullableDate),
                ("capturedAt", ["type": ["string", "null"], "format": "date-time", "description": "The client's time of capture, RFC 3339 with an offset, kept as sent."]),
            ], closed: true, description: "x and y in pixels, or lat and lng at zoom (default: the drawing's zoom). null is the same as leaving a field out.")
                .adding("oneOf", [pixelPosition, latLngPosition])),
            ("MarkerChange", object(positionFields + punchItemFields + [
                ("status", ["enum": .array(statusWords.map(Doc.string)),
                            "description": .string("As the workflow allows (GET /vocabulary): " + workflowWords + ". \(MarkerStatus.closedFormerly) is closed. Anything else is 409 transition-refused.")]),
                ("reason", ["type": "string", "description": "Why the status changes; required from ready to open; kept in the history."]),
                ("priority", enumeration(priorityNames)),
                ("due", nullableDate),
                ("note", nullableString), ("author", nullableString),
            ], closed: true, description: "At least one of a position (x and y, or lat and lng with optional zoom), status, note, category, priority, assignee or due; applied all at once or not at all. null clears note, category, assignee and due.")
                .adding("anyOf", .array([pixelPosition, latLngPosition] + ["status", "note", "category", "priority", "assignee", "due"].map { ["required": [.string($0)]] }))
                .adding("dependentRequired", positionDependencies.adding("reason", ["status"]))
                .adding("not", bothPositionKinds)),
            ("Marker", object([
                "number": ["type": "integer", "minimum": 1], "x": ["type": "number"], "y": ["type": "number"],
                "lat": ["type": "number", "description": "When the request used latLng (or gave zoom): at that zoom."], "lng": ["type": "number"],
                "status": enumeration(statusNames), "rooms": ["type": "array", "items": ["type": "string"]],
                "note": ["type": ["string", "null"]], "author": ["type": ["string", "null"]], "createdAt": dateTime, "updatedAt": dateTime,
                "uuid": ["type": "string", "pattern": .string(uuidPattern)], "id": ["type": ["string", "null"], "description": "The markers file's id (ref), when imported."],
                "category": nullableString, "priority": enumeration(priorityNames), "assignee": nullableString,
                "due": nullableDate, "capturedAt": ["type": ["string", "null"], "format": "date-time"],
                "overdue": ["type": "boolean", "description": "Due before today (UTC) and not closed or void."],
                "needsPlacement": ["type": ["string", "null"],
                                   "description": "Why a marker carried to a new revision of the sheet needs placing again (outside-drawing, outside-allowed-area, outside-rooms); null when placed. Moving the marker clears it."],
                "version": ["type": "integer", "minimum": 1,
                            "description": "1 when created, one more with every change (fields, position, status, rooms, revision, comments, attachments). The marker's ETag is \"VERSION\"; PATCH and DELETE with If-Match: \"VERSION\" change nothing unless it is current (412 version-conflict)."],
            ], required: ["number", "x", "y", "status", "rooms", "version"])),
            ("Revision", object([
                "number": ["type": "integer", "minimum": 1], "sha256": ["type": "string", "pattern": "^[0-9a-f]{64}$"],
                "width": ["type": "integer", "minimum": 1], "height": ["type": "integer", "minimum": 1], "createdAt": dateTime,
                "author": nullableString,
                "transform": ["type": ["object", "null"], "description": "From the previous revision's pixels: x' = a x + b y + c, y' = d x + e y + f; null for revision 1.",
                              "properties": ["a": ["type": "number"], "b": ["type": "number"], "c": ["type": "number"],
                                             "d": ["type": "number"], "e": ["type": "number"], "f": ["type": "number"]]],
                "maxResidual": ["type": ["number", "null"], "description": "The alignment's largest residual in pixels; null for revision 1."],
                "pdf": pdfSource,
            ], required: ["number", "sha256", "width", "height", "createdAt", "transform"])),
            ("Comment", object([
                "id": ["type": "integer", "minimum": 1], "author": nullableString, "createdAt": dateTime,
                "text": ["type": "string", "minLength": 1, "maxLength": .integer(Comment.maxLength)],
            ], required: ["id", "author", "createdAt", "text"])),
            ("Attachment", object([
                "id": ["type": "integer", "minimum": 1], "sha256": ["type": "string", "pattern": "^[0-9a-f]{64}$"],
                "size": ["type": "integer", "minimum": 0], "contentType": enumeration(["image/jpeg", "image/png", "application/pdf"]),
                "caption": nullableString,
            ], required: ["id", "sha256", "size", "contentType", "caption"])),
            ("Summary", object([
                "drawing": ["type": "string"], "total": count,
                "byStatus": object(statusNames.map { ($0, count) }, required: statusNames),
                "byPriority": object(priorityNames.map { ($0, count) }, required: priorityNames),
                "byRoom": ["type": "object", "additionalProperties": count, "description": "A marker on a shared wall counts for both rooms."],
                "withoutRoom": count,
                "byAssignee": ["type": "object", "additionalProperties": count],
                "unassigned": count, "overdue": count,
                "filters": ["type": ["string", "null"], "description": "The filters as the review legend states them; null without filters."],
            ], required: ["drawing", "total", "byStatus", "byPriority", "byRoom", "withoutRoom", "byAssignee", "unassigned", "overdue", "filters"])),
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
                    "action": enumeration(HistoryAction.allCases.map(\.rawValue)), "at": dateTime,
                    "author": ["type": ["string", "null"]], "old": ["type": ["object", "null"]], "new": ["type": ["object", "null"]],
                ], required: ["action", "at"])],
            ], required: ["drawing", "number", "history"])),
            ("RegionCollection", object([
                "type": ["const": "FeatureCollection"],
                "features": ["type": "array", "items": object([
                    "type": ["const": "Feature"], "id": ["type": ["string", "number", "null"]],
                    "properties": ["description": "Read when an object: id, kind, name, labelBox. Written for a calibrated drawing: area, perimeter, areaExact and perimeterExact.", "properties": [
                        "id": ["type": ["string", "number", "null"]], "kind": ["enum": ["room", "allowed", nil]], "name": ["type": ["string", "null"]],
                        "labelBox": ["type": ["array", "null"], "items": ["type": "number"], "minItems": 4, "maxItems": 4,
                                     "description": "Where the drawing prints the room's label: [minX, minY, maxX, maxY] in pixels, or in [lng, lat] at a zoom; review images keep pins off it."],
                        "area": ["type": "number", "description": "Square metres, holes subtracted, rounded to 0.01 m² half away from zero (docs/geometry.md); absent when the drawing has no scale."],
                        "perimeter": ["type": "number", "description": "Metres, every ring (holes included), rounded to 0.001 m half away from zero; absent when the drawing has no scale."],
                        "areaExact": ["type": "number", "description": "The area unrounded (the full double); absent when the drawing has no scale."],
                        "perimeterExact": ["type": "number", "description": "The perimeter unrounded (the full double); absent when the drawing has no scale."],
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
                "regions": ["oneOf": [ref("RegionCollection"), object([
                    "shapes": ["type": "array", "items": ["type": "object"]], "imageWidth": ["type": "integer", "minimum": 1],
                    "imageHeight": ["type": "integer", "minimum": 1],
                ], required: ["shapes", "imageWidth", "imageHeight"],
                   description: "A LabelMe file: polygon and rectangle shapes become rooms (allowed areas when the label starts with allowed); its image size must equal size, and is the size when size is absent.")]],
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

    /// The filter parameters of marker listings, summaries and review images.
    static var filterParameters: [Doc] {
        ["Status", "Category", "Assignee", "Priority", "Room", "Overdue", "Search", "NeedsPlacement"].map(parameterRef)
    }

    /// A comma-separated list of statuses (empty: any).
    static let statusList = list(statusWords)
    static let statusListPattern = "^(" + statusList + ")?$"
    /// The statuses, in workflow order.
    static let statusNames = MarkerStatus.allCases.map(\.rawValue)
    /// The statuses and the word older clients send for closed (`resolved`).
    static let statusWords = statusNames + [MarkerStatus.closedFormerly]
    /// The priorities, lowest first.
    static let priorityNames = MarkerPriority.allCases.map(\.rawValue)
    /// The workflow in words: "open to in-progress, ready, closed, void; ...; ready to closed, open (a reason is
    /// required), void; ...".
    static let workflowWords = MarkerStatus.allCases.map { from in
        from.rawValue + " to " + from.next.map { $0.rawValue + (from.needsReason(toChangeTo: $0) ? " (a reason is required)" : "") }.joined(separator: ", ")
    }.joined(separator: "; ")

    /// A regular expression for a comma-separated list of `words` (one at least).
    static func list(_ words: [String]) -> String {
        let one = "(" + words.joined(separator: "|") + ")"
        return one + "(," + one + ")*"
    }
    /// RFC 4122 text.
    static let uuidPattern = "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$"
    static let nullableString: Doc = ["type": ["string", "null"]]
    static let nullableDate: Doc = ["type": ["string", "null"], "format": "date", "description": "YYYY-MM-DD."]
    static let count: Doc = ["type": "integer", "minimum": 0]
    /// category and assignee, shared by new markers and changes.
    static var punchItemFields: [(String, Doc)] {
        [("category", ["type": ["string", "null"], "maxLength": 100, "description": "Free text, at most 100 characters."]),
         ("assignee", ["type": ["string", "null"], "description": "Who it is assigned to (free text)."])]
    }
    /// The headers of an attachment's bytes.
    static var attachmentHeaders: [(String, Doc)] {
        [("ETag", header("The bytes' SHA-256, quoted.")), ("Cache-Control", header()), ("X-Content-Type-Options", header("nosniff.")),
         ("Content-Disposition", header("attachment, for a PDF."))]
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
    /// A drawing's or revision's `pdf`: the page of a PDF its image is (`PDFSourceJSON`).
    static let pdfSource: Doc = object([
        "page": ["type": "integer", "minimum": 1, "description": "The page, counted from 1."],
        "dpi": ["type": "integer", "minimum": .integer(PDFSource.dpiRange.lowerBound), "maximum": .integer(PDFSource.dpiRange.upperBound),
                "description": "The resolution the page is drawn at; width and height are the page's size in pixels at it."],
    ], required: ["page", "dpi"], closed: true,
       description: "Present only when the image is a page of a PDF (its bytes are the whole PDF); absent for a PNG.")
    /// The Prometheus text exposition format.
    static let prometheusContent: Doc = ["text/plain; version=0.0.4": ["schema": ["type": "string"]]]
    static let pngContent: Doc = ["image/png": ["schema": ["type": "string", "contentMediaType": "image/png"]]]
    static let pngOrPDFContent: Doc = ["image/png": ["schema": ["type": "string", "contentMediaType": "image/png"]],
                                       "application/pdf": ["schema": ["type": "string", "contentMediaType": "application/pdf"]]]
    static let pdfContent: Doc = ["application/pdf": ["schema": ["type": "string", "contentMediaType": "application/pdf"]]]
    static let zipContent: Doc = ["application/zip": ["schema": ["type": "string", "contentMediaType": "application/zip"]]]
    static let geoJSONContent: Doc = ["application/geo+json": ["schema": ref("FeatureCollection")]]

    // MARK: Helpers

    static func ref(_ schema: String) -> Doc { ["$ref": .string("#/components/schemas/" + schema)] }
    static func parameterRef(_ name: String) -> Doc { ["$ref": .string("#/components/parameters/" + name)] }
    static func jsonContent(_ schema: Doc) -> Doc { ["application/json": ["schema": schema]] }
    /// The codes of `TeamPermission`, as `GET /me` gives them.
    static let permissionCodes = [TeamPermission.always, .onTheirMarkers, .never].map(\.code)

    static func enumeration(_ values: [String]) -> Doc { ["type": "string", "enum": .array(values.map(Doc.string))] }

    /// One of `values`, or null.
    static func nullableEnumeration(_ values: [String], _ description: String) -> Doc {
        let choices: [Doc] = values.map(Doc.string) + [.null]
        return ["enum": .array(choices), "description": .string(description)]
    }

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

    /// `If-Match: "VERSION"` on a marker's PATCH and DELETE.
    static let ifMatchParameter: Doc = [
        "name": "If-Match", "in": "header", "required": false, "schema": ["type": "string"],
        "description": "The marker's version as last seen, quoted (\"3\", its ETag): the change is made only if it is still current, else 412 version-conflict. * or no header: the last write wins.",
    ]

    /// `Idempotency-Key` on the writes a client may send again.
    static let idempotencyKeyParameter: Doc = [
        "name": "Idempotency-Key", "in": "header", "required": false,
        "schema": ["type": "string", "minLength": 1, "maxLength": .integer(IdempotentWrite.maxKeyLength), "pattern": "^[!-~]+$"],
        "description": "A key the client makes for this request (a UUID, say): sent again with the same request, the first answer is answered again (with Idempotent-Replayed: true) and nothing changes; with another request, 422 idempotency-key-reused. Keys are kept 24 hours, per user.",
    ]

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
