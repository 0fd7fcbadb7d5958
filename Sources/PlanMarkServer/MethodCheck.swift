import Hummingbird

/// The service's paths and the methods each takes (HEAD wherever GET is); the router's routes are
/// registered from the same templates, and a test checks that the two agree.
struct RouteTable: Sendable {
    /// Path templates (`:name` matches one non-empty segment) and their methods.
    let entries: [(template: [Substring], methods: [HTTPRequest.Method])]

    init(_ routes: [(String, [HTTPRequest.Method])]) {
        entries = routes.map { path, methods in
            var all = methods
            if all.contains(.get) && !all.contains(.head) { all.insert(.head, at: all.firstIndex(of: .get)! + 1) }
            return (path.split(separator: "/"), all)
        }
    }

    /// The methods `path` takes, nil when no route has that shape.
    /// - Complexity: O(routes * segments).
    func methods(for path: String) -> [HTTPRequest.Method]? {
        entry(for: path).map { entries[$0].methods }
    }

    /// The template of the route `path` has the shape of, as OpenAPI writes it (`/drawings/{name}/markers`); nil
    /// when none has. The metrics' route label: never the path itself.
    /// - Complexity: O(routes * segments).
    func template(for path: String) -> String? {
        guard let index = entry(for: path) else { return nil }
        return entries[index].template.map { segment -> String in
            guard segment.hasPrefix(":") else { return "/" + segment }
            let name = segment.dropFirst()
            let dot = name.firstIndex(of: ".") ?? name.endIndex
            return "/{" + name[..<dot] + "}" + name[dot...]
        }.joined()
    }

    /// The index of the entry `path` has the shape of.
    /// - Complexity: O(routes * segments).
    private func entry(for path: String) -> Int? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (index, entry) in entries.enumerated() where entry.template.count == segments.count {
            let matches = zip(entry.template, segments).allSatisfy { template, segment in
                template.hasPrefix(":") ? !segment.isEmpty : template == segment
            }
            if matches { return index }
        }
        return nil
    }
}

/// Turns the router's "no route" into 405 with `Allow` when the path is known but the method is not.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            guard let allowed = routes.methods(for: request.uri.path), !allowed.contains(request.method) else { throw error }
            throw APIError.methodNotAllowed(request.method, allowed: allowed)
        }
    }
}

/// Answers HEAD without a body wherever it ends up (an error, 404, 405 ...), keeping the headers,
/// so a client reading a HEAD answer never finds body bytes in front of the next response.
struct HeadResponseMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response = try await next(request, context)
        return request.method == .head ? response.createHeadResponse() : response
    }
}
