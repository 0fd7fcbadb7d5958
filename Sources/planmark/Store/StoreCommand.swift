import ArgumentParser

/// `planmark store`: whole-store operations.
struct StoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Whole-store operations: copy a store between SQLite and PostgreSQL.",
        subcommands: [StoreMigrateCommand.self]
    )
}
