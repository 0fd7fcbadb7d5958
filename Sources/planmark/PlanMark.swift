import ArgumentParser

/// The `planmark` command: annotate floor-plan drawings, validate marker files, render review images.
@main
struct PlanMark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "planmark",
        abstract: "Floor-plan annotation geometry: coordinates, marker validation, store and review images.",
        subcommands: [
            CRSCommand.self,
            ValidateCommand.self,
            DrawingCommand.self,
            RegionsCommand.self,
            MarkCommand.self,
            ImportCommand.self,
            MarkersCommand.self,
            MoveCommand.self,
            ResolveCommand.self,
            ReopenCommand.self,
            RemoveCommand.self,
            NoteCommand.self,
            HistoryCommand.self,
            RenderCommand.self,
            ServeCommand.self,
        ]
    )
}
