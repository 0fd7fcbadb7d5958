import Hummingbird
import PlanMarkFormats
import PlanMarkStore

/// `/drawings/{name}/markers/{n}/comments`: a marker's comment thread (`Comment`: history entries, so they cannot be
/// edited or removed).
extension PlanMarkRoutes {
    /// Adds a comment: `{"text"}` (and `author`, which must be the signed-in user's name) -> 201
    /// `{"id","author","createdAt","text"}`, the author being the signed-in user.
    func addComment(_ request: Request, name: String, number: Int, identity: Identity) async throws -> Response {
        try QueryParameters(request).onlyKeys([])
        let bytes = try await bodies.jsonBytes(of: request)
        let body = try RequestBodyReader.jsonObject(bytes)
        try body.onlyKeys(["text", "author"])
        guard let text = try body.string("text") else { throw APIError.invalidField(body.path("text"), "required") }
        let author = try identity.author(given: try body.string("author"))
        return try await answering(request, body: bytes, identity: identity, "comment") { store throws(StoreError) in
            try await store.comment(text, onMarker: number, in: name, author: author)
        } answer: { comment in
            StoredAnswer(status: .created, body: JSONDocument.line(comment))
        }
    }

    /// The marker's comments, oldest first: `[{"id","author","createdAt","text"}, ...]`.
    func comments(_ request: Request, name: String, number: Int) async throws -> Response {
        try QueryParameters(request).onlyKeys([])
        let comments = try await store.run("comments") { store throws(StoreError) in
            try await store.comments(ofMarker: number, in: name)
        }
        return JSONResponse.make(JSONDocument.line(comments))
    }
}
