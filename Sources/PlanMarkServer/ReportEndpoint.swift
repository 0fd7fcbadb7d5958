import Hummingbird
import Logging
import ServiceLifecycle
import PlanMarkReport
import PlanMarkStore

/// `GET /drawings/{name}/report.pdf`: the punch-list report (`planmark report`) as a PDF.
///
/// Built as a heavy job (`HeavyWork`, bounded with renders and tile pyramids: a report decodes the drawing, as a
/// render does; 503 `server-busy` when they are all taken), never on the threads store calls use. The PDF is streamed: cairo's output goes through
/// a `ReportPipe` of at most 1 MiB to the response as it is made, so the service never holds a whole report. A
/// report that ends within its first 256 KiB is answered whole (with `Content-Length`, and with the proper JSON
/// error when it fails); a longer one is sent chunked, and a failure after its first bytes closes the connection
/// without the last chunk (a client sees a broken transfer, never a silently shorter PDF).
///
/// The report stops being built (`ReportError.cancelled`, checked between blocks, photos and pages) when its
/// client goes away (a write to it fails), when the request's task is cancelled, and when the service is told to
/// stop (graceful shutdown, SIGTERM).
enum ReportEndpoint {
    /// Query: the marker filters of `GET .../markers` (`status`, `category`, `assignee`, `priority`, `room`,
    /// `overdue`, `q`), `groupBy=room|assignee|status`, `paper=a4|letter`, `signOff=Name, Role` (repeatable, in
    /// order: the sign-off block, as `planmark report --sign-off`).
    /// A report that stops early is logged (`report of drawing "NAME" stopped: ...`, info) with `logger`.
    static func respond(to request: Request, name: String, store: StoreAccess, heavy: HeavyWork, visibleTo visible: [String]? = nil,
                        logger: Logger = Logger(label: "planmark-server")) async throws -> Response {
        let query = try QueryParameters(request)
        try query.onlyKeys(QueryParameters.filterKeys.union(["groupBy", "paper", "signOff"]))
        var filter = try query.markerFilter(allowAll: true)
        filter.assignedToAnyOf = visible
        var grouping: ReportGrouping?
        if let text = query.nonEmpty("groupBy") {
            guard let value = ReportGrouping(rawValue: text) else {
                throw APIError.invalidField("groupBy", "expected room, assignee or status, found \"\(text)\"")
            }
            grouping = value
        }
        var paper = ReportPaper.a4
        if let text = query.nonEmpty("paper") {
            guard let value = ReportPaper(rawValue: text) else { throw APIError.invalidField("paper", "expected a4 or letter, found \"\(text)\"") }
            paper = value
        }
        var options = ReportOptions(filter: filter, grouping: grouping, paper: paper)
        for text in query.all["signOff"] ?? [] {
            guard let signatory = ReportSignatory(parsing: text) else {
                throw APIError.invalidField("signOff", "expected \"Name\" or \"Name, Role\", found \"\(text)\"")
            }
            options.signOff.append(signatory)
        }
        let pipe = ReportPipe()
        make(name: name, options: options, store: store, heavy: heavy, into: pipe, logger: logger)
        let headers: HTTPFields = [.contentType: "application/pdf", .cacheControl: "no-store"]
        let ended = await withTaskCancellationHandler { await pipe.waitForStart() } onCancel: { pipe.cancel() }
        if ended {
            // The whole report (or its failure) is there: answer it with its length, or the error.
            var buffer = ByteBuffer()
            while true {
                switch await pipe.next() {
                case .chunk(let bytes): buffer.writeBytes(bytes)
                case .end(.success): return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: buffer))
                case .end(.failure(let end)): throw apiError(end)
                }
            }
        }
        if request.method == .head {
            pipe.cancel()
            return Response(status: .ok, headers: headers)
        }
        let stopper = PipeStopper(pipe)
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            try await withTaskCancellationHandler {
                do {
                    sending: while true {
                        switch await stopper.pipe.next() {
                        case .chunk(let bytes): try await writer.write(ByteBuffer(bytes: bytes))
                        case .end(.success): break sending
                        case .end(.failure(let end)): throw end
                        }
                    }
                    try await writer.finish(nil)
                } catch {
                    // The client went away (or the report failed): stop making it; the connection is closed.
                    stopper.pipe.cancel()
                    throw error
                }
            } onCancel: {
                stopper.pipe.cancel()
            }
        })
    }

    /// Starts making the report into `pipe` in a task of its own (it outlives the handler while the response is
    /// sent), as a heavy job; graceful shutdown cancels the pipe, and so does the handler's task being cancelled.
    static func make(name: String, options: ReportOptions, store: StoreAccess, heavy: HeavyWork, into pipe: ReportPipe, logger: Logger) {
        Task {
            await withGracefulShutdownHandler {
                do {
                    try await heavy.run("report of drawing \"\(name)\"") {
                        if pipe.isCancelled { throw ReportPipeEnd.cancelled }
                        do {
                            let report = try await PunchListReport.load(from: store.store, drawing: name, options: options)
                            let written = try await ReportPDFWriter().write(report, store: store.store, isCancelled: { pipe.isCancelled }) { bytes in
                                guard pipe.write(bytes) else { throw ReportPipeEnd.cancelled }
                            }
                            // A PDF drawing's page that could not be kept as vectors was drawn as pixels: say why.
                            if case .pixels(let reason) = written.sheet {
                                logger.info("report of drawing \"\(name)\": the sheet as pixels: \(reason)")
                            }
                        } catch let error as StoreError {
                            throw ReportPipeEnd.failed(APIError(error))
                        } catch let error as ReportError {
                            switch error {
                            case .cancelled: throw ReportPipeEnd.cancelled
                            case .output(let end as ReportPipeEnd): throw end
                            default: throw ReportPipeEnd.failed(apiError(error))
                            }
                        }
                    }
                    pipe.finish(.success(()))
                } catch let error as APIError {
                    // The heavy jobs are all taken (503 server-busy).
                    pipe.finish(.failure(.failed(error)))
                } catch let end as ReportPipeEnd {
                    if case .cancelled = end {
                        logger.info("report of drawing \"\(name)\" stopped: its client went away, or the service is stopping")
                    }
                    pipe.finish(.failure(end))
                } catch {
                    pipe.finish(.failure(.failed(APIError(.internalServerError, code: "report-failed", message: "the report could not be made",
                                                          detail: String(describing: error)))))
                }
            } onGracefulShutdown: {
                pipe.cancel()
            }
        }
    }

    /// How an early end is answered: a failure as its error, a cancellation (the service is stopping) 503.
    static func apiError(_ end: ReportPipeEnd) -> APIError {
        switch end {
        case .failed(let error): return error
        case .cancelled:
            return .requestCancelled
        }
    }

    /// A report error as the service answers it: store errors as everywhere, anything else 500.
    static func apiError(_ error: ReportError) -> APIError {
        switch error {
        case .store(let error): return APIError(error)
        case .sheet(let error): return (try? APIError.sheet(error)) ?? .requestCancelled
        default:
            return APIError(.internalServerError, code: "report-failed", message: "the report could not be made", detail: error.description)
        }
    }
}

/// Cancels a report's pipe when the response that would have sent it is dropped unsent (the body closure is
/// never run), so that the report's maker never waits for a reader that will not come.
final class PipeStopper: Sendable {
    let pipe: ReportPipe

    init(_ pipe: ReportPipe) { self.pipe = pipe }

    deinit { pipe.cancel() }
}
