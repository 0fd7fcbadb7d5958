import ArgumentParser
import PlanMarkFormats
import PlanMarkStore

/// `planmark move NAME NUMBER X Y`.
struct MoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move",
        abstract: "Move a marker (validated like a new one; its rooms are recomputed)."
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The drawing's name.")
    var name: String

    @Argument(help: "The marker's number.")
    var number: Int

    @OptionGroup var position: MarkerPosition

    @OptionGroup var author: AuthorOption

    func run() async throws {
        try await storeCommand {
            let store = try await storeOptions.open()
            let drawing = try await store.drawing(named: name).drawing
            let marker = try await store.moveMarker(number, in: name, to: position.pixel(on: drawing, command: "move"), author: try await author.resolved(in: store))
            try StandardOutput.print("moved \(marker.number) to " + JSONNumber.text(marker.position.x) + " " + JSONNumber.text(marker.position.y) + "\n")
        }
    }
}
