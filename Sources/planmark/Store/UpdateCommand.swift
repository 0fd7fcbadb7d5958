import ArgumentParser
import PlanMarkFormats
import PlanMarkStore

/// `planmark update NAME N [N...] [--status S] [--category C] ...`: changes fields of several markers at once.
struct UpdateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Change fields of one or more markers in one transaction: all of them or none.",
        discussion: """
        Every marker listed gets every change given, or, when any of them is refused (an unknown number, \
        a status change the workflow does not allow), none does: exit 1 or 66 and nothing changed. An empty \
        --category, --assignee or --note clears it. Prints updated NUMBER for each marker.
        """
    )

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The drawing's name.") var name: String
    @Argument(help: ArgumentHelp("The markers' numbers.", valueName: "number")) var numbers: [Int] = []

    @Option(name: .long, help: ArgumentHelp("The new status: \(MarkerStatus.names()) (as the workflow allows).", valueName: "S"))
    var status: String?
    @Option(name: .long, help: ArgumentHelp("Why the status changes (required from ready back to open).", valueName: "text"))
    var reason: String?
    @Option(name: .long, help: ArgumentHelp("The category (at most 100 characters; empty clears it).", valueName: "C"))
    var category: String?
    @Option(name: .long, help: ArgumentHelp("The priority: \(MarkerPriority.names()).", valueName: "P"))
    var priority: String?
    @Option(name: .long, help: ArgumentHelp("Who it is assigned to (empty clears it).", valueName: "A"))
    var assignee: String?
    @Option(name: .long, help: ArgumentHelp("The due date, YYYY-MM-DD.", valueName: "date"))
    var due: String?
    @Flag(name: .long, help: "Clear the due date.")
    var noDue = false
    @Option(name: .long, help: ArgumentHelp("The note (empty clears it).", valueName: "text"))
    var note: String?
    @OptionGroup var author: AuthorOption

    func validate() throws {
        guard !numbers.isEmpty else { throw ValidationError("give at least one marker number") }
        if due != nil && noDue { throw ValidationError("give --due DATE or --no-due, not both") }
        if status == nil && category == nil && priority == nil && assignee == nil && due == nil && !noDue && note == nil {
            throw ValidationError("nothing to change: give --status, --category, --priority, --assignee, --due, --no-due or --note")
        }
        if reason != nil && status == nil { throw ValidationError("--reason goes with --status") }
    }

    /// The change the options describe.
    func change() throws(CommandFailure) -> MarkerChange {
        var change = MarkerChange()
        if let status { change.status = try PunchItemArgument.status(status, place: "--status") }
        change.reason = reason
        if let priority { change.priority = try PunchItemArgument.priority(priority) }
        if let due { change.due = Update(try PunchItemArgument.due(due)) }
        if noDue { change.due = .clear }
        if let category { change.category = category.isEmpty ? .clear : .set(category) }
        if let assignee { change.assignee = assignee.isEmpty ? .clear : .set(assignee) }
        if let note { change.note = note.isEmpty ? .clear : .set(note) }
        return change
    }

    func run() async throws {
        try await storeCommand {
            let change = try change()
            let store = try await storeOptions.open()
            let markers = try await store.updateMarkers(numbers, in: name, change, author: try await author.resolved(in: store))
            let out = StandardOutput()
            for marker in markers { try out.write("updated \(marker.number)\n") }
            try out.flush()
        }
    }
}
