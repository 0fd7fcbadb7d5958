import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// Hummingbird's basic request context plus the connection the request came on.
public struct ConnectionRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The request's connection.
    public let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
    }
}

/// The router behind request cancellation: each request without a body (GET, HEAD: every heavy job) is
/// answered in a task of its own, which is cancelled when its client goes away (`ConnectionWatch`), or
/// `shutdownGrace` after the server was told to stop (SIGTERM) if it is still running then; an answer still
/// being sent then has its connection closed (`closingAfterGrace`). Cancelled heavy
/// jobs stop at their next check (`HeavyWork`); store calls are not interrupted. Requests with a body are
/// never cancelled: a cancelled body stream may end early without an error, and a write must act on the whole
/// body or not at all (an early close is already an unreadable body, 400).
public struct CancellingResponder: HTTPResponder {
    public typealias Context = ConnectionRequestContext

    let router: RouterResponder<PlanMarkRequestContext>
    let connections: Connections?
    let shutdownGrace: Duration

    public func respond(to request: Request, context: ConnectionRequestContext) async throws -> Response {
        let response = try await answer(request, context: context)
        return Self.closingAfterGrace(response, channel: context.channel, grace: shutdownGrace)
    }

    /// Bodies longer than this may wait on their client: NIO's outbound writer stops taking bytes at its high-water
    /// mark (64 KiB by default) while the client does not read.
    static let mayWaitOnClient = 64 << 10

    /// `response`, its body (if streamed, or longer than `mayWaitOnClient`) written under the shutdown grace: once
    /// the server is told to stop, a body still being written `grace` later has its connection closed, so that a
    /// client that stops reading cannot keep the server from exiting (Hummingbird's graceful shutdown waits for every
    /// answer being written, without a limit). Shorter bodies keep Hummingbird's one-write fast path.
    static func closingAfterGrace(_ response: Response, channel: any Channel, grace: Duration) -> Response {
        if let length = response.body.contentLength, length <= mayWaitOnClient { return response }
        var response = response
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            let timer = GraceTimer()
            defer { timer.cancel() }
            try await withGracefulShutdownHandler {
                try await body.write(writer)
            } onGracefulShutdown: {
                timer.start(Task {
                    do { try await Task.sleep(for: grace) } catch { return }
                    channel.close(promise: nil)
                })
            }
        }
        return response
    }

    private func answer(_ request: Request, context: ConnectionRequestContext) async throws -> Response {
        let basic = PlanMarkRequestContext(source: ApplicationRequestContextSource(channel: context.channel, logger: context.logger))
        let router = self.router
        if RequestBodyReader.hasBody(request) { return try await router.respond(to: request, context: basic) }
        let task = Task { try await router.respond(to: request, context: basic) }
        let watch = connections?.watch(for: context.channel)
        let token = watch?.onDeparture { task.cancel() }
        let graceTimer = GraceTimer()
        defer {
            if let token { watch?.cancel(token) }
            graceTimer.cancel()
        }
        let grace = shutdownGrace
        return try await withGracefulShutdownHandler {
            try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        } onGracefulShutdown: {
            graceTimer.start(Task {
                do { try await Task.sleep(for: grace) } catch { return }
                task.cancel()
            })
        }
    }
}

/// The timer of one request's shutdown grace, cancelled when the request ends first.
private final class GraceTimer: Sendable {
    private let timer = Mutex<(task: Task<Void, Never>?, ended: Bool)>((nil, false))

    func start(_ task: Task<Void, Never>) {
        let ended = timer.withLock { state -> Bool in
            if !state.ended { state.task = task }
            return state.ended
        }
        if ended { task.cancel() }
    }

    func cancel() {
        timer.withLock { state in
            state.ended = true
            return state.task
        }?.cancel()
    }
}
