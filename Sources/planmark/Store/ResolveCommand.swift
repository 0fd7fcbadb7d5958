import PlanMarkFormats
import ArgumentParser
import PlanMarkStore

/// `planmark status NAME NUMBER STATUS [--reason TEXT]`: moves a marker through the workflow.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Move a marker through the workflow: \(MarkerStatus.names()).",
        discussion: """
        Allowed changes: open -> in-progress, ready, closed, void; in-progress -> open, ready, closed, void; \
        ready -> closed, open (a rejection: --reason is required and kept in the history), void; \
        closed -> open; void -> open. Prints STATUS NUMBER (`in-progress 7`). A change the workflow does not allow (or to the \
        status the marker has) is refused with exit 1, naming the current and the requested status.
        """
    )

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The drawing's name.") var name: String
    @Argument(help: "The marker's number.") var number: Int
    @Argument(help: ArgumentHelp("The new status: \(MarkerStatus.names()).", valueName: "status")) var status: String
    @Option(name: .long, help: ArgumentHelp("Why (required from ready back to open; kept in the history).", valueName: "text"))
    var reason: String?
    @OptionGroup var author: AuthorOption

    func run() async throws {
        let target: MarkerStatus
        do { target = try PunchItemArgument.status(status, place: "status") } catch { throw fail(error) }
        try await changeStatus(to: target, saying: target.rawValue, reason: reason, storeOptions: storeOptions, name: name, number: number, author: author)
    }
}

/// `planmark resolve NAME NUMBER`: the change to closed.
struct ResolveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve", abstract: "Close a marker (the same as 'planmark status NAME NUMBER closed'); prints resolved NUMBER.")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The drawing's name.") var name: String
    @Argument(help: "The marker's number.") var number: Int
    @Option(name: .long, help: ArgumentHelp("Why (kept in the history).", valueName: "text")) var reason: String?
    @OptionGroup var author: AuthorOption

    func run() async throws {
        try await changeStatus(to: .closed, saying: "resolved", reason: reason, storeOptions: storeOptions, name: name, number: number, author: author)
    }
}

/// `planmark reopen NAME NUMBER [--reason TEXT]`: the change to open.
struct ReopenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reopen",
        abstract: "Open a marker again (the same as 'planmark status NAME NUMBER open'); prints reopened NUMBER.",
        discussion: "From ready this rejects the work: --reason is required and kept in the history."
    )

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The drawing's name.") var name: String
    @Argument(help: "The marker's number.") var number: Int
    @Option(name: .long, help: ArgumentHelp("Why (required from ready; kept in the history).", valueName: "text")) var reason: String?
    @OptionGroup var author: AuthorOption

    func run() async throws {
        try await changeStatus(to: .open, saying: "reopened", reason: reason, storeOptions: storeOptions, name: name, number: number, author: author)
    }
}

/// Changes a marker's status as the workflow allows and says so: `WORD NUMBER` (`resolved 7`, `in-progress 7`).
private func changeStatus(to status: MarkerStatus, saying word: String, reason: String?, storeOptions: StoreOptions, name: String, number: Int,
                          author: AuthorOption) async throws {
    try await storeCommand {
        let store = try await storeOptions.open()
        let marker = try await store.setStatus(status, reason: reason, ofMarker: number, in: name, author: try await author.resolved(in: store))
        try StandardOutput.print("\(word) \(marker.number)\n")
    }
}
