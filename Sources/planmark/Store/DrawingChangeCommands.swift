import ArgumentParser
import PlanMarkStore

/// `planmark drawing rename OLD NEW`.
struct DrawingRenameCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename",
        abstract: "Rename a drawing; its markers, regions, history and attachments stay with it. Prints renamed OLD NEW.",
        discussion: "Exit status: 0 renamed, 1 a drawing named NEW exists already, 65 a name with control characters, 66 no drawing OLD."
    )

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The drawing's name.") var old: String
    @Argument(help: "Its new name.") var new: String

    func run() async throws {
        try await storeCommand {
            let drawing = try await storeOptions.open().renameDrawing(old, to: new)
            try StandardOutput.print("renamed \(old) \(drawing.name)\n")
        }
    }
}

/// `planmark drawing remove NAME --yes [--force]`.
struct DrawingRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a drawing with its regions, markers and attachments, in one transaction (its history stays).",
        discussion: """
        Needs --yes (without it: exit 64, nothing removed). Refused with exit 1 while the drawing has markers, \
        unless --force. Prints removed NAME (N markers, M attachments).
        """
    )

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The drawing's name.") var name: String
    @Flag(name: .long, help: "Confirm the removal (required).") var yes = false
    @Flag(name: .long, help: "Remove it even though it has markers (they and their history go with it).") var force = false

    func validate() throws {
        guard yes else { throw ValidationError("removing a drawing cannot be undone: confirm with --yes") }
    }

    func run() async throws {
        try await storeCommand {
            let removal = try await storeOptions.open().removeDrawing(name, force: force)
            try StandardOutput.print("removed \(removal.name) (\(removal.markers) markers, \(removal.attachments) attachments)\n")
        }
    }
}
