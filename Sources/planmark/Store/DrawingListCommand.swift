import ArgumentParser
import PlanMarkExport
import PlanMarkFormats
import PlanMarkStore

/// Output formats of `drawing list` and `drawing show`.

/// `planmark drawing list`.
struct DrawingListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the drawings in the store.")

    @OptionGroup var storeOptions: StoreOptions

    @Option(name: .long, help: "text or json.")
    var format: TextOrJSON = .text

    func run() async throws {
        try await storeCommand {
            let summaries = try await storeOptions.open().drawings()
            let out = StandardOutput()
            switch format {
            case .text:
                for summary in summaries {
                    let d = summary.drawing
                    // A PDF drawing's page and resolution come last, as a seventh column; a PNG drawing's line has six.
                    let source = d.pdf.map { "\t\($0)" } ?? ""
                    try out.write("\(d.name)\t\(d.width)x\(d.height)\tzoom \(d.zoom)\t\(d.crs.rawValue)\t\(summary.markerCount) markers\t\(summary.regionCount) regions\(source)\n")
                }
            case .json:
                try out.write(DrawingJSON.list(summaries, image: \.imagePath))
            }
            try out.flush()
        }
    }
}
