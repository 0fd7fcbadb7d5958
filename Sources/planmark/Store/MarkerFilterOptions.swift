import ArgumentParser
import PlanMarkFormats
import PlanMarkStore

/// The filter options `planmark markers NAME` and `planmark render NAME` share (one definition, so the two
/// commands take exactly the same filters, as the service's `GET .../markers` and `review.png` do).
struct MarkerFilterOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Only markers with one of these statuses: \(MarkerStatus.names()) (comma-separated; \(MarkerStatus.closedFormerly) = closed, all = any).",
        valueName: "S[,S...]"))
    var status: String?

    @Option(name: .long, help: ArgumentHelp("Only markers of this category (case-insensitive).", valueName: "C"))
    var category: String?

    @Option(name: .long, help: ArgumentHelp("Only markers assigned to this person (case-insensitive).", valueName: "A"))
    var assignee: String?

    @Option(name: .long, help: ArgumentHelp("Only markers with one of these priorities: \(MarkerPriority.names()) (comma-separated).", valueName: "P[,P...]"))
    var priority: String?

    @Option(name: .long, help: ArgumentHelp("Only markers in the room with this id.", valueName: "ID"))
    var room: String?

    @Flag(name: .long, help: "Only overdue markers: due before today (UTC) and not closed or void.")
    var overdue = false

    @Option(name: .long, help: ArgumentHelp("Only markers whose note, category or assignee contains TEXT (case-insensitive).", valueName: "TEXT"))
    var search: String?

    @Flag(name: .long, help: "Only markers that need placing again after a new revision of the sheet ('drawing revise').")
    var needsPlacement = false

    /// True when any filter option was given.
    var isGiven: Bool {
        status != nil || category != nil || assignee != nil || priority != nil || room != nil || overdue || search != nil || needsPlacement
    }

    /// The filter the options describe; an unknown status or priority is a usage error naming its option (exit 64).
    /// - Complexity: O(length of the options' text).
    func filter() throws(CommandFailure) -> MarkerFilter {
        var statuses: Set<MarkerStatus> = []
        for word in Self.words(status) where word != "all" {
            guard let value = MarkerStatus(text: word) else {
                throw CommandFailure(place: "--status", message: "unknown status \"\(word)\" (expected \(Self.statusNames))", code: Exit.usage)
            }
            statuses.insert(value)
        }
        var priorities: Set<MarkerPriority> = []
        for word in Self.words(priority) {
            guard let value = MarkerPriority(rawValue: word) else {
                throw CommandFailure(place: "--priority", message: "unknown priority \"\(word)\" (expected \(Self.priorityNames))", code: Exit.usage)
            }
            priorities.insert(value)
        }
        var filter = MarkerFilter(statuses: statuses, category: category, assignee: assignee, priorities: priorities, room: room,
                                  overdue: overdue, search: search)
        filter.needsPlacement = needsPlacement
        return filter
    }

    /// The comma-separated words of `text` (spaces around them dropped; empty words skipped).
    static func words(_ text: String?) -> [String] {
        guard let text else { return [] }
        return text.split(separator: ",").map { String($0.trimmingSpaces) }.filter { !$0.isEmpty }
    }

    /// `open, in-progress, ready, closed, void`.
    static let statusNames = MarkerStatus.names()
    /// `low, normal, high, critical`.
    static let priorityNames = MarkerPriority.names()
}

extension Substring {
    /// Without leading and trailing spaces.
    var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}

/// Parsers of punch-item values given as arguments: each refuses a bad value as a usage error naming the option.
enum PunchItemArgument {
    /// `text` as a status (`--status`, or the STATUS argument of `planmark status`).
    static func status(_ text: String, place: String) throws(CommandFailure) -> MarkerStatus {
        guard let value = MarkerStatus(text: text) else {
            throw CommandFailure(place: place, message: "unknown status \"\(text)\" (expected \(MarkerFilterOptions.statusNames))", code: Exit.usage)
        }
        return value
    }

    /// `text` as a priority.
    static func priority(_ text: String, place: String = "--priority") throws(CommandFailure) -> MarkerPriority {
        guard let value = MarkerPriority(rawValue: text) else {
            throw CommandFailure(place: place, message: "unknown priority \"\(text)\" (expected \(MarkerFilterOptions.priorityNames))", code: Exit.usage)
        }
        return value
    }

    /// `text` as a due date.
    static func due(_ text: String, place: String = "--due") throws(CommandFailure) -> DueDate {
        guard let value = DueDate(text: text) else {
            throw CommandFailure(place: place, message: "expected a date YYYY-MM-DD, found \"\(text)\"", code: Exit.usage)
        }
        return value
    }
}
