import ArgumentParser
import PlanMarkExport

/// The `planmark` command: annotate floor-plan drawings, validate marker files, render review images and tile pyramids.
@main
struct PlanMark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "planmark",
        abstract: "Floor-plan annotation geometry: coordinates, marker validation, store and review images.",
        discussion: "Errors are one line on stderr, planmark: WHERE: what. Exit status: 0 ok, 1 invalid or refused, 64 bad usage, 65 bad input data, 66 missing input, 69 planmark-server or planmark-pdf missing, 73 cannot create the output, 74 I/O error or database unreachable. --store (or $PLANMARK_STORE) names an SQLite file or a PostgreSQL database, postgres://USER@HOST[:PORT]/DATABASE (password from $PGPASSWORD or the URL; never printed).",
        version: "planmark " + PlanMarkVersion.current,
        subcommands: [
            CRSCommand.self,
            ValidateCommand.self,
            DrawingCommand.self,
            SheetsCommand.self,
            RegionsCommand.self,
            MarkCommand.self,
            ImportCommand.self,
            ExportCommand.self,
            MarkersCommand.self,
            SummaryCommand.self,
            MoveCommand.self,
            StatusCommand.self,
            ResolveCommand.self,
            ReopenCommand.self,
            UpdateCommand.self,
            RemoveCommand.self,
            NoteCommand.self,
            AttachCommand.self,
            AttachmentsCommand.self,
            AttachmentCommand.self,
            DetachCommand.self,
            CommentCommand.self,
            CommentsCommand.self,
            HistoryCommand.self,
            ChangesCommand.self,
            MeasureCommand.self,
            RenderCommand.self,
            ReportCommand.self,
            TilesCommand.self,
            ServeCommand.self,
            StoreCommand.self,
            UserCommand.self,
            ProjectCommand.self,
        ]
    )
}
