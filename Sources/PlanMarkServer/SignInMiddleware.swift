import Hummingbird
import PlanMarkFormats
import PlanMarkStore
import Synchronization

/// Signs every request in but `GET /health` and `GET /vocabulary` (the review page's files are answered before this middleware) and sets
/// `context.identity`:
/// - `Authorization: Bearer TOKEN` with the server's `--token` (compared in constant time): the operator;
/// - with a user's token (`planmark user token`): that user, looked up in the store on every request, so a revoked or
///   expired token, or a removed user's, is refused at once;
/// - no header: the operator while the store has no users and the server has no `--token`; else 401.
/// A header that signs no one in is 401 and counts as a failed sign-in of the client's address (`SignInThrottle`);
/// an address with too many is 429 with `Retry-After`. Tokens are never logged.
struct SignInMiddleware: RouterMiddleware {
    typealias Context = PlanMarkRequestContext

    /// The operator's token's bytes, if the server has one.
    let operatorToken: [UInt8]?
    let store: StoreAccess
    let throttle: SignInThrottle
    /// Whether the store has users, as last read, and when: read again after a second (so a first user added by
    /// the CLI to a running server takes effect within a second, without a store read on every request).
    private let users = UsersPresence()

    init(operatorToken: String?, store: StoreAccess, throttle: SignInThrottle = SignInThrottle()) {
        self.operatorToken = operatorToken.map { Array($0.utf8) }
        self.store = store
        self.throttle = throttle
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.uri.path == "/health" || request.uri.path == "/vocabulary" { return try await next(request, context) }
        let address = context.remoteAddress?.ipAddress ?? "unknown"
        if let seconds = throttle.retryAfter(address) { throw APIError.tooManySignIns(retryAfter: seconds) }
        var context = context
        guard let header = request.headers[.authorization] else {
            if operatorToken == nil, try await !hasUsers() { return try await next(request, context) }
            throw APIError.unauthorized.with(headers: Self.challenge)
        }
        guard let given = Self.bearerToken(header) else {
            throttle.failed(address)
            throw APIError.unauthorized.with(headers: Self.challenge)
        }
        if let operatorToken, ConstantTime.equal(given[...], operatorToken) {
            context.identity = .operator
            return try await next(request, context)
        }
        let secret = String(decoding: given, as: UTF8.self)
        let signedIn = try await store.run("signIn") { store throws(StoreError) in
            try await store.signIn(token: secret, today: .today, at: .now())
        }
        guard let signedIn else {
            throttle.failed(address)
            throw APIError.unauthorized.with(headers: Self.challenge)
        }
        context.identity = .user(signedIn)
        return try await next(request, context)
    }

    static let challenge: HTTPFields = [.wwwAuthenticate: "Bearer realm=\"planmark\""]

    /// The token of `Bearer TOKEN` (the scheme case-insensitive), or nil for another header.
    /// - Complexity: O(length of the header).
    static func bearerToken(_ header: String) -> [UInt8]? {
        let bytes = Array(header.utf8)
        let scheme = Array("bearer ".utf8)
        guard bytes.count > scheme.count, bytes.prefix(scheme.count).map({ $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }) == scheme else { return nil }
        return Array(bytes.dropFirst(scheme.count))
    }

    /// Whether the store has users, read at most once a second.
    private func hasUsers() async throws -> Bool {
        let now = ContinuousClock.now
        if let known = users.state.withLock({ $0 }), now - known.read < .seconds(1) { return known.has }
        let has = try await store.run("hasUsers") { store throws(StoreError) in try await store.hasUsers() }
        users.state.withLock { $0 = (has, now) }
        return has
    }
}

extension APIError {
    /// This error with `extra` headers.
    func with(headers extra: HTTPFields) -> APIError {
        var error = self
        error.headers.append(contentsOf: extra)
        return error
    }
}

/// `SignInMiddleware`'s last look at whether the store has users.
final class UsersPresence: Sendable {
    let state = Mutex<(has: Bool, read: ContinuousClock.Instant)?>(nil)
}
