import HTTPTypes
import Hummingbird
import PlanMarkStore

/// `Idempotency-Key` on the writes a client may need to send again (PATCH and DELETE of a marker, a comment, an
/// attachment added or removed): the same key with the same request answers the first answer again (with
/// `Idempotent-Replayed: true`) and changes nothing; the same key with another request is 422
/// `idempotency-key-reused`. The key and its answer are kept in the store, in the write's own transaction
/// (`IdempotentWrite`), for at least 24 hours; keys are the signed-in user's own (the operator's are shared).
extension PlanMarkRoutes {
    /// The header.
    static let idempotencyKeyField = HTTPField.Name("Idempotency-Key")!
    /// Set on an answer given again for a key.
    static let idempotentReplayedField = HTTPField.Name("Idempotent-Replayed")!

    /// Runs `operation` with the store, under the request's `Idempotency-Key` when it has one, and answers what `answer`
    /// makes of its result (or the kept answer, for a request made before). `body` is the request's body as read (its
    /// bytes are part of what makes two requests the same).
    /// - Complexity: O(body) for the fingerprint, plus the operation's.
    func answering<T>(_ request: Request, body: [UInt8] = [], identity: Identity, _ name: String,
                      _ operation: @escaping (any AnnotationStore) async throws(StoreError) -> T,
                      answer: @escaping @Sendable (T) -> StoredAnswer) async throws -> Response {
        guard let key = try Self.idempotencyKey(of: request) else {
            return try await store.run(name) { store throws(StoreError) in answer(try await operation(store)) }.response(replayed: false)
        }
        let keyed = IdempotentWrite(scope: identity.keyScope, key: key, fingerprint: Self.fingerprint(request, body: body)) { result in
            (result as? T).map(answer)
        }
        let (kept, replayed) = try await store.run(name) { store throws(StoreError) -> (StoredAnswer, Bool) in
            do {
                let value = try await IdempotentWrite.$current.withValue(keyed) { try await operation(store) }
                return (answer(value), false)
            } catch let error as StoreError {
                if case .replayed(let kept) = error { return (kept, true) }
                throw error
            } catch {
                throw StoreError.io(String(describing: error))
            }
        }
        return kept.response(replayed: replayed)
    }

    /// The request's `Idempotency-Key`: nil without one; 400 for an empty one, one longer than 255 characters, one with
    /// characters other than visible ASCII, or two.
    static func idempotencyKey(of request: Request) throws(APIError) -> String? {
        let values = request.headers[values: idempotencyKeyField]
        guard let key = values.first else { return nil }
        guard values.count == 1, !key.isEmpty, key.utf8.count <= IdempotentWrite.maxKeyLength,
              key.utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else {
            throw APIError.invalidField("Idempotency-Key", "one key of 1 to \(IdempotentWrite.maxKeyLength) visible ASCII characters")
        }
        return key
    }

    /// SHA-256 of what the request asks: method, target (path and query), `If-Match`, `Content-Type` and body.
    /// - Complexity: O(body).
    static func fingerprint(_ request: Request, body: [UInt8]) -> String {
        var hasher = SHA256()
        for part in [request.method.rawValue, request.uri.description, request.headers[.ifMatch] ?? "", request.headers[.contentType] ?? ""] {
            hasher.update(Array(part.utf8))
            hasher.update([0])
        }
        hasher.update(body)
        return hasher.hexDigest()
    }
}

extension Identity {
    /// Whose `Idempotency-Key`s a request's key is among: the user's name, "" for the operator.
    var keyScope: String {
        switch self {
        case .operator: return ""
        case .user(let signedIn): return signedIn.user.name
        }
    }
}

extension StoredAnswer {
    /// A JSON answer: `status`, `body`, and an `ETag` or `Location` when given.
    init(status: HTTPResponse.Status, body: String, eTag: String? = nil, location: String? = nil) {
        var headers: [String: String] = [:]
        if let eTag { headers["ETag"] = eTag }
        if let location { headers["Location"] = location }
        self.init(status: Int(status.code), headers: headers, body: body)
    }

    /// The response; `replayed` adds `Idempotent-Replayed: true`.
    func response(replayed: Bool) -> Response {
        var extra: HTTPFields = [:]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            if let field = HTTPField.Name(name) { extra[field] = value }
        }
        if replayed { extra[PlanMarkRoutes.idempotentReplayedField] = "true" }
        return JSONResponse.make(body, status: HTTPResponse.Status(code: status), extraHeaders: extra)
    }
}
