import HTTPTypes
import Hummingbird
import Synchronization

/// A `Host` header value or an `--allowed-host` entry: a lower-cased name (IPv6 without brackets) and
/// an optional port.
struct HostAuthority: Hashable, Sendable {
    /// The host name or IP address, lower-cased, without IPv6 brackets.
    var name: String
    /// The port, nil when not given.
    var port: Int?

    /// Parses `NAME`, `NAME:PORT`, `[IPv6]` or `[IPv6]:PORT`; nil for anything else.
    /// - Complexity: O(length).
    init?(_ text: some StringProtocol) {
        let text = Substring(text).lowercased()
        var rest: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let inside = text[text.index(after: text.startIndex)..<close]
            guard !inside.isEmpty, inside.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
            name = String(inside)
            rest = text[text.index(after: close)...]
        } else {
            let end = text.firstIndex(of: ":") ?? text.endIndex
            let host = text[..<end]
            guard !host.isEmpty, host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_") }) else {
                return nil
            }
            name = String(host)
            rest = text[end...]
        }
        if rest.isEmpty {
            port = nil
            return
        }
        guard rest.first == ":" else { return nil }
        rest = rest.dropFirst()
        guard !rest.isEmpty, rest.count <= 5, rest.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(rest), value <= 65535 else { return nil }
        port = value
    }

    /// An `--allowed-host` value: as a header value, with a port (when given) in 1...65535.
    init?(allowedHost text: String) {
        guard let parsed = HostAuthority(text), parsed.port.map({ $0 >= 1 }) ?? true else { return nil }
        self = parsed
    }
}

/// Which `Host` names the service answers to (DNS rebinding protection).
///
/// Accepted: the address it listens on with the bound port (no port only when that is 80); when it
/// listens on loopback (or every address), also `localhost`, `127.0.0.1` and `[::1]`; and each
/// `--allowed-host` (`NAME` on the bound port, or `NAME:PORT`).
struct HostPolicy: Sendable {
    /// The listening address, normalised like a `Host` name.
    let listenName: String
    /// The extra names.
    let allowed: [HostAuthority]

    /// The policy for `configuration` (its allowed hosts must be valid).
    init(_ configuration: ServerConfiguration) {
        var listen = configuration.host.lowercased()
        if listen.hasPrefix("[") && listen.hasSuffix("]") { listen = String(listen.dropFirst().dropLast()) }
        listenName = listen
        allowed = configuration.allowedHosts.compactMap { HostAuthority(allowedHost: $0) }
    }

    static let loopbackNames: Set<String> = ["localhost", "127.0.0.1", "::1"]
    static let wildcardNames: Set<String> = ["0.0.0.0", "::", "0:0:0:0:0:0:0:0"]

    /// True when a request naming `authority` is meant for this server listening on `boundPort`.
    func accepts(_ authority: HostAuthority, boundPort: Int) -> Bool {
        let port = authority.port ?? 80
        if port == boundPort && servesName(authority.name) { return true }
        return allowed.contains { $0.name == authority.name && ($0.port ?? boundPort) == port }
    }

    /// True when `name` reaches the listening address.
    func servesName(_ name: String) -> Bool {
        if name == listenName { return true }
        let listensOnLoopback = ServerConfiguration.isLoopback(listenName) || Self.wildcardNames.contains(listenName)
        return listensOnLoopback && Self.loopbackNames.contains(name)
    }
}

/// The port the server is bound to: the configured one until the listener reports the real one (port 0).
final class BoundPort: Sendable {
    private let storage: Atomic<Int>

    init(_ port: Int) { storage = Atomic(port) }

    var value: Int { storage.load(ordering: .acquiring) }

    func set(_ port: Int) { storage.store(port, ordering: .releasing) }
}

/// Refuses requests whose `Host` is not this server: 400 without a (well-formed) `Host` or with more than one,
/// 421 for another name or port. An absolute-form request target (`GET http://name:port/path`) names the host
/// instead of `Host` (`RequestTargetAuthority` puts it there). Runs before everything else, CORS preflights and
/// `/health` included.
struct HostCheckMiddleware<Context: RequestContext>: RouterMiddleware {
    let policy: HostPolicy
    let boundPort: BoundPort

    /// The first `Host` header becomes the request's authority; any other stays a header field.
    static var hostField: HTTPField.Name { HTTPField.Name("Host")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.headers.contains(Self.hostField) {
            return APIError(.badRequest, code: "duplicate-host", message: "the request has more than one Host header").response()
        }
        guard let text = request.head.authority else {
            return APIError(.badRequest, code: "missing-host", message: "a Host header is required").response()
        }
        guard let authority = HostAuthority(text) else {
            return APIError(.badRequest, code: "invalid-host", message: "the Host header is not NAME or NAME:PORT").response()
        }
        guard policy.accepts(authority, boundPort: boundPort.value) else {
            return APIError(.misdirectedRequest, code: "unknown-host",
                            message: "this server does not answer to that Host; its operator can add it with --allowed-host").response()
        }
        return try await next(request, context)
    }
}

/// Refuses writes (POST, PUT, PATCH, DELETE) from a browser page on another origin: a request with an
/// `Origin` header that is neither the server's own (`http://` + Host) nor the configured CORS origin
/// gets 403. Requests without `Origin` (command-line clients) pass.
struct OriginCheckMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The configured CORS origin (`*` for any), nil for none.
    let corsOrigin: String?

    static var writeMethods: Set<HTTPRequest.Method> { [.post, .put, .patch, .delete] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard Self.writeMethods.contains(request.method), let origin = request.headers[.origin] else {
            return try await next(request, context)
        }
        if corsOrigin == "*" || origin == corsOrigin { return try await next(request, context) }
        if let authority = request.head.authority, origin.lowercased() == "http://" + authority.lowercased() {
            return try await next(request, context)
        }
        throw APIError(.forbidden, code: "forbidden-origin", message: "writes from a page on another origin are refused (see --cors-origin)")
    }
}
