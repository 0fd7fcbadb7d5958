import PlanMarkFormats
import ArgumentParser
import PlanMarkExport
import PlanMarkStore

/// `planmark summary NAME [--format text|json]`: counts of a drawing's markers.
struct SummaryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summary",
        abstract: "Count a drawing's markers by status, priority, room and assignee, and the overdue ones.",
        discussion: """
        json: {"drawing","total","byStatus":{...},"byPriority":{...},"byRoom":{...},"withoutRoom","byAssignee":{...},\
        "unassigned","overdue","filters"}, as GET /drawings/{name}/summary answers. A marker on a shared wall \
        counts for both rooms. The filters (as for `planmark markers`) choose the markers counted.
        """
    )


    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The drawing's name.") var name: String
    @Option(name: .long, help: "text or json.") var format: TextOrJSON = .text
    @OptionGroup var filterOptions: MarkerFilterOptions

    func run() async throws {
        try await storeCommand {
            let filter = try filterOptions.filter()
            let store = try await storeOptions.open()
            let drawing = try await store.drawing(named: name).drawing
            let summary = try await store.summary(of: drawing.name, filter: filter)
            let out = StandardOutput()
            switch format {
            case .json:
                try out.write(JSONDocument.line(SummaryJSON(summary, drawing: drawing.name, filter: filter)))
            case .text:
                try out.write(Self.text(summary, filter: filter))
            }
            try out.flush()
        }
    }

    /// The summary for people: one `label: count` line a group, statuses and priorities in workflow order,
    /// rooms and assignees by name.
    /// - Complexity: O(r log r + a log a) for r rooms and a assignees.
    static func text(_ summary: MarkerSummary, filter: MarkerFilter) -> String {
        func list(_ counts: [String: Int]) -> String {
            counts.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).map { "\($0) \(counts[$0]!)" }.joined(separator: ", ")
        }
        var text = ""
        if let filters = filter.summary { text += "filters: \(filters)\n" }
        text += "markers: \(summary.total)\n"
        text += "status: " + MarkerStatus.allCases.map { "\($0.rawValue) \(summary.byStatus[$0] ?? 0)" }.joined(separator: ", ") + "\n"
        text += "priority: " + MarkerPriority.allCases.map { "\($0.rawValue) \(summary.byPriority[$0] ?? 0)" }.joined(separator: ", ") + "\n"
        var rooms = list(summary.byRoom)
        if summary.withoutRoom > 0 { rooms += (rooms.isEmpty ? "" : ", ") + "no room \(summary.withoutRoom)" }
        text += "rooms: \(rooms)\n"
        var assignees = list(summary.byAssignee)
        if summary.unassigned > 0 { assignees += (assignees.isEmpty ? "" : ", ") + "unassigned \(summary.unassigned)" }
        text += "assignees: \(assignees)\n"
        text += "overdue: \(summary.overdue)\n"
        return text
    }
}
