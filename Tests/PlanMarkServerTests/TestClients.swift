import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

// The two ways the tests reach the service, without HummingbirdTesting (whose AsyncHTTPClient, NIOSSL
// and NIOHTTP2 dependencies no test needs):
// - `.router`: the application's own responder is called with a constructed `Request` and context,
//   in process, with no socket (what HummingbirdTesting's router framework does);
// - `.live`: the application runs in a service group on a loopback port; `TestClient` is a plain
//   HTTP/1.1 client over NIO for the tests that talk to it through a socket.

/// How `ApplicationProtocol.test` runs the application.
enum ApplicationTestMode {
    /// Requests go straight to the application's responder.
    case router
    /// The application listens on a loopback port chosen by the system.
    case live
}

/// An answer from `ApplicationTestClient`: head, body (empty when there is none) and trailers.
struct TestResponse: Sendable {
    var head: HTTPResponse
    var body: ByteBuffer
    var trailerHeaders: HTTPFields?

    var status: HTTPResponse.Status { head.status }
    var headers: HTTPFields { head.headerFields }
}

/// The client a `test` closure receives. In `.router` mode it calls the responder; in `.live` mode
/// `port` is the listening port and each `execute` goes through its own connection.
struct ApplicationTestClient: Sendable {
    /// The listening port (`.live` only).
    let port: Int?
    fileprivate let send: @Sendable (HTTPRequest.Method, String, HTTPFields, ByteBuffer?) async throws -> TestResponse

    /// Sends one request (with `Content-Length` when there is a body) and returns the answer.
    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil) async throws -> TestResponse {
        try await send(method, uri, headers, body)
    }
}

/// The router client's requests name `localhost` (no port), as HummingbirdTesting's did: see
/// `ServerFixture.testClientHost`.
private let routerAuthority = "localhost"

extension ApplicationProtocol {
    /// Runs `test` against this application, through its responder (`.router`) or a live loopback
    /// server (`.live`, stopped gracefully when `test` returns or throws).
    func test<Value: Sendable>(_ mode: ApplicationTestMode, _ test: @Sendable (ApplicationTestClient) async throws -> Value) async throws -> Value {
        switch mode {
        case .router: try await routerTest(test)
        case .live: try await liveTest(test)
        }
    }

    private func routerTest<Value: Sendable>(_ test: @Sendable (ApplicationTestClient) async throws -> Value) async throws -> Value {
        guard services.isEmpty else { throw ApplicationTestFailure(description: "the router client runs no services; use .live") }
        for process in processesRunBeforeServerStart { try await process() }
        let responder = try await self.responder
        let logger = self.logger
        let client = ApplicationTestClient(port: nil) { method, uri, headers, body in
            var headers = headers
            if let body { headers[.contentLength] = String(body.readableBytes) }
            // The body arrives as a stream of chunks of at most 32 KiB, as from a socket.
            let (chunks, input) = AsyncStream.makeStream(of: ByteBuffer.self)
            if var body {
                while body.readableBytes > 0 { input.yield(body.readSlice(length: min(32 * 1024, body.readableBytes))!) }
            }
            input.finish()
            let request = Request(
                head: HTTPRequest(method: method, scheme: "http", authority: routerAuthority, path: uri, headerFields: headers),
                body: RequestBody(asyncSequence: chunks))
            let context = Responder.Context(source: ApplicationRequestContextSource(channel: NIOAsyncTestingChannel(), logger: logger))
            let response: Response
            do {
                response = try await responder.respond(to: request, context: context)
            } catch {
                response = Response(status: .internalServerError)
            }
            let writer = CollectingBodyWriter()
            try await response.body.write(writer)
            return TestResponse(head: response.head, body: writer.collected.body, trailerHeaders: writer.collected.trailers)
        }
        return try await test(client)
    }

    private func liveTest<Value: Sendable>(_ test: @Sendable (ApplicationTestClient) async throws -> Value) async throws -> Value {
        let application = PortReportingApplication(base: self)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            let serviceGroup = ServiceGroup(configuration: .init(services: [application], gracefulShutdownSignals: [], logger: logger))
            group.addTask {
                do {
                    try await serviceGroup.run()
                } catch {
                    application.listening.fail(error)
                    throw error
                }
                application.listening.fail(ApplicationTestFailure(description: "the server stopped before it listened"))
            }
            let port: Int
            do {
                port = try await application.listening.port()
            } catch {
                await serviceGroup.triggerGracefulShutdown()
                throw error
            }
            let client = ApplicationTestClient(port: port) { method, uri, headers, body in
                var keepAlive = headers
                keepAlive[.connection] = "keep-alive"
                let request = TestClient.Request(uri, method: method, authority: routerAuthority, headers: keepAlive, body: body)
                let response = try await TestClient.withClient(host: "127.0.0.1", port: port) { try await $0.execute(request) }
                return TestResponse(head: response.head, body: response.body ?? ByteBuffer(), trailerHeaders: nil)
            }
            do {
                let value = try await test(client)
                await serviceGroup.triggerGracefulShutdown()
                return value
            } catch {
                await serviceGroup.triggerGracefulShutdown()
                throw error
            }
        }
    }
}

struct ApplicationTestFailure: Error, CustomStringConvertible {
    var description: String
}

/// Collects a response body written by the responder.
private final class CollectingBodyWriter: ResponseBodyWriter, @unchecked Sendable {
    private let lock = NSLock()
    private var body = ByteBuffer()
    private var trailers: HTTPFields?

    var collected: (body: ByteBuffer, trailers: HTTPFields?) { lock.withLock { (body, trailers) } }

    func write(_ buffer: ByteBuffer) async throws {
        lock.withLock { _ = body.writeImmutableBuffer(buffer) }
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {
        lock.withLock { trailers = trailingHeaders }
    }
}

/// The application under test, unchanged but for telling `listening` the port it bound.
private struct PortReportingApplication<Base: ApplicationProtocol>: ApplicationProtocol {
    typealias Responder = Base.Responder
    let base: Base
    let listening = ListeningPort()

    var responder: Responder { get async throws { try await base.responder } }
    var server: HTTPServerBuilder { base.server }
    var eventLoopGroup: any EventLoopGroup { base.eventLoopGroup }
    var configuration: ApplicationConfiguration { base.configuration }
    var logger: Logger { base.logger }
    var services: [any Service] { base.services }
    var processesRunBeforeServerStart: [@Sendable () async throws -> Void] { base.processesRunBeforeServerStart }

    @Sendable func onServerRunning(_ channel: any Channel) async {
        await base.onServerRunning(channel)
        if let port = channel.localAddress?.port {
            listening.succeed(port)
        } else {
            listening.fail(ApplicationTestFailure(description: "the server's channel has no local port"))
        }
    }
}

/// The port a live server listens on, or why it never did; waited for as an event.
private final class ListeningPort: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Int, any Error>?
    private var waiters: [CheckedContinuation<Int, any Error>] = []

    func succeed(_ port: Int) { complete(.success(port)) }
    func fail(_ error: any Error) { complete(.failure(error)) }

    /// The first result wins.
    private func complete(_ outcome: Result<Int, any Error>) {
        let ready = lock.withLock { () -> [CheckedContinuation<Int, any Error>] in
            guard result == nil else { return [] }
            result = outcome
            defer { waiters = [] }
            return waiters
        }
        for waiter in ready { waiter.resume(with: outcome) }
    }

    func port() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let known = lock.withLock { () -> Result<Int, any Error>? in
                if let result { return result }
                waiters.append(continuation)
                return nil
            }
            if let known { continuation.resume(with: known) }
        }
    }
}

/// A bare HTTP/1.1 client over one NIO connection, for live-socket tests: requests are sent in order
/// on the connection and answered in order. Every request has a read guard (`Configuration.timeout`,
/// default `liveReadTimeout`): an answer that has not arrived by then fails the request and closes
/// the connection, so a hung server fails a test instead of hanging it. Nothing waits on a clock.
struct TestClient: Sendable {
    struct Configuration: Sendable {
        /// How long one request may wait for its answer.
        var timeout: Duration
        init(timeout: Duration = liveReadTimeout) { self.timeout = timeout }
    }

    struct Request: Sendable {
        var head: HTTPRequest
        var body: ByteBuffer?

        /// `authority` becomes the `Host` header (none when nil).
        init(_ uri: String, method: HTTPRequest.Method, authority: String? = nil, headers: HTTPFields = [:], body: ByteBuffer? = nil) {
            head = HTTPRequest(method: method, scheme: nil, authority: authority, path: uri, headerFields: headers)
            self.body = body
        }
    }

    struct Response: Sendable {
        var head: HTTPResponse
        /// nil when the answer had no body bytes.
        var body: ByteBuffer?

        var status: HTTPResponse.Status { head.status }
        var headers: HTTPFields { head.headerFields }
    }

    enum Failure: Error {
        case readTimeout
        case connectionClosed
        case malformedResponse
    }

    private let channel: any Channel
    private let timeout: TimeAmount

    /// Connects to `host:port`, runs `operation` with the client, then closes the connection.
    static func withClient<Value: Sendable>(host: String, port: Int, configuration: Configuration = .init(),
                                            operation: @Sendable (TestClient) async throws -> Value) async throws -> Value {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(ChannelOptions.socket(SocketOptionLevel(IPPROTO_TCP), TCP_NODELAY), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(ExchangeHandler())
                }
            }
            .connect(host: host, port: port).get()
        let (seconds, attoseconds) = configuration.timeout.components
        let client = TestClient(channel: channel, timeout: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
        do {
            let value = try await operation(client)
            try? await channel.close()
            return value
        } catch {
            try? await channel.close()
            throw error
        }
    }

    /// Sends `request` (with `Content-Length` when it has a body) and waits for its answer.
    func execute(_ request: Request) async throws -> Response {
        let answer = channel.eventLoop.makePromise(of: Response.self)
        let guardTask = channel.eventLoop.scheduleTask(in: timeout) { [channel] in
            answer.fail(Failure.readTimeout)
            channel.close(promise: nil)
        }
        answer.futureResult.whenComplete { _ in guardTask.cancel() }
        channel.writeAndFlush(Exchange(request: request, answer: answer)).whenFailure { answer.fail($0) }
        return try await answer.futureResult.get()
    }

    /// A request and the promise of its answer.
    fileprivate struct Exchange: Sendable {
        var request: Request
        var answer: EventLoopPromise<Response>
    }

    /// Writes each exchange's request as HTTP/1 parts and completes the exchanges' answers in order.
    private final class ExchangeHandler: ChannelDuplexHandler {
        typealias InboundIn = HTTPClientResponsePart
        typealias OutboundIn = Exchange
        typealias OutboundOut = HTTPClientRequestPart

        private var waiting = CircularBuffer<EventLoopPromise<Response>>()
        private var head: HTTPResponseHead?
        private var body: ByteBuffer?

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            let exchange = unwrapOutboundIn(data)
            waiting.append(exchange.answer)
            var headers = HTTPHeaders()
            if let authority = exchange.request.head.authority { headers.add(name: "Host", value: authority) }
            for field in exchange.request.head.headerFields { headers.add(name: field.name.rawName, value: field.value) }
            if let body = exchange.request.body { headers.replaceOrAdd(name: "Content-Length", value: String(body.readableBytes)) }
            let head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: exchange.request.head.method.rawValue),
                                       uri: exchange.request.head.path ?? "/", headers: headers)
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            if let body = exchange.request.body, body.readableBytes > 0 {
                context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
            }
            context.write(wrapOutboundOut(.end(nil)), promise: promise)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let received):
                head = received
                body = nil
            case .body(var part):
                if body == nil { body = part } else { body!.writeBuffer(&part) }
            case .end:
                guard let received = head, let answer = waiting.popFirst() else {
                    context.fireErrorCaught(Failure.malformedResponse)
                    return
                }
                head = nil
                var fields = HTTPFields()
                for (name, value) in received.headers {
                    if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
                }
                let status = HTTPResponse.Status(code: Int(received.status.code), reasonPhrase: received.status.reasonPhrase)
                answer.succeed(Response(head: HTTPResponse(status: status, headerFields: fields), body: body))
                body = nil
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            while let answer = waiting.popFirst() { answer.fail(Failure.connectionClosed) }
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            while let answer = waiting.popFirst() { answer.fail(error) }
            context.close(promise: nil)
        }
    }
}
