import ArgumentParser
import PlanMarkStore

/// `planmark note NAME NUMBER [TEXT]`: sets or clears a marker's note.
struct NoteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "note", abstract: "Set a marker's note (without TEXT: clear it).")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The drawing's name.") var name: String
    @Argument(help: "The marker's number.") var number: Int
    @Argument(help: "The new note.") var text: String?
    @OptionGroup var author: AuthorOption

    func run() async throws {
        try await storeCommand {
            let store = try await storeOptions.open()
            let marker = try await store.setNote(text, ofMarker: number, in: name, author: try await author.resolved(in: store))
            try StandardOutput.print("noted \(marker.number)\n")
        }
    }
}
