import Hummingbird
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import Synchronization

/// The server's open connections: the cap on how many, the request-head timeout, and who waits for a
/// connection's client to go away.
///
/// - At most `limit` connections are open at once; one more is answered 503 `too-many-connections`
///   (`Retry-After`, `Connection: close`) at once, without waiting for its request, and closed.
/// - A new connection that has not sent a whole request head within `headTimeout` is closed, and so is a kept-alive
///   connection that has not sent its next whole head within `idleTimeout` of its previous answer. A request whose
///   head has arrived is not timed (its body and its answer may take as long as they take).
/// - A client that closes its side of the connection (or the connection) is gone: the requests it has in
///   flight are cancelled (`ConnectionWatch`), so their heavy jobs stop.
final class Connections: Sendable {
    /// The most open connections.
    let limit: Int
    /// How long a new connection may take to send a whole request head.
    let headTimeout: Duration
    /// How long a kept-alive connection may take to send its next whole request head after an answer.
    let idleTimeout: Duration
    private let open = Mutex<[ObjectIdentifier: ConnectionWatch]>([:])

    /// A cap of `limit` (at least 1) connections, a head timeout of `headTimeout` for new connections and of
    /// `idleTimeout` for kept-alive ones.
    init(limit: Int, headTimeout: Duration, idleTimeout: Duration) {
        self.limit = max(1, limit)
        self.headTimeout = headTimeout
        self.idleTimeout = idleTimeout
    }

    /// Connections open now.
    var count: Int { open.withLock { $0.count } }

    /// Counts `channel` in; nil when `limit` are open.
    /// - Complexity: O(1) amortised.
    func admit(_ channel: any Channel) -> ConnectionWatch? {
        open.withLock { open in
            guard open.count < limit else { return nil }
            let watch = ConnectionWatch()
            open[ObjectIdentifier(channel)] = watch
            return watch
        }
    }

    /// Counts `channel` out.
    func remove(_ channel: any Channel) {
        _ = open.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// The watch of `channel`, nil when it was not admitted (or in a test without a socket).
    func watch(for channel: any Channel) -> ConnectionWatch? {
        open.withLock { $0[ObjectIdentifier(channel)] }
    }

    /// A handler for one new connection's pipeline (`HTTP1Channel.Configuration.additionalChannelHandlers`).
    func handler() -> any RemovableChannelHandler { ConnectionGuard(connections: self) }
}

/// One connection's client: whether it has gone, and what to do when it goes.
final class ConnectionWatch: Sendable {
    private struct State {
        var gone = false
        var next = 0
        var actions: [Int: @Sendable () -> Void] = [:]
    }
    private let state = Mutex(State())

    /// Runs `action` when the client goes (at once if it has); returns a token for `cancel`.
    func onDeparture(_ action: @escaping @Sendable () -> Void) -> Int {
        let (token, goneAlready) = state.withLock { state -> (Int, Bool) in
            state.next += 1
            if !state.gone { state.actions[state.next] = action }
            return (state.next, state.gone)
        }
        if goneAlready { action() }
        return token
    }

    /// Forgets the action of `token`.
    func cancel(_ token: Int) {
        _ = state.withLock { $0.actions.removeValue(forKey: token) }
    }

    /// The client has gone: runs every action once.
    func depart() {
        let actions = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.gone else { return [] }
            state.gone = true
            defer { state.actions = [:] }
            return Array(state.actions.values)
        }
        for action in actions { action() }
    }

    /// True once the client has gone.
    var isGone: Bool { state.withLock { $0.gone } }
}

/// Counts its connection in and out of `Connections`, refuses it beyond the cap, closes it when no request
/// head arrives in time, and tells the connection's watch when the client goes.
/// Runs on the connection's event loop, after the HTTP/1 decoder.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let connections: Connections
    private var started = false
    private var watch: ConnectionWatch?
    private var refused = false
    /// Request heads read whose answers are not finished.
    private var requests = 0
    private var headTimer: Scheduled<Void>?

    init(connections: Connections) { self.connections = connections }

    func handlerAdded(context: ChannelHandlerContext) {
        // The request target's authority is checked on the HTTP/1 head, before it is converted (which drops it).
        if let codec = try? context.pipeline.syncOperations.handler(type: HTTP1ToHTTPServerCodec.self) {
            try? context.pipeline.syncOperations.addHandler(RequestTargetAuthority(), position: .before(codec))
        }
        if context.channel.isActive { start(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop(context)
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop(context)
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed { watch?.depart() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if refused { return }
        if case .head = unwrapInboundIn(data) {
            requests += 1
            headTimer?.cancel()
            headTimer = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            requests = max(0, requests - 1)  // (an answer to a head that did not parse has no head counted)
            if requests == 0 { armHeadTimer(context, timeout: connections.idleTimeout) }
        }
        context.write(data, promise: promise)
    }

    private func start(_ context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        guard let watch = connections.admit(context.channel) else {
            refuse(context)
            return
        }
        self.watch = watch
        armHeadTimer(context, timeout: connections.headTimeout)
    }

    private func stop(_ context: ChannelHandlerContext) {
        headTimer?.cancel()
        headTimer = nil
        if let watch {
            self.watch = nil
            connections.remove(context.channel)
            watch.depart()
        }
    }

    private func armHeadTimer(_ context: ChannelHandlerContext, timeout: Duration) {
        headTimer?.cancel()
        let channel = context.channel
        headTimer = context.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            channel.close(promise: nil)
        }
    }

    /// 503 at once, then closed.
    private func refuse(_ context: ChannelHandlerContext) {
        refused = true
        let error = APIError.unavailable(code: "too-many-connections",
                                         message: "the server has as many connections open as it may (\(connections.limit)); retry shortly")
        var headers = error.headers
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.connection] = "close"
        let body = ByteBuffer(string: error.jsonBody)
        headers[.contentLength] = String(body.readableBytes)
        context.write(wrapOutboundOut(.head(HTTPResponse(status: error.status, headerFields: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}

/// Takes the authority of an absolute-form request target (`GET http://host:port/path`) as the request's
/// `Host`, as RFC 9112 (3.2.2) asks, so that the `Host` check judges the name the client asked for (the
/// conversion to `HTTPRequest` keeps only the path). A head with more than one `Host` is left as it is:
/// the check refuses it.
final class RequestTargetAuthority: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), head.headers["Host"].count <= 1,
              let authority = Self.absoluteFormAuthority(head.uri) else {
            context.fireChannelRead(data)
            return
        }
        head.headers.replaceOrAdd(name: "Host", value: authority)
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// `host:port` of `scheme://host:port/path?query`; nil for an origin-form (`/path`) or asterisk target.
    /// - Complexity: O(length of `target`).
    static func absoluteFormAuthority(_ target: String) -> String? {
        guard let first = target.utf8.first, first != UInt8(ascii: "/"), first != UInt8(ascii: "*"),
              let separator = target.firstRange(of: "://") else { return nil }
        let rest = target[separator.upperBound...]
        let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        return String(rest[..<end])
    }
}
