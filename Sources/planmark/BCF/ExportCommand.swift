import ArgumentParser
import Foundation
import PlanMarkBCF
import PlanMarkStore

/// `planmark export NAME --format bcf -o FILE.bcf [--bcf-version 2.1|3.0] [--base-url URL] [FILTERS]`.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a drawing's markers for BIM tools: a BCF file (BCF-XML 2.1 or 3.0), one topic per marker.",
        discussion: """
        Each topic carries the marker's number, status, category, priority, due date, note, rooms (as labels), \
        assignee and authors (as e-mail addresses when they are users), its comments and status changes, a \
        snapshot of the sheet around its pin, a reference to the drawing, and its position (planmark.json, which \
        'planmark import NAME FILE.bcf' reads back). The mapping is in docs/bcf.md. The filters are those of \
        'planmark markers'. Exit status: 0 written, 64 bad usage, 65 the drawing's image cannot be read, \
        66 no such store or drawing, 73 cannot create the file, 74 I/O error.
        """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The drawing's name.")
    var name: String

    @Option(name: .long, help: ArgumentHelp("What to write: bcf.", valueName: "format"))
    var format: ExportFormat

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The BCF file to write.", valueName: "file"))
    var output: String

    @Option(name: .customLong("bcf-version"), help: ArgumentHelp("BCF-XML 2.1 (default; what Procore and most tools import) or 3.0.", valueName: "version"))
    var bcfVersion: BCFVersion = .v2_1

    @Option(name: .customLong("base-url"), help: ArgumentHelp("The review page's address: each topic links to its marker there.", valueName: "url"))
    var baseURL: String?

    @OptionGroup var filterOptions: MarkerFilterOptions

    func validate() throws {
        guard !output.isEmpty, output != "-" else { throw ValidationError("-o needs a file name") }
        if let baseURL, !(baseURL.hasPrefix("https://") || baseURL.hasPrefix("http://")) {
            throw ValidationError("--base-url must start with http:// or https://, found \"\(baseURL)\"")
        }
    }

    func run() async throws {
        let filter = try { () throws -> MarkerFilter in
            do { return try filterOptions.filter() } catch { throw fail(error) }
        }()
        let store = try await storeOptions.open()
        do {
            let file = try await BCFExport(version: bcfVersion, baseURL: baseURL).file(from: store, drawing: name, filter: filter)
            let bytes: [UInt8]
            do throws(BCFError) { bytes = try file.zip(date: Date()) } catch { throw BCFExportError.file(error) }
            let out = try AtomicFile(path: output)
            try out.write(bytes)
            try out.commit()
            printWrote("export", "\(counted(file.topics.count, "topic")) (BCF \(bcfVersion.rawValue)) to \(output)")
        } catch let error as BCFExportError {
            throw fail(CommandFailure(export: error))
        } catch let error as ExitCode {
            throw error
        } catch {
            throw fail(error)
        }
    }
}

/// What `planmark export` writes.
enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
    case bcf
}

extension BCFVersion: ExpressibleByArgument {}

extension CommandFailure {
    /// An export's failure: the store's, the sheet's and the file's in their own words.
    init(export error: BCFExportError) {
        switch error {
        case .store(let error): self.init(store: error)
        case .sheet(let error): self.init(sheet: error)
        case .render(let detail): self.init(place: "export", message: "a snapshot could not be drawn: \(detail)", code: Exit.ioError)
        case .file(let error): self.init(place: "export", message: error.description, code: Exit.ioError)
        }
    }

    /// A BCF file that cannot be read: 65 for every fault of the file itself.
    init(bcf error: BCFError, file: String) {
        self.init(place: file, message: error.description, code: Exit.dataError)
    }
}
