/// A write made under a client's `Idempotency-Key`: the store keeps the key with the answer the write was given, in the
/// same transaction as the write, so that sending the same request again answers that answer again and changes nothing
/// (a client that lost the answer on a bad network retries safely), and the same key with another request is refused.
///
/// The service binds `current` around one use case (PATCH or DELETE of a marker, a comment, an attachment added or
/// removed); `StoreBackend.write` then looks the key up under the transaction's lock before the use case runs (and
/// throws `replayed` or `idempotencyKeyReused`), and stores `answer(result)` before it commits. Two requests with one
/// key at once: the second waits for the first's lock (SQLite: the store's; PostgreSQL: the drawing's, and a unique key
/// for keys used on two drawings at once) and then finds the first's answer. A refused write stores nothing (it rolls
/// back): sent again, it is refused again, as long as the store's state still refuses it.
public struct IdempotentWrite: Sendable {
    /// Whose key it is: the signed-in user's name, or "" for the operator (a server without users, or its `--token`).
    public var scope: String
    /// The client's key.
    public var key: String
    /// SHA-256 of what the request asks (method, target, `If-Match`, body): the same key with another fingerprint is
    /// another request.
    public var fingerprint: String
    /// The answer a use case's result is given (`nil`: nothing to keep).
    public var answer: @Sendable (Any) -> StoredAnswer?

    /// Keys are kept this long (24 hours, in milliseconds); an older key is taken as never seen.
    public static let keptFor: Int64 = 24 * 3_600_000
    /// Each keyed write deletes up to this many keys older than `keptFor`: the keys kept are those of the last 24 hours
    /// plus a backlog that shrinks by at least one a write.
    static let prunedPerWrite = 2
    /// The longest key, in characters.
    public static let maxKeyLength = 255

    /// The write the current task makes under a key, if any.
    @TaskLocal public static var current: IdempotentWrite?

    /// Describes a keyed write.
    public init(scope: String, key: String, fingerprint: String, answer: @escaping @Sendable (Any) -> StoredAnswer?) {
        self.scope = scope
        self.key = key
        self.fingerprint = fingerprint
        self.answer = answer
    }
}

/// An answer as the store keeps it for a key: status, the headers that matter to a client (`ETag`, `Location`) and body.
public struct StoredAnswer: Hashable, Sendable {
    public var status: Int
    /// Header names and values, in order.
    public var headers: [String: String]
    public var body: String

    /// Describes an answer.
    public init(status: Int, headers: [String: String] = [:], body: String) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The headers as stored: `name: value` lines, sorted by name.
    var headerText: String { headers.keys.sorted().map { "\($0): \(headers[$0]!)\n" }.joined() }

    /// Headers from their stored text.
    static func headers(from text: String) -> [String: String] {
        var headers: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[String(line[..<colon])] = String(line[line.index(after: colon)...].dropFirst())
        }
        return headers
    }
}

extension StoreBackend {
    /// Under `write`'s lock: throws `replayed` with the kept answer when the key was used for this request within
    /// `keptFor`, `idempotencyKeyReused` when for another; a key older than that is forgotten.
    /// - Complexity: O(log k) for the store's k keys.
    static func replayIfSeen(_ transaction: Transaction, _ write: IdempotentWrite, now: Timestamp) async throws {
        let match: [(String, StoreValue)] = [("scope", .text(write.scope)), ("requestKey", .text(write.key))]
        guard let row = try await transaction.rows(of: StoreTables.idempotencyKey, where: match).first else { return }
        guard case .text(let fingerprint) = row[2], case .integer(let status) = row[3], case .text(let body) = row[5],
              case .integer(let createdAt) = row[6] else { throw StoreError.io("an idempotency key's row is damaged") }
        if createdAt < now.milliseconds - IdempotentWrite.keptFor {
            _ = try await transaction.delete(from: StoreTables.idempotencyKey, where: match)
            return
        }
        guard fingerprint == write.fingerprint else { throw StoreError.idempotencyKeyReused(key: write.key) }
        var headers: [String: String] = [:]
        if case .text(let text) = row[4] { headers = StoredAnswer.headers(from: text) }
        throw StoreError.replayed(StoredAnswer(status: Int(status), headers: headers, body: body))
    }

    /// Keeps the answer `result` is given under the key, in the write's transaction. When another request with the key
    /// committed since the lookup (a key used on two drawings at once, on PostgreSQL), its answer is replayed instead
    /// (and this write rolls back). Before keeping it, forgets up to `prunedPerWrite` keys older than `keptFor` (anyone's).
    /// - Complexity: O(log k + size of the answer).
    static func remember(_ transaction: Transaction, _ write: IdempotentWrite, result: Any, now: Timestamp) async throws {
        guard let answer = write.answer(result) else { return }
        _ = try await transaction.deleteBelow(from: StoreTables.idempotencyKey, column: "createdAt",
                                              value: .integer(now.milliseconds - IdempotentWrite.keptFor), limit: IdempotentWrite.prunedPerWrite)
        let row: [StoreValue] = [.text(write.scope), .text(write.key), .text(write.fingerprint), .integer(Int64(answer.status)),
                                 .text(answer.headerText), .text(answer.body), .integer(now.milliseconds)]
        if try await transaction.insert(row, into: StoreTables.idempotencyKey) == nil {
            try await replayIfSeen(transaction, write, now: now)
            throw StoreError.io("idempotency key \"\(write.key)\" was taken and then not found")
        }
    }
}
