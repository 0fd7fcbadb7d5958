import ArgumentParser
import PlanMarkExport
import PlanMarkFormats
import PlanMarkStore

/// `planmark drawing show NAME`.
struct DrawingShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one drawing: image, size, zoom, CRS, marker count, bounds.")

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The drawing's name.")
    var name: String

    @Option(name: .long, help: "text or json.")
    var format: DrawingFormat = .text

    func run() throws {
        try storeCommand {
            let summary = try storeOptions.open().drawing(named: name)
            let out = StandardOutput()
            switch format {
            case .text:
                let d = summary.drawing
                let bounds = d.bounds()
                try out.write("""
                    name: \(d.name)
                    image: \(d.imagePath)
                    sha256: \(d.imageSHA256)
                    size: \(d.width)x\(d.height) px
                    zoom: \(d.zoom)
                    crs: \(d.crs.rawValue)
                    single marker: \(d.singleMarker ? "yes" : "no")
                    markers: \(summary.markerCount) (next number \(d.nextNumber))
                    regions: \(summary.regionCount)
                    bounds: southWest \(bounds.southWest.lat) \(bounds.southWest.lng), northEast \(bounds.northEast.lat) \(bounds.northEast.lng)
                    created: \(d.createdAt.text)
                    scale: \(d.metresPerPixel.map { JSONNumber.text($0) + " m per pixel (" + CalibrationText.describe(d.calibration!) + ")" } ?? "none (not calibrated)")

                    """)
            case .json:
                try out.write(DrawingJSON.object(summary, image: summary.drawing.imagePath) + "\n")
            }
            try out.flush()
        }
    }
}
