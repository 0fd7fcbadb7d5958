import Hummingbird
import PlanMarkExport
import PlanMarkStore

/// `GET /changes?since=CURSOR[&drawing=NAME][&limit=N]`: the change feed (`ChangeFeed.swift`), a page at a time:
/// `{"changes":[{"cursor","drawing","kind","number","uuid","marker"}],"next":CURSOR,"more":BOOL}` (`ChangeJSON`). A
/// client keeps `next` and asks from it next time: it gets every change after it, none twice (a marker once, at its
/// last change). A signed-in user gets the changes of the drawings of their projects only, and a subcontractor only
/// the upserts of the markers assigned to them (and no tombstones, which would name markers they cannot see).
extension PlanMarkRoutes {
    func changes(_ request: Request, gate: Gate) async throws -> Response {
        let query = try QueryParameters(request)
        try query.onlyKeys(["since", "drawing", "limit"])
        let since = Int64(try query.integer("since", minimum: 0) ?? 0)
        let limit = try query.integer("limit", minimum: 1) ?? ChangePage.defaultLimit
        guard limit <= ChangePage.maxLimit else { throw APIError.invalidField("limit", "at most \(ChangePage.maxLimit)") }
        let drawing = query.nonEmpty("drawing")
        if let drawing { try await gate.require(.readMarkers, on: drawing) }
        let page = try await store.run("changes") { store throws(StoreError) in
            try await store.changes(since: since, drawing: drawing, limit: limit)
        }
        let visible = page.changes.filter { gate.sees($0) }
        return JSONResponse.make(ChangeJSON.page(page, changes: visible))
    }
}

extension Gate {
    /// Whether the identity may see `change`: a drawing of one of their projects; for a subcontractor, of the markers'
    /// changes only the upserts of markers assigned to them.
    func sees(_ change: Change) -> Bool {
        guard sees(project: change.projectID) else { return false }
        guard !change.kind.isDrawing, let names = visibleAssignees(in: change.projectID) else { return true }
        guard change.kind == .upsert, let marker = change.marker else { return false }
        return MarkerFilter.isAssigned(marker, toAnyOf: names)
    }
}
