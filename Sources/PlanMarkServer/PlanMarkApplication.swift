import Hummingbird
import Logging
import PlanMarkRender

/// Builds the PlanMark HTTP service: router, middleware and application.
public enum PlanMarkApplication {
    /// The router with every endpoint, behind (outermost first) request logging, CORS (when an
    /// origin is configured; preflights need no token), JSON errors and bearer-token checks (when a token is).
    public static func router(configuration: ServerConfiguration, store: StoreAccess, logger: Logger,
                              renderer: ReviewRenderer = ReviewRenderer()) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: RequestLogMiddleware(logger: logger))
        if let origin = configuration.corsOrigin {
            router.add(middleware: CORSHeadersMiddleware(origin: origin))
        }
        router.add(middleware: ErrorMiddleware(logger: logger))
        if let token = configuration.token {
            router.add(middleware: BearerTokenMiddleware(token: token))
        }
        let routes = PlanMarkRoutes(
            store: store, bodies: RequestBodyReader(limit: configuration.maxBodyBytes),
            review: ReviewImageService(renderer: renderer))
        routes.add(to: router)
        return router
    }

    /// The application: checks the configuration (a token is required beyond loopback), then binds
    /// `host:port` when run. `onListening` receives the bound port (useful with port 0).
    public static func application(
        configuration: ServerConfiguration, store: StoreAccess, logger: Logger,
        renderer: ReviewRenderer = ReviewRenderer(),
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws(ServerConfigurationError) -> some ApplicationProtocol {
        try configuration.validate()
        let router = router(configuration: configuration, store: store, logger: logger, renderer: renderer)
        return Application(
            router: router,
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: "planmark"),
            onServerRunning: { channel in
                await onListening(channel.localAddress?.port ?? configuration.port)
            },
            logger: logger
        )
    }
}
