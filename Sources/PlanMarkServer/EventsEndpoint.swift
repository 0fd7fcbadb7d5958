import HTTPTypes
import Hummingbird
import PlanMarkExport
import PlanMarkStore
import ServiceLifecycle

/// `GET /drawings/{name}/events`: the drawing's changes as server-sent events (`text/event-stream`): one event a
/// change, `id:` its cursor, `event:` its kind, `data:` the change object (`ChangeJSON`), and a comment line every 15 s.
/// With `Last-Event-ID` (a reconnecting EventSource sends it) or `?since=CURSOR`, every change after it is sent first,
/// then the live ones: none missed, none twice (a marker at its last change). Without, only changes from now on. A
/// viewer sees what their role lets them (`Gate.sees`); `ChangeHub` says how the changes arrive and when a stream ends.
extension PlanMarkRoutes {
    /// The header an EventSource sends when it reconnects.
    static let lastEventID = HTTPField.Name("Last-Event-ID")!

    func events(_ request: Request, name: String, gate: Gate) async throws -> Response {
        let query = try QueryParameters(request)
        try query.onlyKeys(["since"])
        try await gate.require(.readMarkers, on: name)
        var since = Int64(try query.integer("since", minimum: 0) ?? -1)
        if let header = request.headers[Self.lastEventID] {
            guard let value = Int64(header[...].trimmingSpaces()), value >= 0 else {
                throw APIError.invalidField("Last-Event-ID", "expected a cursor (a whole number >= 0), found \"\(header)\"")
            }
            since = value
        }
        let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-cache", Self.accelBuffering: "no"]
        // HEAD: the headers a stream would have, and no stream (its body never ends).
        if request.method == .head { return Response(status: .ok, headers: headers) }
        let drawing = try await store.run("drawingRecord") { store throws(StoreError) in try await store.drawingRecord(named: name) }
        // Subscribed first, so that nothing committed while the replay is read is lost (it is queued, and sent after the
        // replay unless the replay had it).
        let stream = try hub.subscribe(drawingID: drawing.id!, visible: { gate.sees($0) })
        // The replay is read a page at a time as it is sent (a viewer far behind costs one page of memory, not its
        // whole history); a store error in the middle ends the stream, and the viewer resumes from its last id.
        let (start, store) = (since, self.store)
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            var last = start
            try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
            if start >= 0 {
                while true {
                    let after = last
                    let page = try await store.run("changes") { store throws(StoreError) in
                        try await store.changes(since: after, drawing: name, limit: ChangePage.defaultLimit)
                    }
                    var text = ""
                    for change in page.changes where gate.sees(change) { text += Self.event(change) }
                    if !text.isEmpty { try await writer.write(ByteBuffer(string: text)) }
                    last = page.next
                    if !page.more { break }
                }
            }
            // The server stops serving before the hub is told to stop (Hummingbird stops its services after the
            // server), and it waits for open answers: so the first stream to hear of the shutdown ends them all.
            try await withGracefulShutdownHandler {
                for await item in stream {
                    switch item {
                    case .keepAlive:
                        try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                    case .change(let change):
                        guard change.cursor > last else { continue }
                        try await writer.write(ByteBuffer(string: Self.event(change)))
                        last = change.cursor
                    }
                }
            } onGracefulShutdown: { [hub] in
                hub.stop()
            }
            try await writer.finish(nil)
        })
    }

    /// Tells a proxy such as nginx not to hold the stream back.
    static let accelBuffering = HTTPField.Name("X-Accel-Buffering")!

    /// One event: `id`, `event`, `data` (the change object on one line) and the blank line that ends it.
    static func event(_ change: Change) -> String {
        "id: \(change.cursor)\nevent: \(change.kind.rawValue)\ndata: \(ChangeJSON.object(change))\n\n"
    }
}
