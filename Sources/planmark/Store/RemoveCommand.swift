import ArgumentParser
import PlanMarkStore

/// `planmark remove NAME NUMBER`.
struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a marker (its history is kept; its number is never given again)."
    )

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The drawing's name.") var name: String
    @Argument(help: "The marker's number.") var number: Int
    @OptionGroup var author: AuthorOption

    func run() async throws {
        try await storeCommand {
            let store = try await storeOptions.open()
            let marker = try await store.removeMarker(number, in: name, author: try await author.resolved(in: store))
            try StandardOutput.print("removed \(marker.number)\n")
        }
    }
}
