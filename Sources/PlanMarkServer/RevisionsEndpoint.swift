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
        struct Revisions: Encodable { var drawing: String; var revision: Int; var revisions: [RevisionJSON] }
        return JSONResponse.make(JSONDocument.line(Revisions(drawing: drawing.name, revision: drawing.revision,
                                                             revisions: list.map { RevisionJSON($0, image: nil) })))
    }
}
