import ArgumentParser
import PlanMarkExport
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore

/// `planmark drawing show NAME`.
struct DrawingShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one drawing: image (and its PDF page), size, zoom, CRS, marker count, bounds, revisions.")

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The drawing's name.")
    var name: String

    @Option(name: .long, help: "text or json.")
    var format: TextOrJSON = .text

    func run() async throws {
        try await storeCommand {
            let store = try await storeOptions.open()
            let summary = try await store.drawing(named: name)
            let revisions = try await store.revisions(of: name)
            let out = StandardOutput()
            switch format {
            case .text:
                let d = summary.drawing
                let bounds = d.bounds()
                // A PDF drawing says which page at which resolution its image is; a PNG one has no such line.
                let source = d.pdf.map { "source: \($0)\n" } ?? ""
                try out.write("""
                    name: \(d.name)
                    image: \(d.imagePath)
                    \(source)sha256: \(d.imageSHA256)
                    size: \(d.width)x\(d.height) px
                    zoom: \(d.zoom)
                    crs: \(d.crs.rawValue)
                    project: \(summary.project)
                    single marker: \(d.singleMarker ? "yes" : "no")
                    markers: \(summary.markerCount) (next number \(d.nextNumber))
                    regions: \(summary.regionCount)
                    bounds: southWest \(bounds.southWest.lat) \(bounds.southWest.lng), northEast \(bounds.northEast.lat) \(bounds.northEast.lng)
                    created: \(d.createdAt.text)
                    scale: \(d.metresPerPixel.map { Quantity.metresPerPixel.text($0) + " m per pixel (" + CalibrationText.describe(d.calibration!) + ")" } ?? "none (not calibrated)")
                    revision: \(d.revision) of \(revisions.count)

                    """)
                for r in revisions {
                    var line = "revision \(r.number): \(r.width)x\(r.height) px"
                    if let pdf = r.pdf { line += ", \(pdf)" }
                    line += ", \(r.createdAt.text)"
                    if let author = r.author { line += ", by \(author)" }
                    if let t = r.transform {
                        line += ", transform [" + [t.a, t.b, t.c, t.d, t.e, t.f].map(JSONNumber.text).joined(separator: " ") + "]"
                    }
                    if let residual = r.maxResidual { line += ", max residual " + Quantity.pixels.text(residual) + " px" }
                    try out.write(line + ", sha256 \(r.imageSHA256), \(r.imagePath)\n")
                }
            case .json:
                var object = DrawingJSON(summary, image: summary.drawing.imagePath)
                object.revisions = revisions.map { RevisionJSON($0, image: $0.imagePath) }
                try out.write(JSONDocument.line(object))
            }
            try out.flush()
        }
    }
}
