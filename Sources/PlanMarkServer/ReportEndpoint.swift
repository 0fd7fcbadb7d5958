import Hummingbird
import PlanMarkReport
import PlanMarkStore

/// `GET /drawings/{name}/report.pdf`: the punch-list report (`planmark report`) as a PDF.
///
/// Built as a heavy job (`HeavyWork`, bounded with renders and tile pyramids; a report decodes the drawing,
/// as a render does), cancelled when the client goes away: the writer's output stops at its next bytes.
/// The PDF is held in memory until it is sent.
enum ReportEndpoint {
    /// Query: the marker filters of `GET .../markers` (`status`, `category`, `assignee`, `priority`, `room`,
    /// `overdue`, `q`), `groupBy=room|assignee|status`, `paper=a4|letter`.
    static func respond(to request: Request, name: String, store: StoreAccess, heavy: HeavyWork) async throws -> Response {
        let query = try QueryParameters(request)
        try query.onlyKeys(QueryParameters.filterKeys.union(["groupBy", "paper"]))
        let filter = try query.markerFilter(allowAll: true)
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
        let options = ReportOptions(filter: filter, grouping: grouping, paper: paper)
        let pdf = try await heavy.run("report of drawing \"\(name)\"") { () throws -> [UInt8] in
            var bytes: [UInt8] = []
            do {
                let report = try PunchListReport.load(from: store.store, drawing: name, options: options)
                try Task.checkCancellation()
                try ReportPDFWriter().write(report, store: store.store) {
                    try Task.checkCancellation()  // the client went away, or the server is stopping
                    bytes.append(contentsOf: $0)
                }
            } catch let error as StoreError {
                throw APIError(error)
            } catch let error as ReportError {
                throw apiError(error)
            }
            return bytes
        }
        return Response(status: .ok, headers: [.contentType: "application/pdf", .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: pdf)))
    }

    /// A report error as the service answers it: store errors as everywhere, anything else 500.
    static func apiError(_ error: ReportError) -> any Error {
        switch error {
        case .store(let error): return APIError(error)
        case .output(let error as CancellationError): return error
        default:
            return APIError(.internalServerError, code: "report-failed", message: "the report could not be made", detail: error.description)
        }
    }
}
