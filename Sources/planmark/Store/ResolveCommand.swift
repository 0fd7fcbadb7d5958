import ArgumentParser
import PlanMarkStore

/// `planmark resolve NAME NUMBER`.
struct ResolveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "resolve", abstract: "Mark a marker as resolved.")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The drawing's name.") var name: String
    @Argument(help: "The marker's number.") var number: Int
    @OptionGroup var author: AuthorOption

    func run() throws {
        try setStatus(.closed, storeOptions: storeOptions, name: name, number: number, author: author)
    }
}

/// `planmark reopen NAME NUMBER`.
struct ReopenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "reopen", abstract: "Open a resolved marker again.")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The drawing's name.") var name: String
    @Argument(help: "The marker's number.") var number: Int
    @OptionGroup var author: AuthorOption

    func run() throws {
        try setStatus(.open, storeOptions: storeOptions, name: name, number: number, author: author)
    }
}

/// Resolves or reopens a marker and says so.
private func setStatus(_ status: MarkerStatus, storeOptions: StoreOptions, name: String, number: Int, author: AuthorOption) throws {
    try storeCommand {
        let marker = try storeOptions.open().setStatus(status, ofMarker: number, in: name, author: author.resolved)
        let out = StandardOutput()
        try out.write("\(status == .closed ? "resolved" : "reopened") \(marker.number)\n")
        try out.flush()
    }
}
