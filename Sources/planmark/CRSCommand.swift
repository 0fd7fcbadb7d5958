import ArgumentParser
import PlanMarkFormats
import PlanMarkGeometry

/// `planmark crs`: CRS.Simple conversions, bit-identical to Leaflet and flutter_map.
struct CRSCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crs",
        abstract: "Convert between image pixels and CRS.Simple latLng at a zoom.",
        discussion: """
        Pixels: x grows right, y grows down (origin at the image's top-left). latLng: lat grows up.
        Leaflet: scale = 2^zoom, x = lng*scale, y = -lat*scale.
        flutter_map: scale = 256 * 2^zoom, and latLng is clamped to [-90, 90] x [-180, 180].
        """,
        subcommands: [ToPixel.self, ToLatLng.self, Bounds.self]
    )
}

/// Options shared by the conversion subcommands.
struct CRSOptions: ParsableArguments {
    @Option(name: .long, parsing: .unconditional, help: "The client's zoom, in -64...64 (negative and fractional allowed).")
    var zoom: Zoom

    @Option(name: .long, help: "The client library: leaflet (L.CRS.Simple) or flutter (flutter_map CrsSimple).")
    var crs: CRSFlavour = .leaflet
}

/// Reads the optional coordinate pair of a conversion command.
struct CoordinatePair: ParsableArguments {
    @Argument(parsing: .allUnrecognized, help: "The two numbers to convert; without them, pairs are read from stdin, one a line.")
    var numbers: [String] = []

    func validate() throws {
        guard numbers.isEmpty || numbers.count == 2 else {
            throw ValidationError("give two numbers, or none to read pairs from stdin")
        }
        for text in numbers where decimalNumber(text) == nil {
            throw ValidationError("'\(text)' is not a finite decimal number")
        }
    }

    /// The pair, if given.
    var pair: (Double, Double)? {
        guard numbers.count == 2, let a = decimalNumber(numbers[0]), let b = decimalNumber(numbers[1]) else { return nil }
        return (a, b)
    }
}

/// Converts pairs from the arguments or stdin with `convert`, one result a line, as `A B`.
/// A result that is not finite (a number too large for the zoom) is an error, never printed: exit 64 for
/// the arguments of `command`, 65 for a stdin line (`-:LINE`), in the wording every command uses.
func convertPairs(_ pair: (Double, Double)?, command: String, zoom: Zoom,
                  _ convert: (Double, Double) -> (Double, Double, clamped: Bool)) throws {
    let out = StandardOutput()
    func emit(_ a: Double, _ b: Double, line: Int?) throws {
        let (p, q, clamped) = convert(a, b)
        guard p.isFinite, q.isFinite else {
            try out.flush()
            throw line.map { CommandFailure.notRepresentable("-:\($0)", a, b, zoom: zoom, code: Exit.dataError) }
                ?? CommandFailure.notRepresentable(command, a, b, zoom: zoom, code: Exit.usage)
        }
        if clamped {
            printWarning("\(line.map { "-:\($0)" } ?? command): clamped to flutter_map's [-90, 90] x [-180, 180]")
        }
        try out.write("\(p.description) \(q.description)\n")
    }
    do {
        if let (a, b) = pair {
            try emit(a, b, line: nil)
        } else {
            var lineNumber = 0
            while let line = readLine(strippingNewline: true) {
                lineNumber += 1
                let fields = line.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" || $0 == "\r" })
                if fields.isEmpty { continue }
                guard fields.count == 2 else {
                    try out.flush()
                    throw CommandFailure(place: "-:\(lineNumber)", message: "expected two numbers, found \(fields.count) fields", code: Exit.dataError)
                }
                guard let a = decimalNumber(fields[0]), let b = decimalNumber(fields[1]) else {
                    try out.flush()
                    throw CommandFailure(place: "-:\(lineNumber)", message: "expected two finite decimal numbers, found '\(line)'", code: Exit.dataError)
                }
                try emit(a, b, line: lineNumber)
            }
        }
        try out.flush()
    } catch {
        throw fail(error)
    }
}

extension CRSCommand {
    /// `planmark crs to-pixel`: latLng at a zoom to pixels.
    struct ToPixel: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "to-pixel",
            abstract: "latLng at a zoom to pixels: reads 'LAT LNG', writes 'X Y'."
        )
        @OptionGroup var options: CRSOptions
        @OptionGroup var input: CoordinatePair

        func run() throws {
            let crs = SimpleCRS(options.crs)
            try convertPairs(input.pair, command: "crs to-pixel", zoom: options.zoom) { lat, lng in
                let pixel = crs.pixel(from: LatLng(lat: lat, lng: lng), at: options.zoom)
                return (pixel.x, pixel.y, false)
            }
        }
    }

    /// `planmark crs to-latlng`: pixels at a zoom to latLng.
    struct ToLatLng: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "to-latlng",
            abstract: "Pixels at a zoom to latLng: reads 'X Y', writes 'LAT LNG'."
        )
        @OptionGroup var options: CRSOptions
        @OptionGroup var input: CoordinatePair

        func run() throws {
            let crs = SimpleCRS(options.crs)
            try convertPairs(input.pair, command: "crs to-latlng", zoom: options.zoom) { x, y in
                let pixel = PixelPoint(x: x, y: y)
                let latLng = crs.latLng(from: pixel, at: options.zoom)
                var clamped = false
                if options.crs == .flutter {
                    // The same arithmetic without the clamp.
                    let raw = crs.transformation.untransform(pixel, scale: crs.scale(at: options.zoom))
                    clamped = raw.y != latLng.lat || raw.x != latLng.lng
                }
                return (latLng.lat, latLng.lng, clamped)
            }
        }
    }

    /// `planmark crs bounds`: a drawing's corners in latLng, for an image overlay.
    struct Bounds: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A drawing's bounds in latLng at a zoom (south-west = pixel (0, H), north-east = pixel (W, 0)).",
            discussion: "With --crs flutter, warns when the drawing is too big for the zoom to be shown without clamping."
        )
        @OptionGroup var options: CRSOptions

        @Option(name: .long, help: "The drawing's size in pixels, WxH.")
        var size: DrawingSize

        @Option(name: .long, help: "text (two lines 'southWest LAT LNG', 'northEast LAT LNG') or json.")
        var format: TextOrJSON = .text

        func run() throws {
            let crs = SimpleCRS(options.crs)
            if !crs.representsWithoutClamping(size, at: options.zoom) {
                printWarning("a \(size.width.description)x\(size.height.description) drawing does not fit flutter_map's CrsSimple at zoom \(options.zoom): latLng is clamped to [-90, 90] x [-180, 180]; use a lower zoom")
            }
            let bounds = crs.bounds(of: size, at: options.zoom)
            let out = StandardOutput()
            switch format {
            case .text:
                try out.write("southWest \(bounds.southWest.lat) \(bounds.southWest.lng)\nnorthEast \(bounds.northEast.lat) \(bounds.northEast.lng)\n")
            case .json:
                try out.write(JSONDocument.line(bounds))
            }
            try out.flush()
        }
    }
}
