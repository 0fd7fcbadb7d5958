import ArgumentParser
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore

/// Text or JSON.

/// `planmark measure NAME X1,Y1 X2,Y2 [--format text|json]`: a distance on a calibrated drawing.
struct MeasureCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "measure",
        abstract: "Print the distance in metres between two points of a calibrated drawing.",
        discussion: """
        The points are pixels of the full-resolution image (x right, y down); a point with a negative x \
        (off the sheet) goes after '--', as in 'planmark measure NAME -- -10,5 300,5'. Text: '4.250 m (425.0 px)', metres \
        to the millimetre and pixels to 0.1 px, half away from zero; json: {"drawing","from":[x,y],"to":[x,y],"pixels","metres", \
        "pixelsExact","metresExact"}, pixels and metres rounded the same way, the Exact ones unrounded. \
        Exit status: 0 measured, 1 the drawing has no scale (calibrate it with 'planmark drawing calibrate'), \
        64 bad usage, 66 no such drawing, 74 store I/O.
        """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The drawing's name.")
    var name: String

    @Argument(help: ArgumentHelp("One end, in pixels.", valueName: "x1,y1"))
    var from: PixelArgument

    @Argument(help: ArgumentHelp("The other end, in pixels.", valueName: "x2,y2"))
    var to: PixelArgument

    @Option(name: .long, help: "text or json.")
    var format: TextOrJSON = .text

    func run() async throws {
        try await storeCommand {
            let drawing = try await storeOptions.open().drawingRecord(named: name)
            guard let metresPerPixel = drawing.metresPerPixel else {
                throw StoreError.refused(.noScale(drawing: drawing.name))
            }
            let pixels = from.point.distance(to: to.point)
            let metres = pixels * metresPerPixel
            let out = StandardOutput()
            switch format {
            case .text:
                try out.write(Quantity.metres.text(metres) + " m (" + Quantity.pixels.text(pixels) + " px)\n")
            case .json:
                struct Measured: Encodable {
                    var drawing: String
                    var from, to: [Double]
                    var pixels, metres: JSONFragment
                    var pixelsExact, metresExact: Double
                }
                try out.write(JSONDocument.line(Measured(
                    drawing: drawing.name, from: [from.point.x, from.point.y], to: [to.point.x, to.point.y],
                    pixels: JSONFragment(Quantity.pixels.json(pixels)), metres: JSONFragment(Quantity.metres.json(metres)),
                    pixelsExact: pixels, metresExact: metres)))
            }
            try out.flush()
        }
    }
}
