import Foundation
import Hummingbird
import PlanMarkExport
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore

/// The service's endpoints over one store. Each handler reads its input, awaits the store (which works on its
/// own queues or event loops), and writes JSON (or PNG).
struct PlanMarkRoutes: Sendable {
    /// The store.
    let store: StoreAccess
    /// Reads JSON bodies within their limit.
    let bodies: RequestBodyReader
    /// Reads attachment bodies within theirs.
    let attachmentBodies: RequestBodyReader
    /// Draws review images.
    let review: ReviewImageService
    /// Validates batches of markers within the configured bounds.
    let validate: ValidateEndpoint
    /// Serves tiles from the pyramid cache.
    let tiles: TileEndpoint
    /// This server's metrics, which `GET /metrics` renders.
    let metrics: ServerMetrics
    /// Recent marker listings by what they were made from.
    let markerLists: MarkerListCache
    /// The server's event streams.
    let hub: ChangeHub

    /// Every path and its methods, as `add(to:)` registers them (HEAD is added wherever GET is;
    /// the router answers it with the GET handler's headers and no body).
    static let table: RouteTable = {
        let get: [HTTPRequest.Method] = [.get]
        let routes: [(String, [HTTPRequest.Method])] = [
            ("/health", get), ("/vocabulary", get), ("/me", get), ("/openapi.json", get), ("/metrics", get), ("/validate", [.post]), ("/drawings", get), ("/changes", get),
            ("/drawings/:name", [.get, .patch, .delete]), ("/drawings/:name/image", get), ("/drawings/:name/regions", get),
            ("/drawings/:name/review.png", get), ("/drawings/:name/summary", get), ("/drawings/:name/markers", [.get, .post]),
            ("/drawings/:name/markers/:number", [.get, .patch, .delete]), ("/drawings/:name/markers/:number/history", get),
            ("/drawings/:name/markers/:number/comments", [.get, .post]),
            ("/drawings/:name/markers/:number/attachments", [.get, .post]),
            ("/drawings/:name/markers/:number/attachments/:id", [.get, .delete]),
            ("/drawings/:name/tiles/:z/:x/:y.png", get),
            ("/drawings/:name/revisions", get),
            ("/drawings/:name/report.pdf", get),
            ("/drawings/:name/issues.bcf", get),
            ("/drawings/:name/events", get),
        ]
        return RouteTable(routes)
    }()

    /// `GET /vocabulary`'s answer, made once (`MarkerVocabulary.current`).
    static let vocabulary = Array(JSONDocument.line(MarkerVocabulary.current).utf8)

    /// Adds every endpoint to `router`.
    func add(to router: Router<PlanMarkRequestContext>) {
        router.get("/health") { _, _ in JSONResponse.make(JSONDocument.line(["status": "ok"])) }
        router.get("/vocabulary") { _, _ in JSONResponse.make(Self.vocabulary) }
        router.get("/me") { request, context in try await me(request, identity: context.identity) }
        router.get("/openapi.json") { _, _ in JSONResponse.make(OpenAPIDocument.json) }
        router.get("/metrics") { request, _ in try metricsText(request) }
        router.post("/validate") { request, _ in try await validate.respond(to: request, bodies: bodies) }
        router.get("/drawings") { request, context in try await listDrawings(request, gate: gate(context)) }
        router.get("/changes") { request, context in try await changes(request, gate: gate(context)) }
        router.get("/drawings/:name/events") { request, context in try await events(request, name: try Self.name(context), gate: gate(context)) }
        router.get("/drawings/:name") { request, context in
            let name = try Self.name(context)
            return try await showDrawing(request, name: name, visibleTo: try await gate(context).visibleAssignees(on: name))
        }
        router.patch("/drawings/:name") { request, context in
            let name = try Self.name(context)
            try await gate(context).require(.manageDrawings, on: name)
            return try await renameDrawing(request, name: name)
        }
        router.delete("/drawings/:name") { request, context in
            let name = try Self.name(context)
            try await gate(context).require(.manageDrawings, on: name)
            return try await removeDrawing(request, name: name)
        }
        router.get("/drawings/:name/summary") { request, context in
            let name = try Self.name(context)
            return try await summary(request, name: name, visibleTo: try await gate(context).visibleAssignees(on: name))
        }
        router.get("/drawings/:name/image") { request, context in
            let name = try Self.name(context)
            try await gate(context).require(.readDrawings, on: name)
            return try await image(request, name: name)
        }
        router.get("/drawings/:name/regions") { request, context in
            let name = try Self.name(context)
            try await gate(context).require(.readDrawings, on: name)
            return try await regions(request, name: name)
        }
        router.get("/drawings/:name/revisions") { request, context in
            let name = try Self.name(context)
            try await gate(context).require(.readDrawings, on: name)
            return try await revisions(request, name: name)
        }
        router.get("/drawings/:name/review.png") { request, context in
            let name = try Self.name(context)
            let visible = try await gate(context).visibleAssignees(on: name)
            return try await review.respond(to: request, name: name, store: store, visibleTo: visible)
        }
        router.get("/drawings/:name/report.pdf") { request, context in
            let name = try Self.name(context)
            let visible = try await gate(context).visibleAssignees(on: name)
            return try await ReportEndpoint.respond(to: request, name: name, store: store, heavy: review.heavy, visibleTo: visible, logger: context.logger)
        }
        router.get("/drawings/:name/issues.bcf") { request, context in
            let name = try Self.name(context)
            let visible = try await gate(context).visibleAssignees(on: name)
            return try await BCFEndpoint.respond(to: request, name: name, store: store, heavy: review.heavy, visibleTo: visible)
        }
        router.get("/drawings/:name/tiles/:z/:x/{y}.png") { request, context in
            let name = try Self.name(context)
            try await gate(context).require(.readDrawings, on: name)
            return try await tiles.respond(to: request, name: name, context: context, store: store)
        }
        router.get("/drawings/:name/markers") { request, context in
            let name = try Self.name(context)
            return try await markers(request, name: name, visibleTo: try await gate(context).visibleAssignees(on: name))
        }
        router.post("/drawings/:name/markers") { request, context in
            let name = try Self.name(context)
            try await gate(context).require(.placeMarker, on: name)
            return try await addMarker(request, name: name, identity: context.identity)
        }
        router.get("/drawings/:name/markers/:number") { request, context in
            let (name, number) = (try Self.name(context), try Self.number(context))
            try await gate(context).require(.readMarkers, on: name, marker: number)
            return try await marker(request, name: name, number: number)
        }
        router.patch("/drawings/:name/markers/:number") { request, context in
            try await changeMarker(request, name: try Self.name(context), number: try Self.number(context), identity: context.identity,
                                   gate: gate(context))
        }
        router.delete("/drawings/:name/markers/:number") { request, context in
            let (name, number) = (try Self.name(context), try Self.number(context))
            try await gate(context).require(.deleteMarker, on: name, marker: number)
            return try await removeMarker(request, name: name, number: number, identity: context.identity)
        }
        router.get("/drawings/:name/markers/:number/history") { request, context in
            let (name, number) = (try Self.name(context), try Self.number(context))
            try await gate(context).require(.readMarkers, on: name, marker: number)
            return try await history(request, name: name, number: number)
        }
        router.post("/drawings/:name/markers/:number/comments") { request, context in
            let (name, number) = (try Self.name(context), try Self.number(context))
            try await gate(context).require(.commentOrAttach, on: name, marker: number)
            return try await addComment(request, name: name, number: number, identity: context.identity)
        }
        router.get("/drawings/:name/markers/:number/comments") { request, context in
            let (name, number) = (try Self.name(context), try Self.number(context))
            try await gate(context).require(.readMarkers, on: name, marker: number)
            return try await comments(request, name: name, number: number)
        }
        router.post("/drawings/:name/markers/:number/attachments") { request, context in
            let (name, number) = (try Self.name(context), try Self.number(context))
            try await gate(context).require(.commentOrAttach, on: name, marker: number)
            return try await attach(request, name: name, number: number, identity: context.identity)
        }
        router.get("/drawings/:name/markers/:number/attachments") { request, context in
            let (name, number) = (try Self.name(context), try Self.number(context))
            try await gate(context).require(.readMarkers, on: name, marker: number)
            return try await attachments(request, name: name, number: number)
        }
        router.get("/drawings/:name/markers/:number/attachments/:id") { request, context in
            let (name, number) = (try Self.name(context), try Self.number(context))
            try await gate(context).require(.readMarkers, on: name, marker: number)
            return try await attachment(request, name: name, number: number, id: try Self.attachmentID(context))
        }
        router.delete("/drawings/:name/markers/:number/attachments/:id") { request, context in
            let (name, number) = (try Self.name(context), try Self.number(context))
            try await gate(context).require(.commentOrAttach, on: name, marker: number)
            return try await detach(request, name: name, number: number, id: try Self.attachmentID(context), identity: context.identity)
        }
    }

    // MARK: Who is signed in

    /// `GET /me`: the signed-in user, `{"name","email","company","projects":[{"name","role","permissions"}]}` (projects
    /// by name; `permissions` maps each `TeamAction.code` to the role's `TeamPermission.code`, so that a client need not
    /// copy the role table); for the operator (the server's token, or anyone while the store has no users) every field is
    /// null, `projects` is empty and `"operator":true` is added: the operator may do everything.
    func me(_ request: Request, identity: Identity) async throws -> Response {
        try QueryParameters(request).onlyKeys([])
        let me: Me
        switch identity {
        case .operator:
            me = Me(name: nil, email: nil, company: nil, projects: [], operator: true)
        case .user(let signedIn):
            me = Me(name: signedIn.user.name, email: signedIn.user.email, company: signedIn.user.company,
                    projects: signedIn.roles.compactMap { id, role in signedIn.projectNames[id].map { Me.Role(name: $0, role: role.rawValue, permissions: role.permissionCodes) } }
                        .sorted { $0.name < $1.name }, operator: nil)
        }
        return JSONResponse.make(JSONDocument.line(me), extraHeaders: [.cacheControl: "no-store"])
    }

    /// The shape of `GET /me`.
    struct Me: Encodable {
        struct Role: Encodable { var name: String; var role: String; var permissions: [String: String] }
        var name: String?
        var email: String?
        var company: String?
        var projects: [Role]
        var `operator`: Bool?

        enum CodingKeys: String, CodingKey { case name, email, company, projects, `operator` }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(email, forKey: .email)
            try container.encode(company, forKey: .company)
            try container.encode(projects, forKey: .projects)
            try container.encodeIfPresent(`operator`, forKey: .operator)
        }
    }

    // MARK: Metrics

    /// `GET /metrics`: this server's metrics in the Prometheus text format (version 0.0.4), never cached.
    func metricsText(_ request: Request) throws -> Response {
        try QueryParameters(request).onlyKeys([])
        return Response(status: .ok, headers: [.contentType: ServerMetrics.contentType, .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.render(connections: store.store.connectionUsage))))
    }

    // MARK: Path parameters

    /// The drawing name from the path, percent-decoded. It is only ever looked up in the store.
    static func name(_ context: some RequestContext) throws(APIError) -> String {
        guard let raw = context.parameters.get("name"), let name = PathComponent.decode(raw), !name.isEmpty else {
            throw .invalidField("name", "not a valid drawing name")
        }
        return name
    }

    /// The marker number from the path.
    static func number(_ context: some RequestContext) throws(APIError) -> Int {
        guard let raw = context.parameters.get("number"), let number = Int(raw), number >= 1 else {
            throw .invalidField("number", "expected a marker number (a whole number >= 1)")
        }
        return number
    }

    /// The attachment id from the path.
    static func attachmentID(_ context: some RequestContext) throws(APIError) -> Int64 {
        guard let raw = context.parameters.get("id"), let id = Int64(raw), id >= 1 else {
            throw .invalidField("id", "expected an attachment id (a whole number >= 1)")
        }
        return id
    }

    /// The URL path of a marker.
    static func markerPath(_ name: String, _ number: Int) -> String {
        "/drawings/" + PathComponent.encode(name) + "/markers/\(number)"
    }

    // MARK: Drawings

    /// The URL path of a drawing's PNG, the `image` of its JSON (the service never names a server file).
    static func imagePath(_ drawing: Drawing) -> String {
        "/drawings/" + PathComponent.encode(drawing.name) + "/image"
    }

    /// The URL template of a drawing's tiles, keyed to its image by `v` (its tile key: the image's SHA-256, and for a
    /// page of a PDF its page and dpi, `<sha256>-p<page>-<dpi>`): the `tiles.template` of its JSON.
    static func tilesTemplate(_ drawing: Drawing) -> String {
        "/drawings/" + PathComponent.encode(drawing.name) + "/tiles/{z}/{x}/{y}.png?v=" + drawing.tileKey.name
    }

    /// How many markers of drawing `name` are assigned to one of `visible`.
    /// - Complexity: O(n) for the drawing's n markers.
    func visibleCount(of name: String, visibleTo visible: [String]) async throws -> Int {
        var filter = MarkerFilter()
        filter.assignedToAnyOf = visible
        return try await store.run("summary") { store throws(StoreError) in try await store.summary(of: name, filter: filter).total }
    }

    /// The gate of the request `context` carries.
    func gate(_ context: PlanMarkRequestContext) -> Gate { Gate(identity: context.identity, store: store) }

    /// Every drawing the identity may see (a user: those of projects where they have a role).
    func listDrawings(_ request: Request, gate: Gate) async throws -> Response {
        try QueryParameters(request).onlyKeys([])
        var list = try await store.run("drawings") { store throws(StoreError) in try await store.drawings() }.filter { gate.sees(project: $0.drawing.projectID) }
        // A subcontractor's counts are of the markers they see.
        for index in list.indices {
            if let visible = gate.visibleAssignees(in: list[index].drawing.projectID) {
                list[index].markerCount = try await visibleCount(of: list[index].drawing.name, visibleTo: visible)
            }
        }
        return JSONResponse.make(DrawingJSON.list(list, image: Self.imagePath, tiles: Self.tilesTemplate))
    }

    func showDrawing(_ request: Request, name: String, visibleTo visible: [String]?) async throws -> Response {
        try QueryParameters(request).onlyKeys([])
        var summary = try await store.run("drawing") { store throws(StoreError) in try await store.drawing(named: name) }
        if let visible { summary.markerCount = try await visibleCount(of: name, visibleTo: visible) }
        let progress = await tiles.warm(summary.drawing, store: store)
        return JSONResponse.make(JSONDocument.line(DrawingJSON(summary, image: Self.imagePath(summary.drawing), tiles: Self.tilesTemplate(summary.drawing),
                                                               tilesProgress: progress)))
    }

    /// The drawing's image, exactly the bytes it was added with (kept in the store): its PNG, or for a PDF drawing the
    /// PDF (`application/pdf`; the page and dpi are in the drawing's JSON), with a strong ETag (their SHA-256).
    func image(_ request: Request, name: String) async throws -> Response {
        try QueryParameters(request).onlyKeys([])
        let etag = try await store.run("imageETag") { store throws(StoreError) in
            "\"\(try await store.drawing(named: name).drawing.imageSHA256)\""
        }
        let headers: HTTPFields = [.eTag: etag, .cacheControl: "private, max-age=3600, must-revalidate"]
        if let match = request.headers[.ifNoneMatch], match.split(separator: ",").contains(where: { $0.trimmingSpaces() == etag || $0.trimmingSpaces() == "*" }) {
            return Response(status: .notModified, headers: headers)
        }
        let image = try await store.run("image") { store throws(StoreError) in try await store.image(of: name) }
        var all = headers
        all[.eTag] = "\"\(image.sha256)\""
        all[.contentType] = image.pdf == nil ? "image/png" : "application/pdf"
        return Response(status: .ok, headers: all, body: ResponseBody(byteBuffer: ByteBuffer(bytes: image.bytes)))
    }

    /// Regions as GeoJSON: pixels, or `[lng, lat]` at `zoom` in the drawing's CRS flavour; with `area` and
    /// `perimeter` properties when the drawing is calibrated.
    func regions(_ request: Request, name: String) async throws -> Response {
        let query = try QueryParameters(request)
        try query.onlyKeys(["zoom"])
        let zoom = try query.zoom()
        let text = try await store.run("regions") { store throws(StoreError) -> String in
            let regions = try await store.regions(of: name)
            // A calibrated drawing's regions carry area (m2) and perimeter (m); others neither key.
            let drawing = try await store.drawingRecord(named: name)
            guard let zoom else { return RegionsGeoJSONWriter.featureCollection(regions, metresPerPixel: drawing.metresPerPixel) }
            let crs = SimpleCRS(drawing.crs)
            return RegionsGeoJSONWriter.featureCollection(regions, metresPerPixel: drawing.metresPerPixel) { point in
                let latLng = crs.latLng(from: point, at: zoom)
                return (latLng.lng, latLng.lat)
            }
        }
        return JSONResponse.geoJSON(Array(text.utf8))
    }

    // MARK: Markers

    /// Markers as GeoJSON: pixels, or `[lng, lat]` at `zoom`; only those the filter parameters take.
    ///
    /// The `ETag` is made of the drawing's markers version (`markersVersion(of:)`: it changes with every
    /// marker write, by this server or any other process), the drawing's name, the query's parameters and
    /// today's date (it decides `overdue`). `If-None-Match` with it answers 304 without reading a marker:
    /// what a polling client asks every second or two. The version is read before the markers, so a write
    /// in between gives a body newer than its tag (the next poll fetches again), never an older one.
    func markers(_ request: Request, name: String, visibleTo visible: [String]?) async throws -> Response {
        let query = try QueryParameters(request)
        try query.onlyKeys(QueryParameters.filterKeys.union(["zoom"]))
        let zoom = try query.zoom()
        var filter = try query.markerFilter()
        filter.assignedToAnyOf = visible
        // Who may see which markers is part of the key (a subcontractor's list is theirs alone), of the ETag's too.
        var key = name + "\n" + filter.today.text + "\n" + (visible.map { "visible=" + $0.joined(separator: "\u{0}") } ?? "all")
        for (parameter, value) in query.values.sorted(by: { $0.key < $1.key }) { key += "\n" + parameter + "=" + value }
        let queryDigest = SHA256.hexDigest(of: Array(key.utf8)).prefix(16)
        let ifNoneMatch = request.headers[.ifNoneMatch]
        let (etag, body) = try await store.run("markers") { store throws(StoreError) -> (String, ByteBuffer?) in
            let version = try await store.markersVersion(of: name)
            let etag = "\"m\(version)-\(queryDigest)\""
            if EntityTag.noneMatch(ifNoneMatch, etag) { return (etag, nil) }
            let cacheKey = MarkerListCache.Key(version: version, query: key)
            if let kept = markerLists.body(for: cacheKey) {
                metrics.markerListHits.increment()
                return (etag, kept)
            }
            metrics.markerListMisses.increment()
            var conversion: LatLngConversion?
            if let zoom { conversion = LatLngConversion(crs: SimpleCRS(try await store.drawingRecord(named: name).crs), zoom: zoom) }
            // The GeoJSON is written by a task of its own while the store reads the markers (on its own thread: for
            // PostgreSQL the event loop that decodes the rows), handed over 256 at a time: the two overlap. Measured
            // (`Benchmarks/postgres/gets-ab.sh`, 10,000 markers read from PostgreSQL): p50 34 to 39 ms against 40 to
            // 43 ms written after the read. The markers waiting for the writer are at most the drawing's, as is the
            // answer itself, which is kept whole.
            let (chunks, feed) = AsyncStream.makeStream(of: [Marker].self)
            let today = filter.today
            async let written: [UInt8] = {
                var writer = MarkerWriter(format: .geojson, conversion: conversion, drawing: name, today: today)
                for await chunk in chunks { for marker in chunk { writer.append(marker) } }
                return writer.finish()
            }()
            var chunk: [Marker] = []
            chunk.reserveCapacity(256)
            do throws(StoreError) {
                try await store.forEachMarker(in: name, filter: filter) { marker in
                    chunk.append(marker)
                    if chunk.count == 256 {
                        feed.yield(chunk)
                        chunk.removeAll(keepingCapacity: true)
                    }
                    return true
                }
            } catch {
                feed.finish()
                _ = await written
                throw error
            }
            feed.yield(chunk)
            feed.finish()
            let body = ByteBuffer(bytes: await written)
            markerLists.keep(body, for: cacheKey)
            return (etag, body)
        }
        let headers: HTTPFields = [.eTag: etag, .cacheControl: "no-cache"]
        guard let body else { return Response(status: .notModified, headers: headers) }
        return JSONResponse.make(body, contentType: "application/geo+json; charset=utf-8", extraHeaders: headers)
    }

    /// Counts of the markers the filter parameters take: by status, priority, room and assignee, and overdue.
    func summary(_ request: Request, name: String, visibleTo visible: [String]?) async throws -> Response {
        let query = try QueryParameters(request)
        try query.onlyKeys(QueryParameters.filterKeys)
        var filter = try query.markerFilter()
        filter.assignedToAnyOf = visible
        let summary = try await store.run("summary") { store throws(StoreError) in try await store.summary(of: name, filter: filter) }
        return JSONResponse.make(JSONDocument.line(SummaryJSON(summary, drawing: name, filter: filter)))
    }

    func marker(_ request: Request, name: String, number: Int) async throws -> Response {
        let query = try QueryParameters(request)
        try query.onlyKeys(["zoom"])
        let zoom = try query.zoom()
        let (text, version) = try await store.run("marker") { store throws(StoreError) -> (String, Int) in
            let marker = try await store.marker(number, in: name)
            var conversion: LatLngConversion?
            if let zoom { conversion = LatLngConversion(crs: SimpleCRS(try await store.drawingRecord(named: name).crs), zoom: zoom) }
            return (MarkerWriter.object(marker, conversion: conversion), marker.version)
        }
        return JSONResponse.make(text + "\n", extraHeaders: [.eTag: EntityTag.version(version)])
    }

    /// Validates and stores a tap with its punch-item fields; 201 with its number, or 422 with the reason and
    /// nothing stored. Idempotent by `uuid`: the same uuid with the same position and fields answers 200 with
    /// the stored marker (nothing new stored, no history entry); with other content 409.
    func addMarker(_ request: Request, name: String, identity: Identity) async throws -> Response {
        try QueryParameters(request).onlyKeys([])
        let body = try await bodies.jsonObject(of: request)
        try body.onlyKeys(MarkerFieldsInput.newMarkerKeys)
        guard let position = try MarkerPositionInput.read(body, required: true) else { throw APIError.invalidField("$", "no position") }
        let fields = try MarkerFieldsInput.newMarker(body, at: PixelPoint(x: 0, y: 0))
        let author = try identity.author(given: try body.string("author", allowNull: true))
        // A signed-in user is told that a uuid is taken, not where: it may be on a drawing they cannot see.
        let result: (MarkerCreation, LatLngConversion?)
        do {
            result = try await addMarker(fields, at: position, to: name, author: author)
        } catch {
            if error.code == "uuid-conflict", case .user = identity, let uuid = fields.uuid {
                throw APIError(.conflict, code: error.code, message: "uuid \(uuid.text) is stored already, with other content")
            }
            throw error
        }
        let (creation, conversion) = result
        return JSONResponse.make(MarkerWriter.object(creation.marker, conversion: conversion) + "\n", status: creation.created ? .created : .ok,
                                 extraHeaders: [.location: Self.markerPath(name, creation.marker.number),
                                                .eTag: EntityTag.version(creation.marker.version)])
    }

    /// Stores `fields` at `position` (pixels, or latLng converted on the drawing) as a new marker of drawing `name`.
    func addMarker(_ fields: NewMarker, at position: MarkerPositionInput, to name: String,
                   author: String?) async throws(APIError) -> (MarkerCreation, LatLngConversion?) {
        try await store.run("addMarker") {
            store throws(StoreError) -> (MarkerCreation, LatLngConversion?) in
            var new = fields
            guard position.isLatLng else {
                // Pixels need nothing from the drawing: one write transaction.
                new.position = position.pixel(on: nil)
                return (try await store.addMarker(to: name, new, author: author), nil)
            }
            let drawing = try await store.drawing(named: name).drawing
            new.position = position.pixel(on: drawing)
            let creation = try await store.addMarker(to: name, new, author: author)
            return (creation, LatLngConversion(crs: SimpleCRS(drawing.crs), zoom: position.zoom ?? drawing.zoom))
        }
    }

    /// Changes any of a marker's fields (position validated like a new marker's; status as the workflow
    /// allows, with `reason`; category, priority, assignee, due, note; null clears) in one store call: a
    /// refused or failed PATCH changes nothing and writes no history. A refused transition is 409; with `If-Match` naming
    /// a version the marker no longer has, 412 `version-conflict` with the marker as stored (nothing changed).
    func changeMarker(_ request: Request, name: String, number: Int, identity: Identity, gate: Gate) async throws -> Response {
        try QueryParameters(request).onlyKeys([])
        let bytes = try await bodies.jsonBytes(of: request)
        let body = try RequestBodyReader.jsonObject(bytes)
        try body.onlyKeys(MarkerFieldsInput.changeKeys)
        let position = try MarkerPositionInput.read(body, required: false)
        var fields = try MarkerFieldsInput.change(body)
        fields.ifVersion = try EntityTag.ifMatchVersion(request)
        let author = try identity.author(given: try body.string("author", allowNull: true))
        guard position != nil || !fields.isEmpty else {
            throw APIError.invalidField("$", "nothing to change: give a position (x, y or lat, lng), status, note, category, priority, assignee or due")
        }
        var asked = fields
        if position != nil { asked.position = PixelPoint(x: 0, y: 0) }
        try await gate.require(asked, on: name, marker: number)
        var change = fields
        var conversion: LatLngConversion?
        // Pixels (or no position) need nothing from the drawing: one write transaction.
        if let position, position.isLatLng {
            let drawing = try await store.run("drawing") { store throws(StoreError) in try await store.drawing(named: name).drawing }
            change.position = position.pixel(on: drawing)
            conversion = LatLngConversion(crs: SimpleCRS(drawing.crs), zoom: position.zoom ?? drawing.zoom)
        } else {
            change.position = position?.pixel(on: nil)
        }
        let (applied, latLng) = (change, conversion)
        return try await answering(request, body: bytes, identity: identity, "changeMarker") { store throws(StoreError) in
            try await store.updateMarkers([number], in: name, applied, author: author)
        } answer: { markers in
            let marker = markers[0]
            return StoredAnswer(status: .ok, body: MarkerWriter.object(marker, conversion: latLng) + "\n", eTag: EntityTag.version(marker.version))
        }
    }

    /// Removes a marker; its number is never given again. A body is not needed (and is ignored), but
    /// one sent must be declared JSON like every other write. With `If-Match`, only while the marker has that version (412).
    func removeMarker(_ request: Request, name: String, number: Int, identity: Identity) async throws -> Response {
        if RequestBodyReader.hasBody(request) { try RequestBodyReader.requireJSON(request) }
        let query = try QueryParameters(request)
        try query.onlyKeys(["author"])
        let author = try identity.author(given: query.values["author"])
        let ifVersion = try EntityTag.ifMatchVersion(request)
        return try await answering(request, identity: identity, "removeMarker") { store throws(StoreError) in
            try await store.removeMarker(number, in: name, author: author, ifVersion: ifVersion)
        } answer: { marker in
            StoredAnswer(status: .ok, body: JSONDocument.line(RemovedMarker(number: marker.number)))
        }
    }

    // MARK: Drawing changes

    /// Renames a drawing: `{"name": NEW}`; its markers, history and attachments go with it. 409 when the
    /// name is taken. Answers the drawing under its new name.
    func renameDrawing(_ request: Request, name: String) async throws -> Response {
        try QueryParameters(request).onlyKeys([])
        let body = try await bodies.jsonObject(of: request)
        try body.onlyKeys(["name"])
        guard let newName = try body.string("name") else { throw APIError.invalidField(body.path("name"), "required") }
        let summary = try await store.run("renameDrawing") { store throws(StoreError) -> DrawingSummary in
            let drawing = try await store.renameDrawing(name, to: newName)
            return try await store.drawing(named: drawing.name)
        }
        return JSONResponse.make(JSONDocument.line(DrawingJSON(summary, image: Self.imagePath(summary.drawing), tiles: Self.tilesTemplate(summary.drawing))),
                                 extraHeaders: [.location: "/drawings/" + PathComponent.encode(summary.drawing.name)])
    }

    /// Removes a drawing with its regions, markers and attachments in one transaction (its history stays); refused
    /// (409) while it has markers unless `force=true`.
    func removeDrawing(_ request: Request, name: String) async throws -> Response {
        if RequestBodyReader.hasBody(request) { try RequestBodyReader.requireJSON(request) }
        let query = try QueryParameters(request)
        try query.onlyKeys(["force"])
        let force = try query.bool("force") ?? false
        let removal = try await store.run("removeDrawing") { store throws(StoreError) in
            try await store.removeDrawing(name, force: force)
        }
        struct Removed: Encodable { var name: String; var removed = true; var markers: Int; var attachments: Int }
        return JSONResponse.make(JSONDocument.line(Removed(name: removal.name, markers: removal.markers, attachments: removal.attachments)))
    }

    /// The marker's changes, oldest first (kept after removal).
    func history(_ request: Request, name: String, number: Int) async throws -> Response {
        try QueryParameters(request).onlyKeys([])
        let entries = try await store.run("history") { store throws(StoreError) in try await store.history(of: name, number: number) }
        guard !entries.isEmpty else { throw APIError.unknownMarker(number, drawing: name) }
        return JSONResponse.make(HistoryJSON.object(drawing: name, number: number, entries: entries))
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}

/// A removed marker's answer: `{"number":N,"removed":true}`.
struct RemovedMarker: Encodable {
    var number: Int
    var removed = true
}
