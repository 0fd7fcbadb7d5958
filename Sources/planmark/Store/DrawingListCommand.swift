import ArgumentParser
import PlanMarkFormats
import PlanMarkStore

/// Output formats of `drawing list` and `drawing show`.
enum DrawingFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

/// `planmark drawing list`.
struct DrawingListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the drawings in the store.")

    @OptionGroup var storeOptions: StoreOptions

    @Option(name: .long, help: "text or json.")
    var format: DrawingFormat = .text

    func run() throws {
        try storeCommand {
            let summaries = try storeOptions.open().drawings()
            let out = StandardOutput()
            switch format {
            case .text:
                for summary in summaries {
                    let d = summary.drawing
                    try out.write("\(d.name)\t\(d.width)x\(d.height)\tzoom \(d.zoom)\t\(d.crs.rawValue)\t\(summary.markerCount) markers\t\(summary.regionCount) regions\n")
                }
            case .json:
                try out.write("[" + summaries.map(DrawingJSON.object).joined(separator: ",") + "]\n")
            }
            try out.flush()
        }
    }
}

/// A drawing as a JSON object.
enum DrawingJSON {
    /// `{"name":..,"image":..,"sha256":..,"width":..,"height":..,"zoom":..,"crs":..,"singleMarker":..,"markers":..,
    /// "regions":..,"nextNumber":..,"createdAt":..,"bounds":{"southWest":[lat,lng],"northEast":[lat,lng]}}`,
    /// bounds as latLng at the drawing's zoom.
    static func object(_ summary: DrawingSummary) -> String {
        let d = summary.drawing
        let bounds = d.bounds()
        let sw = bounds.southWest, ne = bounds.northEast
        return "{\"name\":\(JSONString.quoted(d.name)),\"image\":\(JSONString.quoted(d.imagePath)),\"sha256\":\"\(d.imageSHA256)\""
            + ",\"width\":\(d.width),\"height\":\(d.height),\"zoom\":\(JSONNumber.text(d.zoom.value)),\"crs\":\"\(d.crs.rawValue)\""
            + ",\"singleMarker\":\(d.singleMarker),\"markers\":\(summary.markerCount),\"regions\":\(summary.regionCount)"
            + ",\"nextNumber\":\(d.nextNumber),\"createdAt\":\"\(d.createdAt.text)\""
            + ",\"bounds\":{\"southWest\":[\(JSONNumber.text(sw.lat)),\(JSONNumber.text(sw.lng))],\"northEast\":[\(JSONNumber.text(ne.lat)),\(JSONNumber.text(ne.lng))]}}"
    }
}
