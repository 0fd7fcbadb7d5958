import Hummingbird

/// Lets browser clients on one origin (or any, `*`) call the service: answers preflights (no token
/// needed) and adds `Access-Control-Allow-Origin` and `Access-Control-Expose-Headers` (ETag, Location, Idempotent-Replayed)
/// to every answer, errors included. Requests without an `Origin` header pass untouched.
struct CORSHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The allowed origin, or `*`.
    let origin: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let requestOrigin = request.headers[.origin] else { return try await next(request, context) }
        let allowed = origin == "*" ? "*" : (requestOrigin == origin ? origin : nil)
        if request.method == .options {
            var headers: HTTPFields = [
                .accessControlAllowMethods: "GET, HEAD, POST, PATCH, DELETE, OPTIONS",
                .accessControlAllowHeaders: "Authorization, Content-Type, If-None-Match, If-Match, Idempotency-Key, Accept",
                .accessControlMaxAge: "600",
                .vary: "Origin",
            ]
            if let allowed { headers[.accessControlAllowOrigin] = allowed }
            return Response(status: .noContent, headers: headers)
        }
        var response = try await next(request, context)
        if let allowed {
            response.headers[.accessControlAllowOrigin] = allowed
            response.headers[.accessControlExposeHeaders] = "ETag, Location, Idempotent-Replayed"
        }
        response.headers[values: .vary].append("Origin")
        return response
    }
}
