import ArgumentParser
import PlanMarkFormats
import PlanMarkRender
import PlanMarkReport
import PlanMarkStore

#if canImport(Glibc)
import Glibc
#endif

/// `planmark report`: the punch-list report of a stored drawing, as a PDF or a static web page.
/// The only command that uses PlanMarkReport (and so cairo).
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write the punch-list report of a drawing: a PDF (default) or a static HTML folder.",
        discussion: """
        planmark report NAME [--status S[,S...]] [--assignee A] [--room ID] ... [--group-by room|assignee|status] \
        [--paper a4|letter] -o REPORT.pdf
        planmark report NAME ... --format html -o DIR

        Page 1: the title, the drawing's name and revision, the date, the filters, the counts by status and the \
        whole sheet with the listed markers. Then one card per marker, never split across pages: number, status, \
        priority, category, assignee, due date (overdue marked), rooms, who raised it and when, note, a crop of \
        the sheet around it with its pin, its photos (JPEG embedded as JPEG, PNG as PNG), its last history \
        entries (--history) and its last comments (--comments). Every page's foot names the drawing, revision \
        and date and says "Page N of M". The filters are those of \
        `planmark markers`; --group-by room groups by the first room covering each marker.

        The PDF appears whole or not at all (a temporary file renamed into place). With --format html, DIR \
        (index.html, sheet.png, crops/, photos/) is written to a temporary folder beside it and renamed; DIR \
        must not exist or be an empty folder. Once written, one line on stderr says what: planmark: report: \
        wrote N pages (M markers) to REPORT.pdf, or N files (M markers) to DIR. For a PDF drawing the PDF's sheet \
        is the page's vectors, its text selectable, and the line ends (the sheet as vectors); a page that cannot \
        be kept so (a Type 1, CFF or Type 3 font, a page too big to carry) is drawn as pixels, and the line ends \
        (the sheet as pixels: why).
        Exit status: 0 written, 64 bad usage, 65 corrupt image, 66 missing store, drawing or font, \
        73 cannot create the output (or DIR is not empty), 74 I/O error.
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case pdf, html
    }

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The stored drawing's name.")
    var name: String

    @OptionGroup(title: "Markers to list") var filterOptions: MarkerFilterOptions

    @Option(name: .long, help: ArgumentHelp("Group the markers by room, assignee or status (default: by number).", valueName: "key"))
    var groupBy: ReportGrouping?

    @Option(name: .long, help: ArgumentHelp("Page size of the PDF: a4 or letter.", valueName: "size"))
    var paper: ReportPaper = .a4

    @Option(name: .long, help: "pdf (a file) or html (a folder).")
    var format: Format = .pdf

    @Option(name: .long, help: "The title on page 1.")
    var title: String = "Punch list"

    @Option(name: .long, help: ArgumentHelp("How many of each marker's last history entries to list.", valueName: "n"))
    var history: Int = 3

    @Option(name: .long, help: ArgumentHelp("How many of each marker's last comments to list (0: none).", valueName: "n"))
    var comments: Int = 3

    @Option(name: .customLong("sign-off"), help: ArgumentHelp("Someone who signs the report off, \"Name, Role\" (repeat for each): a block with lines for the date and signature ends the report.", valueName: "name, role"))
    var signOff: [String] = []

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The PDF file, or the folder for --format html.", valueName: "path"))
    var output: String

    func validate() throws {
        guard !output.isEmpty, output != "-" else { throw ValidationError("-o needs a file (PDF) or folder (HTML) name") }
        guard history >= 0 else { throw ValidationError("--history must not be negative") }
        guard comments >= 0 else { throw ValidationError("--comments must not be negative") }
        for text in signOff where ReportSignatory(parsing: text) == nil {
            throw ValidationError("--sign-off needs a name (\"Name, Role\"), found \"\(text)\"")
        }
        if format == .html && paper != .a4 { throw ValidationError("--paper goes with the PDF format") }
    }

    func run() async throws {
        let filter = try { () throws -> MarkerFilter in
            do { return try filterOptions.filter() } catch { throw fail(error) }
        }()
        let store = try await storeOptions.open()
        var options = ReportOptions(filter: filter, grouping: groupBy, paper: paper, title: title, historyLimit: history,
                                    commentLimit: comments)
        options.signOff = signOff.compactMap(ReportSignatory.init(parsing:))
        do {
            let report = try await PunchListReport.load(from: store, drawing: name, options: options)
            switch format {
            case .pdf:
                let file = try AtomicFile(path: output)
                let written = try await ReportPDFWriter().write(report, store: store) { bytes in try file.write(Array(bytes)) }
                try file.commit()
                printWrote("report", "\(counted(written.pages, "page")) (\(counted(report.markers.count, "marker"))) to \(output)"
                           + Self.sheetNote(written.sheet))
            case .html:
                let folder = try OutputFolder(path: output, what: "the report goes", folders: ReportHTMLWriter.folders)
                var files = 0
                try await ReportHTMLWriter().write(report, store: store) { path, bytes in
                    try folder.writeFile(path, bytes)
                    files += 1
                }
                try folder.commit()
                printWrote("report", "\(counted(files, "file")) (\(counted(report.markers.count, "marker"))) to \(output)")
            }
        } catch let error as ReportError {
            throw fail(Self.failure(error))
        } catch let error as ExitCode {
            throw error
        } catch {
            throw fail(error)
        }
    }

    /// What the line on stderr adds about a PDF drawing's sheet: ` (the sheet as vectors)`, or
    /// ` (the sheet as pixels: REASON)`; nothing for a PNG drawing.
    /// - Complexity: O(the reason's length).
    static func sheetNote(_ sheet: ReportSheetDrawing) -> String {
        switch sheet {
        case .picture: ""
        case .vectors: " (the sheet as vectors)"
        case .pixels(let reason): " (the sheet as pixels: \(reason))"
        }
    }

    /// A report error in the command line's words (the same as the other commands' for store, image and font faults).
    static func failure(_ error: ReportError) -> CommandFailure {
        switch error {
        case .store(let error): return CommandFailure(store: error)
        case .render(let error): return CommandFailure(render: error)
        case .sheet(let error): return CommandFailure(sheet: error)
        case .review(let error): return CommandFailure(review: error)
        case .font(let path, let message): return CommandFailure(place: path, message: message, code: Exit.noInput)
        case .cairo(let message): return CommandFailure(place: "cairo", message: message, code: Exit.ioError)
        case .output(let error): return CommandFailure(error)
        case .cancelled: return CommandFailure(place: "report", message: error.description, code: Exit.ioError)
        }
    }
}

extension ReportGrouping: ExpressibleByArgument {}
extension ReportPaper: ExpressibleByArgument {}
