import Hummingbird
import PlanMarkExport
import PlanMarkFormats
import PlanMarkStore

/// `/drawings/{name}/markers/{n}/attachments[/{id}]`: photos and documents of a marker.
///
/// The body of a POST is the file itself. Its type is decided by its bytes (JPEG, PNG, PDF); a declared
/// `Content-Type` other than `application/octet-stream` must name the same type, else 415. The body limit
/// (`--max-attachment`, 20 MiB by default) is checked from `Content-Length` before anything is read and
/// while a chunked body arrives (413); nothing over it is buffered.
extension PlanMarkRoutes {
    /// The header that keeps browsers from second-guessing the stored type.
    static let contentTypeOptions = HTTPFields.Element.Name("X-Content-Type-Options")!

    /// The URL path of an attachment.
    static func attachmentPath(_ name: String, _ number: Int, _ id: Int64) -> String {
        markerPath(name, number) + "/attachments/\(id)"
    }

    /// Stores the body as an attachment: 201 `{"id","sha256","size","contentType","caption"}` with its `Location`.
    func attach(_ request: Request, name: String, number: Int, identity: Identity) async throws -> Response {
        let query = try QueryParameters(request)
        try query.onlyKeys(["caption", "author"])
        let declared = try Self.declaredAttachmentType(request)
        let bytes = try await attachmentBodies.bytes(of: request)
        let caption = query.values["caption"], author = try identity.author(given: query.values["author"])
        return try await answering(request, body: bytes, identity: identity, "attach") { store throws(StoreError) in
            try await store.attach(bytes, declaredType: declared, caption: caption, toMarker: number, in: name, author: author)
        } answer: { attachment in
            StoredAnswer(status: .created, body: JSONDocument.line(attachment), location: Self.attachmentPath(name, number, attachment.id))
        }
    }

    /// The type a request declares: nil when it declares none or `application/octet-stream`; 415 when it
    /// declares something that is not a JPEG, PNG or PDF (checked before the body is read).
    static func declaredAttachmentType(_ request: Request) throws(APIError) -> AttachmentType? {
        guard let given = request.headers[.contentType] else { return nil }
        let mediaType = (given.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? "").trimmingSpaces().lowercased()
        if mediaType.isEmpty || mediaType == "application/octet-stream" { return nil }
        guard let type = AttachmentType(contentType: given) else {
            throw APIError(.unsupportedMediaType, code: "unsupported-media-type",
                           message: "attachments are JPEG, PNG or PDF (decided by their bytes); the body is declared '\(given)'")
        }
        return type
    }

    /// `{"attachments":[{"id","sha256","size","contentType","caption"}, ...]}`, oldest first.
    func attachments(_ request: Request, name: String, number: Int) async throws -> Response {
        try QueryParameters(request).onlyKeys([])
        let list = try await store.run("attachments") { store throws(StoreError) in
            try await store.attachments(ofMarker: number, in: name)
        }
        return JSONResponse.make(JSONDocument.line(AttachmentJSON(list)))
    }

    /// The attachment's bytes with its stored type, a strong `ETag` (their SHA-256, quoted), `nosniff`, and
    /// `Content-Disposition: attachment` for a PDF (so a browser saves it rather than opening it in the
    /// service's origin). `If-None-Match` with the ETag answers 304.
    func attachment(_ request: Request, name: String, number: Int, id: Int64) async throws -> Response {
        try QueryParameters(request).onlyKeys([])
        let (attachment, bytes) = try await store.run("attachment") { store throws(StoreError) in
            try await store.attachment(id, ofMarker: number, in: name)
        }
        let etag = "\"\(attachment.sha256)\""
        var headers: HTTPFields = [.eTag: etag, .cacheControl: "private, max-age=3600, must-revalidate", Self.contentTypeOptions: "nosniff"]
        if attachment.type == .pdf { headers[.contentDisposition] = "attachment" }
        if let match = request.headers[.ifNoneMatch], match.split(separator: ",").contains(where: { $0.trimmingSpaces() == etag || $0.trimmingSpaces() == "*" }) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = attachment.contentType
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// Removes an attachment (its bytes go when nothing else uses them): `{"id":ID,"removed":true}`.
    func detach(_ request: Request, name: String, number: Int, id: Int64, identity: Identity) async throws -> Response {
        if RequestBodyReader.hasBody(request) { try RequestBodyReader.requireJSON(request) }
        let query = try QueryParameters(request)
        try query.onlyKeys(["author"])
        let author = try identity.author(given: query.values["author"])
        return try await answering(request, identity: identity, "detach") { store throws(StoreError) in
            try await store.detach(id, fromMarker: number, in: name, author: author)
        } answer: { attachment in
            StoredAnswer(status: .ok, body: JSONDocument.line(RemovedAttachment(id: attachment.id)))
        }
    }
}

/// A removed attachment's answer: `{"id":ID,"removed":true}`.
struct RemovedAttachment: Encodable {
    var id: Int64
    var removed = true
}
