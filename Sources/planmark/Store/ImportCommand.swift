import ArgumentParser
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore

/// `planmark import NAME MARKERS [--skip-invalid]`: imports a markers file (or a BCF file's topics) atomically.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a markers file (CSV or GeoJSON, as for validate): all rows or none.",
        discussion: """
        Prints how many markers were stored; stderr says which numbers they got and how many rows were \
        skipped because their uuid is stored already (`stored 120, already stored 30`): importing one file \
        twice stores nothing the second time. Invalid rows are listed on stderr; without --skip-invalid \
        nothing is stored when any row is invalid. A BCF file (.bcf, BCF-XML 2.0, 2.1 or 3.0) is read whole: \
        topics PlanMark exported come back at their positions with their fields and comments; topics of other \
        tools are placed at the sheet's centre and flagged needs-placement (no-position); a topic whose Guid \
        is stored already is skipped; a file that is not a BCF zip, a zip bomb, a path leaving the zip or XML \
        with entities is refused and nothing is stored (docs/bcf.md). Exit status: 0 all stored, 1 invalid \
        rows or a refused marker, 65 malformed file, 66 file or drawing missing, 74 store I/O.
        """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The drawing's name.")
    var name: String

    @Argument(help: ArgumentHelp("CSV with a header naming x,y or lat,lng (optionally id, note, author, uuid, status, category, priority, assignee, due, capturedAt; a `planmark markers --format csv` export), a GeoJSON FeatureCollection of Points (the same fields in properties), or a BCF file; - reads stdin.", valueName: "markers"))
    var markers: String

    @Flag(name: .long, help: "Store the valid rows and report the others (exit 1 if any).")
    var skipInvalid = false

    @Option(name: .long, parsing: .unconditional, help: "The zoom of lat,lng rows (default: the drawing's zoom), in the drawing's CRS flavour.")
    var zoom: Zoom?

    @Option(name: .long, help: "The file's format if its extension does not tell: csv, geojson or bcf.")
    var inputFormat: ImportFormat?

    @OptionGroup var author: AuthorOption

    /// Invalid rows listed on stderr before the rest are only counted.
    static let listedRejections = 100

    func run() async throws {
        if isBCF { return try await importBCF() }
        let outcome: ImportOutcome = try await storeCommand {
            let store = try await storeOptions.open()
            let drawing = try await store.drawing(named: name).drawing
            var reader: MarkerFileReader
            do throws(FormatError) {
                reader = try MarkerFileReader(path: markers, format: inputFormat?.markerFile,
                                              conversion: LatLngConversion(crs: SimpleCRS(drawing.crs), zoom: zoom ?? drawing.zoom))
            } catch {
                throw StoreError.input(error)
            }
            return try await store.importMarkers(into: name, from: &reader, skipInvalid: skipInvalid, author: try await author.resolved(in: store))
        }
        for row in outcome.rejected.prefix(Self.listedRejections) {
            let place = row.line > 0 ? "\(markers):\(row.line)" : markers
            let position = row.position.map { " at \($0)" } ?? ""
            printError(CommandFailure(place: place, message: "marker \(row.id)\(position): \(row.reason.rawValue)", code: Exit.invalid).description)
        }
        if outcome.rejected.count > Self.listedRejections {
            printError(CommandFailure(place: markers, message: "... and \(outcome.rejected.count - Self.listedRejections) more invalid rows", code: Exit.invalid).description)
        }
        if !outcome.rejected.isEmpty {
            printError(CommandFailure(place: markers, message: skipInvalid
                ? "\(outcome.rejected.count) of \(outcome.total) rows invalid and skipped"
                : "\(outcome.rejected.count) of \(outcome.total) rows invalid; nothing stored (use --skip-invalid to store the valid ones)",
                code: Exit.invalid).description)
        }
        // Rows whose uuid is stored already (offline capture synced twice) are skipped and counted.
        let counts = "(stored \(outcome.stored), already stored \(outcome.alreadyStored))"
        if outcome.stored > 0 {
            printError("planmark: stored markers \(outcome.numbers.lowerBound)...\(outcome.numbers.upperBound - 1) in \"\(name)\" \(counts)")
        } else if outcome.alreadyStored > 0 {
            printError("planmark: nothing new stored in \"\(name)\" \(counts)")
        }
        try await storeCommand {
            try StandardOutput.print("\(outcome.stored)\n")
        }
        if !outcome.rejected.isEmpty { throw ExitCode(Exit.invalid) }
    }
}

/// What `planmark import` reads: a markers file, or a BCF file.
enum ImportFormat: String, ExpressibleByArgument, CaseIterable {
    case csv, geojson, bcf

    /// The markers file format; nil for BCF.
    var markerFile: MarkerFileFormat? {
        switch self {
        case .csv: .csv
        case .geojson: .geojson
        case .bcf: nil
        }
    }
}
