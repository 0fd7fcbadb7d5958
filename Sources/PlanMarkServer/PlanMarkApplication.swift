import Hummingbird
import HummingbirdCore
import Logging
import PlanMarkPDFProcess
import PlanMarkRender
import PlanMarkStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds the PlanMark HTTP service: router, middleware and application.
public enum PlanMarkApplication {
    /// The router with every endpoint (HEAD wherever GET), behind (outermost first) request logging,
    /// the `Host` check, CORS (when an origin is configured; preflights need no token), JSON errors,
    /// the `Origin` check of writes, bearer-token checks (when a token is configured) and 405 for known
    /// paths with another method. `boundPort` is the port the `Host` check expects (default: the configured one).
    /// `page`, when given, is served at `/`, `/app/...`, `/leaflet/...` and `/leaflet.markercluster/...` after
    /// the `Host` check and before the token check (the page asks for the token and sends it with every API call).
    public static func router(configuration: ServerConfiguration, store: StoreAccess, logger: Logger,
                              renderer: ReviewRenderer = ReviewRenderer(), page: ReviewPageFiles? = nil) -> Router<PlanMarkRequestContext> {
        router(configuration: configuration, store: store, logger: logger, renderer: renderer, boundPort: BoundPort(configuration.port),
               page: page)
    }

    static func router(configuration: ServerConfiguration, store: StoreAccess, logger: Logger,
                       renderer: ReviewRenderer, boundPort: BoundPort,
                       validationLimiter: ConcurrencyLimiter? = nil, tileCache: TileCache? = nil,
                       page: ReviewPageFiles? = nil, metrics: ServerMetrics = ServerMetrics(),
                       signInThrottle: SignInThrottle = SignInThrottle(), hub: ChangeHub? = nil) -> Router<PlanMarkRequestContext> {
        // Renders, reports and tile pyramids share one bound; store calls are awaited (the store works on its own queues).
        let heavy = HeavyWork(limit: configuration.maxHeavyJobs, queueLimit: configuration.heavyQueue, logger: logger)
        let store = store.measured(by: metrics)
        let router = Router(context: PlanMarkRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: HeadResponseMiddleware())
        router.add(middleware: RequestLogMiddleware(logger: logger))
        // Every request, refused or not, by its route's template (GET /metrics, behind the token like the rest).
        router.add(middleware: RequestMetricsMiddleware(metrics: metrics, routes: PlanMarkRoutes.table, page: page))
        router.add(middleware: HostCheckMiddleware(policy: HostPolicy(configuration), boundPort: boundPort))
        if let page {
            router.add(middleware: ReviewPageMiddleware(page: page))
        }
        if let origin = configuration.corsOrigin {
            router.add(middleware: CORSHeadersMiddleware(origin: origin))
        }
        router.add(middleware: ErrorMiddleware(logger: logger))
        router.add(middleware: OriginCheckMiddleware(corsOrigin: configuration.corsOrigin))
        router.add(middleware: SignInMiddleware(operatorToken: configuration.token, store: store, throttle: signInThrottle))
        router.add(middleware: MethodNotAllowedMiddleware(routes: PlanMarkRoutes.table))
        let cache = tileCache ?? TileCache(root: configuration.tileCacheDirectory ?? defaultTileCache(store), limitBytes: configuration.tileCacheBytes,
                                           heavy: heavy, renderer: PDFRenderer(timeLimit: .milliseconds(Int(configuration.pdfTimeLimit * 1000))),
                                           logger: logger)
        let tiles = TileEndpoint(cache: cache, privateCaching: configuration.token != nil, metrics: metrics)
        let hub = hub ?? ChangeHub(store: store, limit: configuration.maxStreams, logger: logger)
        // A big sheet added or revised by anyone has its pyramid made before anyone opens it.
        hub.whenDrawingsChange { [store] change in await tiles.warm(after: change, store: store) }
        let routes = PlanMarkRoutes(
            store: store, bodies: RequestBodyReader(limit: configuration.maxBodyBytes),
            attachmentBodies: RequestBodyReader(limit: configuration.maxAttachmentBytes),
            review: ReviewImageService(renderer: renderer, heavy: heavy),
            validate: ValidateEndpoint(maxVertices: configuration.maxVertices, maxMarkers: configuration.maxMarkers,
                                       limiter: validationLimiter ?? ConcurrencyLimiter(limit: configuration.maxValidations)),
            tiles: tiles, metrics: metrics,
            markerLists: MarkerListCache(limitBytes: configuration.markerListCacheBytes),
            hub: hub)
        routes.add(to: router)
        return router
    }

    /// The tile folder a server uses when not told (`TileFolder.defaultRoot`).
    static func defaultTileCache(_ store: StoreAccess) -> String {
        TileFolder.defaultRoot(storeFile: store.store.file)
    }

    /// The application: checks the configuration (a token is required beyond loopback), then binds
    /// `host:port` when run. `onListening` receives the bound port (useful with port 0).
    ///
    /// Each connection is counted against `maxConnections` and closed when it sends no whole request head
    /// within `headTimeout` (`idleTimeout` after an answer) (`Connections`); each request runs in a task cancelled when its client goes away
    /// or `shutdownGrace` after the server is told to stop (`CancellingResponder`).
    ///
    /// `liveEvents`: run the event streams' reader of the change feed (`ChangeHub`) as a service beside the server, so
    /// that streams get changes as they are committed (HummingbirdTesting's router client runs no services: without it,
    /// a stream has its replay only).
    public static func application(
        configuration: ServerConfiguration, store: StoreAccess, logger: Logger,
        renderer: ReviewRenderer = ReviewRenderer(), page: ReviewPageFiles? = nil, liveEvents: Bool = true,
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws(ServerConfigurationError) -> some ApplicationProtocol {
        try application(configuration: configuration, store: store, logger: logger, renderer: renderer, tileCache: nil, page: page,
                        liveEvents: liveEvents, onListening: onListening)
    }

    /// The application with a given tile cache (tests look into it) and sign-in throttle (tests give it their clock).
    static func application(
        configuration: ServerConfiguration, store: StoreAccess, logger: Logger, renderer: ReviewRenderer = ReviewRenderer(),
        tileCache: TileCache?, page: ReviewPageFiles? = nil, signInThrottle: SignInThrottle = SignInThrottle(), liveEvents: Bool = true,
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws(ServerConfigurationError) -> some ApplicationProtocol {
        try configuration.validate()
        let boundPort = BoundPort(configuration.port)
        // The event streams' one reader of the change feed runs as a service beside the server (and stops every stream
        // when the server stops).
        let hub = ChangeHub(store: store, limit: configuration.maxStreams, logger: logger)
        let router = router(configuration: configuration, store: store, logger: logger, renderer: renderer, boundPort: boundPort,
                            tileCache: tileCache, page: page, signInThrottle: signInThrottle, hub: hub)
        let connections = Connections(limit: configuration.maxConnections, headTimeout: .seconds(configuration.headTimeout),
                                      idleTimeout: .seconds(configuration.idleTimeout))
        return Application(
            responder: CancellingResponder(router: router.buildResponder(), connections: connections,
                                           shutdownGrace: .seconds(configuration.shutdownGrace)),
            server: .http1(configuration: HTTP1Channel.Configuration(additionalChannelHandlers: [connections.handler()])),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: "planmark"),
            services: liveEvents ? [hub] : [],
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                boundPort.set(port)
                await onListening(port)
            },
            logger: logger
        )
    }
}
