import Hummingbird

/// Requires `Authorization: Bearer <token>` on every request but `GET /health`, compared in constant time. (The
/// review page's files are answered before this middleware, without the token.)
struct BearerTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The token's bytes.
    let token: [UInt8]

    /// Requires `token`.
    init(token: String) { self.token = Array(token.utf8) }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.uri.path == "/health" { return try await next(request, context) }
        guard let header = request.headers[.authorization], Self.matches(header, token: token) else {
            return APIError.unauthorized.response(headers: [.wwwAuthenticate: "Bearer realm=\"planmark\""])
        }
        return try await next(request, context)
    }

    /// True when `header` is `Bearer <token>` (scheme case-insensitive).
    /// - Complexity: O(length of the header + length of the token).
    static func matches(_ header: String, token: [UInt8]) -> Bool {
        let bytes = Array(header.utf8)
        let scheme = Array("bearer ".utf8)
        guard bytes.count >= scheme.count else { return false }
        let given = bytes.prefix(scheme.count).map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
        let schemeMatches = given == scheme
        let tokenMatches = ConstantTime.equal(bytes.dropFirst(scheme.count), token)
        return schemeMatches && tokenMatches
    }
}
