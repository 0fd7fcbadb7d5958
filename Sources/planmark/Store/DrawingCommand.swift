import ArgumentParser

/// `planmark drawing`: add, list and show drawings.
struct DrawingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drawing",
        abstract: "Add, list, show, rename, remove, revise and calibrate drawings in the store.",
        subcommands: [DrawingAddCommand.self, DrawingListCommand.self, DrawingShowCommand.self, DrawingRenameCommand.self, DrawingRemoveCommand.self,
                      DrawingReviseCommand.self, DrawingCalibrateCommand.self]
    )
}
