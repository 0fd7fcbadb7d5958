import ArgumentParser
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore

/// `planmark regions import NAME FILE [--force]`.
struct RegionsImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Replace a drawing's regions in one transaction and reassign the markers' rooms.",
        discussion: """
        The file is a GeoJSON FeatureCollection in pixels or a LabelMe file (top-level shapes, imageWidth, \
        imageHeight): its polygon and rectangle shapes become rooms named by their label (allowed areas when \
        the label starts with 'allowed'; one group_id joins polygons into one room), other shapes are reported \
        on stderr and skipped, and its imageWidth x imageHeight must be the drawing's size (else exit 65). \
        Refused (exit 1, nothing changed) when stored markers would fall outside the new allowed area, unless --force.
        """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The drawing's name.")
    var name: String

    @Argument(help: ArgumentHelp("A regions file: GeoJSON in pixels, or LabelMe JSON made on the drawing's image.", valueName: "file"))
    var file: String

    @Flag(name: .long, help: "Replace the regions even if stored markers end up outside the allowed area.")
    var force = false

    @OptionGroup var author: AuthorOption

    func run() async throws {
        try await storeCommand {
            let store = try await storeOptions.open()
            let drawing = try await store.drawingRecord(named: name)
            let regions: [Region]
            do throws(FormatError) {
                regions = try readRegionsFile(file, drawingSize: drawing.size).regions
            } catch {
                throw StoreError.input(error)
            }
            let result = try await store.replaceRegions(of: name, with: regions, force: force, author: try await author.resolved(in: store))
            if !result.markersOutside.isEmpty {
                printWarning("\(result.markersOutside.count) marker(s) now outside the allowed area (kept because of --force)")
            }
            try StandardOutput.print("imported \(result.regionCount) regions; \(result.markersReassigned) markers changed rooms\n")
        }
    }
}
