import ArgumentParser
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore

/// A position given as one argument, `X,Y` in pixels (`--from 120,80`).
struct PixelArgument: ExpressibleByArgument, Hashable, Sendable {
    /// The position.
    var point: PixelPoint

    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let x = decimalNumber(parts[0]), let y = decimalNumber(parts[1]) else { return nil }
        point = PixelPoint(x: x, y: y)
    }
}

extension LengthUnit: ExpressibleByArgument {}

/// A paper scale `1:100` as an option's value.
struct PaperScaleArgument: ExpressibleByArgument, Hashable, Sendable {
    var paper: Double
    var reality: Double

    init?(argument: String) {
        guard let (paper, reality) = CalibrationJSON.parseScale(argument) else { return nil }
        self.paper = paper
        self.reality = reality
    }
}

/// `planmark drawing calibrate NAME --from X1,Y1 --to X2,Y2 --distance D [--unit m|mm|ft]` or
/// `planmark drawing calibrate NAME --paper-scale 1:100 [--dpi 300]` (a PDF drawing's dpi by default).
struct DrawingCalibrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Set a drawing's scale (metres per pixel) from two points a known distance apart, or from its paper scale and dpi.",
        discussion: """
        Two points: --from X1,Y1 --to X2,Y2 --distance D [--unit m|mm|ft] (pixels of the full-resolution image; \
        the scale is D in metres over the points' distance in pixels). Paper scale: --paper-scale 1:100 --dpi 300 \
        (a pixel is 0.0254/300 m of paper, standing for 100 times as much; a PDF drawing knows its dpi, so --dpi may be \
        left out). A later calibration replaces the \
        earlier one. With a scale, region exports carry area (m2) and perimeter (m), and 'planmark measure' \
        works. Exit status: 0 calibrated, 64 not exactly one of the two forms or a bad value, 66 no such drawing, 74 store I/O.
        """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The drawing's name.")
    var name: String

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("One end of a known distance, in pixels.", valueName: "x,y"))
    var from: PixelArgument?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("The other end, in pixels.", valueName: "x,y"))
    var to: PixelArgument?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("The distance between --from and --to in reality.", valueName: "d"))
    var distance: DecimalArgument?

    @Option(name: .long, help: "The unit of --distance: m (default), mm or ft.")
    var unit: LengthUnit?

    @Option(name: .long, help: ArgumentHelp("The sheet's paper scale, e.g. 1:100.", valueName: "1:n"))
    var paperScale: PaperScaleArgument?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("The image's resolution in pixels per inch of paper (with --paper-scale; a PDF drawing's own by default).", valueName: "dpi"))
    var dpi: DecimalArgument?

    /// The calibration the options describe, with `drawingDPI` (a PDF drawing's) when --dpi is not given.
    func calibration(drawingDPI: Int? = nil) -> Calibration? {
        if let from, let to, let distance {
            return .twoPoints(from: from.point, to: to.point, distance: distance.value, unit: unit ?? .m)
        }
        if let paperScale, let dpi = dpi?.value ?? drawingDPI.map(Double.init) {
            return .paperScale(paper: paperScale.paper, reality: paperScale.reality, dpi: dpi)
        }
        return nil
    }

    func validate() throws {
        let twoPoints = from != nil || to != nil || distance != nil || unit != nil
        let paper = paperScale != nil || dpi != nil
        guard twoPoints != paper else {
            throw ValidationError("give either --from, --to and --distance [--unit], or --paper-scale and --dpi (exactly one form)")
        }
        if twoPoints {
            guard from != nil, to != nil, distance != nil else { throw ValidationError("--from, --to and --distance go together") }
            guard distance!.value > 0 else { throw ValidationError("--distance must be positive") }
            guard from!.point != to!.point else { throw ValidationError("--from and --to must be two different points") }
        } else {
            guard paperScale != nil else { throw ValidationError("--dpi goes with --paper-scale") }
            if let dpi { guard dpi.value > 0 else { throw ValidationError("--dpi must be positive") } }
        }
        // Without --dpi the drawing's own is checked once it is read (any positive dpi gives a scale).
        guard calibration(drawingDPI: 300)?.metresPerPixel != nil else { throw ValidationError("the calibration gives no usable scale") }
    }

    func run() async throws {
        try await storeCommand {
            let store = try await storeOptions.open()
            var drawingDPI: Int?
            if paperScale != nil && dpi == nil {
                drawingDPI = try await store.drawing(named: name).drawing.pdf?.dpi
                guard drawingDPI != nil else {
                    throw CommandFailure(place: "--dpi", message: "drawing \"\(name)\" is an image, not a PDF page: give its resolution", code: Exit.usage)
                }
            }
            let drawing = try await store.calibrate(name, with: calibration(drawingDPI: drawingDPI)!)
            let out = StandardOutput()
            try out.write("calibrated drawing \"\(drawing.name)\": \(Quantity.metresPerPixel.text(drawing.metresPerPixel!)) m per pixel ("
                          + CalibrationText.describe(drawing.calibration!) + ")\n")
            try out.flush()
        }
    }
}

/// A calibration in words, for the text outputs.
enum CalibrationText {
    /// `2 points (0, 0)-(400, 0) = 4 m`, or `paper scale 1:100 at 300 dpi`.
    static func describe(_ calibration: Calibration) -> String {
        switch calibration {
        case let .twoPoints(from, to, distance, unit):
            return "2 points (\(JSONNumber.text(from.x)), \(JSONNumber.text(from.y)))-(\(JSONNumber.text(to.x)), \(JSONNumber.text(to.y)))"
                + " = \(JSONNumber.text(distance)) \(unit.rawValue)"
        case let .paperScale(paper, reality, dpi):
            return "paper scale \(CalibrationJSON.scaleText(paper: paper, reality: reality)) at \(JSONNumber.text(dpi)) dpi"
        }
    }
}
