import Hummingbird
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Logs one line a request once it is answered: method, path, status and duration in milliseconds
/// (info); and, at debug level, one line as soon as its head has arrived (`POST /validate started`).
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Where the lines go.
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        logger.debug("\(request.method) \(request.uri.path) started")
        return try await RespondedStatus.next(request, context, next) { status in log(request, status: status, since: start) }
    }

    /// Writes the line; the path is logged without its query (which may carry note text).
    func log(_ request: Request, status: Int, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        logger.info("\(request.method) \(request.uri.path) \(status) \(Self.format(milliseconds))ms")
    }

    /// `milliseconds` with two decimals.
    static func format(_ milliseconds: Double) -> String {
        let hundredths = Int((milliseconds * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
