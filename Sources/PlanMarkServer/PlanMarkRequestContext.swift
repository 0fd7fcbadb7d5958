import Hummingbird
import NIOCore
import PlanMarkStore

/// The service's request context: Hummingbird's core storage, the client's address, and who the request is from
/// (`SignInMiddleware` sets it before any route runs).
public struct PlanMarkRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connected client's address (nil in router tests).
    public let remoteAddress: SocketAddress?
    /// Who the request is from.
    public var identity: Identity = .operator

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

/// Who a request is from.
public enum Identity: Sendable, Hashable {
    /// The operator: the server's own `--token`, or anyone while the store has no users. All rights; the history
    /// records the `author` the request gives.
    case `operator`
    /// A user signed in with one of their tokens.
    case user(SignedInUser)

    /// The author the history records for a change this request makes: the signed-in user's name (an `author` the
    /// request gives must be that name: else 400 `author-mismatch`), or, for the operator, the `author` given.
    func author(given: String?) throws(APIError) -> String? {
        switch self {
        case .operator:
            return given
        case .user(let signedIn):
            if let given, given != signedIn.user.name { throw APIError.authorMismatch(given: given, user: signedIn.user.name) }
            return signedIn.user.name
        }
    }
}

extension APIError {
    /// 400 for an `author` that is not the signed-in user.
    static func authorMismatch(given: String, user: String) -> APIError {
        APIError(.badRequest, code: "author-mismatch", message: "author \"\(given)\" is not the signed-in user \"\(user)\"; leave author out")
    }

    /// 429 for an address that failed to sign in too often; `seconds` until it may try again.
    static func tooManySignIns(retryAfter seconds: Int) -> APIError {
        APIError(.tooManyRequests, code: "too-many-sign-ins",
                 message: "too many failed sign-ins from this address; try again in \(seconds) s", headers: [.retryAfter: String(seconds)])
    }
}
