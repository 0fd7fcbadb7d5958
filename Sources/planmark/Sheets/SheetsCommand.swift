import ArgumentParser

/// `planmark sheets`: a PDF sheet set as many drawings, one a page.
struct SheetsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sheets",
        abstract: "Add a PDF sheet set as drawings (one a page, named from the PDF), or take a newer issue of the set.",
        subcommands: [SheetsAddCommand.self, SheetsReviseCommand.self]
    )
}
