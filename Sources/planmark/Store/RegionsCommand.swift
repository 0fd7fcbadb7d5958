import ArgumentParser

/// `planmark regions`: replace or export a drawing's regions.
struct RegionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "regions",
        abstract: "Replace or export a drawing's regions (rooms and allowed areas).",
        subcommands: [RegionsImportCommand.self, RegionsExportCommand.self]
    )
}
