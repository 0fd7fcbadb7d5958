import PlanMarkFormats
import PlanMarkStore

/// A drawing's punch-item counts as JSON, the one shape of `planmark summary --format json` and the service's
/// `GET /drawings/{name}/summary`: `{"drawing":NAME,"total":N,"byStatus":{"open":N,"in-progress":N,"ready":N,"closed":N,
/// "void":N},"byPriority":{"low":N,"normal":N,"high":N,"critical":N},"byRoom":{ID:N,...},"withoutRoom":N,
/// "byAssignee":{NAME:N,...},"unassigned":N,"overdue":N,"filters":TEXT|null}`. Every status and priority is present (0
/// when none), in workflow order; rooms and assignees in byte order of their text (`JSONDocument`'s order of a
/// dictionary); `filters` is `MarkerFilter.summary` (null when every marker was counted).
public struct SummaryJSON: Encodable, Sendable {
    public var drawing: String
    public var total: Int
    public var byStatus: OrderedCounts
    public var byPriority: OrderedCounts
    public var byRoom: [String: Int]
    public var withoutRoom: Int
    public var byAssignee: [String: Int]
    public var unassigned: Int
    public var overdue: Int
    @NullWhenAbsent public var filters: String?

    /// The counts of `summary` of `drawing`, made with `filter`.
    /// - Complexity: O(r + a) for r rooms and a assignees (the text sorts their keys: O(r log r + a log a)).
    public init(_ summary: MarkerSummary, drawing: String, filter: MarkerFilter = MarkerFilter()) {
        self.drawing = drawing
        total = summary.total
        byStatus = OrderedCounts(MarkerStatus.allCases.map { ($0.rawValue, summary.byStatus[$0] ?? 0) })
        byPriority = OrderedCounts(MarkerPriority.allCases.map { ($0.rawValue, summary.byPriority[$0] ?? 0) })
        byRoom = summary.byRoom
        withoutRoom = summary.withoutRoom
        byAssignee = summary.byAssignee
        unassigned = summary.unassigned
        overdue = summary.overdue
        filters = filter.summary
    }
}
