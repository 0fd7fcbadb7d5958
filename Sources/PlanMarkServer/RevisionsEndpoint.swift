import Hummingbird
import PlanMarkExport
import PlanMarkFormats
import PlanMarkStore

extension PlanMarkRoutes {
    /// `GET /drawings/{name}/revisions`: `{"drawing":NAME,"revision":CURRENT,"revisions":[...]}`, oldest first
    /// (`RevisionJSON`, without server file paths); 404 for an unknown drawing.
    func revisions(_ request: Request, name: String) async throws -> Response {
        try QueryParameters(request).onlyKeys([])
        let (drawing, list) = try await store.run("revisions") { store throws(StoreError) in
            (try await store.drawingRecord(named: name), try await store.revisions(of: name))
        }
        return JSONResponse.make("{\"drawing\":" + JSONString.quoted(drawing.name) + ",\"revision\":\(drawing.revision),\"revisions\":"
                                 + RevisionJSON.array(list, image: { _ in nil }) + "}\n")
    }
}
