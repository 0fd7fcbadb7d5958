import PlanMarkFormats
import PlanMarkStore

/// A drawing's marker counts as JSON, the one shape of `planmark summary NAME --format json` and the
/// service's `GET /drawings/{name}/summary`.
public enum SummaryJSON {
    /// `{"drawing":NAME,"total":N,"byStatus":{"open":N,"in-progress":N,"ready":N,"closed":N,"void":N},
    /// "byPriority":{"low":N,"normal":N,"high":N,"critical":N},"byRoom":{ID:N,...},"withoutRoom":N,
    /// "byAssignee":{NAME:N,...},"unassigned":N,"overdue":N,"filters":TEXT|null}` and a line break.
    /// Every status and priority is present (0 when none); rooms and assignees in byte order of their text;
    /// `filters` is `MarkerFilter.summary` (null when every marker was counted).
    /// - Complexity: O(r log r + a log a) for r rooms and a assignees, plus the length of the text.
    public static func object(_ summary: MarkerSummary, drawing: String, filter: MarkerFilter = MarkerFilter()) -> String {
        var out = ReportBuffer(capacity: 512)
        out.append("{\"drawing\":"); out.appendJSONString(drawing)
        out.append(",\"total\":"); out.appendInteger(Int64(summary.total))
        out.append(",\"byStatus\":{")
        for (index, status) in MarkerStatus.allCases.enumerated() {
            if index > 0 { out.append(",") }
            out.appendJSONString(status.rawValue); out.append(":"); out.appendInteger(Int64(summary.byStatus[status] ?? 0))
        }
        out.append("},\"byPriority\":{")
        for (index, priority) in MarkerPriority.allCases.enumerated() {
            if index > 0 { out.append(",") }
            out.appendJSONString(priority.rawValue); out.append(":"); out.appendInteger(Int64(summary.byPriority[priority] ?? 0))
        }
        out.append("},\"byRoom\":")
        appendCounts(summary.byRoom, to: &out)
        out.append(",\"withoutRoom\":"); out.appendInteger(Int64(summary.withoutRoom))
        out.append(",\"byAssignee\":")
        appendCounts(summary.byAssignee, to: &out)
        out.append(",\"unassigned\":"); out.appendInteger(Int64(summary.unassigned))
        out.append(",\"overdue\":"); out.appendInteger(Int64(summary.overdue))
        out.append(",\"filters\":")
        if let text = filter.summary { out.appendJSONString(text) } else { out.append("null") }
        out.append("}\n")
        return out.text
    }

    /// `{KEY:N,...}` in byte order of the keys.
    /// - Complexity: O(n log n).
    static func appendCounts(_ counts: [String: Int], to out: inout ReportBuffer) {
        out.append("{")
        for (index, key) in counts.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
            if index > 0 { out.append(",") }
            out.appendJSONString(key); out.append(":"); out.appendInteger(Int64(counts[key]!))
        }
        out.append("}")
    }
}

/// A marker's attachments as JSON, the one shape of `planmark attachments NAME N --format json` and the
/// service's `GET /drawings/{name}/markers/{n}/attachments`.
public enum AttachmentJSON {
    /// `{"attachments":[{"id","sha256","size","contentType","caption"},...]}` and a line break, each object
    /// `Attachment.historyJSON` (the service's answer to an upload), oldest first.
    /// - Complexity: O(length of the text).
    public static func list(_ attachments: [Attachment]) -> String {
        "{\"attachments\":[" + attachments.map(\.historyJSON).joined(separator: ",") + "]}\n"
    }
}
