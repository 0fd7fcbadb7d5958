import Hummingbird
import Metrics
import PlanMarkStore
import Prometheus
import Synchronization

/// One server's metrics, served by `GET /metrics` in the Prometheus text format (docs/metrics.md lists them).
///
/// Each server has its own `PrometheusCollectorRegistry`, and makes its swift-metrics objects through a
/// `PrometheusMetricsFactory` over it, passed explicitly (`factory:`): `MetricsSystem.bootstrap` is never called, so
/// several servers in one process (the tests make many) never mix their figures, and `/metrics` shows exactly the
/// server that answers it.
///
/// Labels are bounded: a route is its template (`/drawings/{name}/markers`, never the path asked for, and never the
/// query), a method one of the few the service knows (`other` beyond them), a status a number; a store operation the
/// name the server gives it.
final class ServerMetrics: Sendable {
    /// The registry `/metrics` renders.
    let registry: PrometheusCollectorRegistry
    /// Makes the swift-metrics objects in `registry`.
    let factory: PrometheusMetricsFactory

    /// Requests answered: `planmark_http_requests_total{route,method,status}`.
    private let requests = Mutex<[RequestKey: CoreMetrics.Counter]>([:])
    /// Time to the answer's head: `planmark_http_request_duration_seconds{route,method}`.
    private let requestDurations = Mutex<[RouteKey: CoreMetrics.Timer]>([:])
    /// Requests being handled: `planmark_http_requests_in_flight`.
    let requestsInFlight: Meter
    /// Store calls: `planmark_store_operations_total{operation,outcome}`.
    private let storeOperations = Mutex<[StoreKey: CoreMetrics.Counter]>([:])
    /// Their time: `planmark_store_operation_duration_seconds{operation}`.
    private let storeDurations = Mutex<[String: CoreMetrics.Timer]>([:])
    /// Store calls being awaited: `planmark_store_calls_in_progress`.
    let storeInProgress: Meter
    /// The store's connections held by calls, calls waiting for one, and the most it uses:
    /// `planmark_store_connections_in_use`, `_waiting`, `_max` (set from `ConnectionUsage` as the metrics are read).
    private let connectionsInUse: Meter
    private let connectionsWaiting: Meter
    private let connectionsMax: Meter
    /// Tile requests found in the cache: `planmark_tile_cache_lookups_total{result="hit"}`.
    let tileHits: CoreMetrics.Counter
    /// Tile requests whose pyramid had to be made (or waited for): `{result="miss"}`.
    let tileMisses: CoreMetrics.Counter
    /// Marker listings answered from `MarkerListCache`: `planmark_marker_list_cache_lookups_total{result="hit"}`.
    let markerListHits: CoreMetrics.Counter
    /// Marker listings read from the store: `{result="miss"}`.
    let markerListMisses: CoreMetrics.Counter

    /// The buckets of the duration histograms, 1 ms to 30 s.
    static let durationBuckets: [Duration] = [
        .milliseconds(1), .microseconds(2500), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
        .seconds(30),
    ]

    /// The `Content-Type` of the Prometheus text format.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// A server's metrics in a registry of their own; the fixed ones (gauges, tile cache) start at 0.
    init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = Self.durationBuckets
        self.factory = factory
        requestsInFlight = Meter(label: "planmark_http_requests_in_flight", factory: factory)
        storeInProgress = Meter(label: "planmark_store_calls_in_progress", factory: factory)
        connectionsInUse = Meter(label: "planmark_store_connections_in_use", factory: factory)
        connectionsWaiting = Meter(label: "planmark_store_connections_waiting", factory: factory)
        connectionsMax = Meter(label: "planmark_store_connections_max", factory: factory)
        let lookups = "planmark_tile_cache_lookups_total"
        tileHits = CoreMetrics.Counter(label: lookups, dimensions: [("result", "hit")], factory: factory)
        tileMisses = CoreMetrics.Counter(label: lookups, dimensions: [("result", "miss")], factory: factory)
        let listings = "planmark_marker_list_cache_lookups_total"
        markerListHits = CoreMetrics.Counter(label: listings, dimensions: [("result", "hit")], factory: factory)
        markerListMisses = CoreMetrics.Counter(label: listings, dimensions: [("result", "miss")], factory: factory)
        for meter in [requestsInFlight, storeInProgress, connectionsInUse, connectionsWaiting, connectionsMax] { meter.set(0) }
    }

    /// Nanoseconds from `start` to now.
    static func nanoseconds(since start: ContinuousClock.Instant) -> Int64 {
        let elapsed = ContinuousClock.now - start
        return elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
    }

    /// The text `/metrics` answers.
    /// - Complexity: O(series).
    func render() -> [UInt8] { registry.emitToBuffer() }

    /// The text format, with the store's connection gauges set from `usage` first.
    func render(connections usage: ConnectionUsage) -> [UInt8] {
        connectionsInUse.set(usage.inUse)
        connectionsWaiting.set(usage.waiting)
        connectionsMax.set(usage.maximum)
        return render()
    }

    // MARK: Requests

    /// A series of `planmark_http_requests_total`.
    struct RequestKey: Hashable {
        var route: String
        var method: String
        var status: Int
    }

    /// A series of `planmark_http_request_duration_seconds`.
    struct RouteKey: Hashable {
        var route: String
        var method: String
    }

    /// Counts a request to `route` (a template) answered with `status` after `nanoseconds` (to its head).
    /// - Complexity: O(1) amortised.
    func recordRequest(route: String, method: HTTPRequest.Method, status: Int, nanoseconds: Int64) {
        let method = Self.methodLabel(method)
        let counter = requests.withLock { made in
            let key = RequestKey(route: route, method: method, status: status)
            if let counter = made[key] { return counter }
            let dimensions = [("route", route), ("method", method), ("status", String(status))]
            let counter = CoreMetrics.Counter(label: "planmark_http_requests_total", dimensions: dimensions, factory: factory)
            made[key] = counter
            return counter
        }
        let timer = requestDurations.withLock { made in
            let key = RouteKey(route: route, method: method)
            if let timer = made[key] { return timer }
            let timer = CoreMetrics.Timer(label: "planmark_http_request_duration_seconds",
                                          dimensions: [("route", route), ("method", method)], factory: factory)
            made[key] = timer
            return timer
        }
        counter.increment()
        timer.recordNanoseconds(max(0, nanoseconds))
    }

    /// The methods labelled by name; any other (a client may send any token) is `other`.
    static let knownMethods: Set<HTTPRequest.Method> = [.get, .head, .post, .put, .patch, .delete, .options]

    /// `method` as a label: its name when known, else `other`.
    static func methodLabel(_ method: HTTPRequest.Method) -> String {
        knownMethods.contains(method) ? method.rawValue : "other"
    }

    // MARK: Store

    /// How a store call ended.
    enum StoreOutcome: String, Sendable {
        /// It returned.
        case ok
        /// The store refused it (no such drawing, a conflict ...: a 4xx answer).
        case refused
        /// It failed (the database unreachable, I/O, a replaced store file ...: a 5xx answer).
        case failed
    }

    /// A series of `planmark_store_operations_total`.
    struct StoreKey: Hashable {
        var operation: String
        var outcome: StoreOutcome
    }

    /// Counts a store call `operation` that ended with `outcome` after `nanoseconds` on its lane.
    /// - Complexity: O(1) amortised.
    func recordStoreOperation(_ operation: String, outcome: StoreOutcome, nanoseconds: Int64) {
        let counter = storeOperations.withLock { made in
            let key = StoreKey(operation: operation, outcome: outcome)
            if let counter = made[key] { return counter }
            let counter = CoreMetrics.Counter(
                label: "planmark_store_operations_total", dimensions: [("operation", operation), ("outcome", outcome.rawValue)],
                factory: factory)
            made[key] = counter
            return counter
        }
        let timer = storeDurations.withLock { made in
            if let timer = made[operation] { return timer }
            let timer = CoreMetrics.Timer(
                label: "planmark_store_operation_duration_seconds", dimensions: [("operation", operation)], factory: factory)
            made[operation] = timer
            return timer
        }
        counter.increment()
        timer.recordNanoseconds(max(0, nanoseconds))
    }
}

/// Counts every request in `ServerMetrics`: by route template, method and status, with the time to its answer's
/// head (a streamed body, the report's, goes on after it).
///
/// Hummingbird's own `MetricsMiddleware` is not used: it records through the process-global `MetricsSystem`
/// (so servers in one process would share their figures) and labels a request by the router's endpoint, which
/// requests refused before routing (401, 421) do not have.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Where the figures go.
    let metrics: ServerMetrics
    /// The service's routes, by which a path is labelled.
    let routes: RouteTable
    /// The review page's files (labelled `review-page`), when served.
    let page: ReviewPageFiles?

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        metrics.requestsInFlight.increment()
        defer { metrics.requestsInFlight.decrement() }
        return try await RespondedStatus.next(request, context, next) { status in record(request, status: status, since: start) }
    }

    func record(_ request: Request, status: Int, since start: ContinuousClock.Instant) {
        metrics.recordRequest(route: route(of: request), method: request.method, status: status,
                              nanoseconds: ServerMetrics.nanoseconds(since: start))
    }

    /// The label of `request`'s path: its route's template, `review-page` for the page's files, else `unmatched`.
    /// - Complexity: O(routes * segments).
    func route(of request: Request) -> String {
        let path = request.uri.path
        if let template = routes.template(for: path) { return template }
        if let page, request.method == .get || request.method == .head, page.file(at: path) != nil { return "review-page" }
        return "unmatched"
    }
}
