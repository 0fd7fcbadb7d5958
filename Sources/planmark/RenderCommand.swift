import ArgumentParser
import PlanMarkExport
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkRender
import PlanMarkSheets
import PlanMarkStore

/// `planmark render`: the review image, from files or from a stored drawing.
struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a review PNG: the drawing with room outlines and numbered markers coloured by state.",
        discussion: """
        From files:      planmark render --image PLAN.png [--regions FILE] [--markers FILE] -o OUT.png
        From the store:  planmark render NAME [--status S[,S...]] [--category C] [--assignee A] [--priority P[,P...]]
                         [--room ID] [--overdue] [--search TEXT] -o OUT.png
        File markers are validated like `planmark validate` against the regions and the image's size and
        coloured valid or invalid; stored markers are coloured by their status (open, in progress and ready ones
        validated again), overdue ones ringed. Pins are 2% of the output's shorter side across (at least 20 px;
        --marker-size sets it); pins that would overlap are fanned out with a leader line to their position, or
        counted in a "+N" stack badge when there is no room. The filters (as for `planmark markers`) pick the stored markers
        drawn, and the image names them (`Filters: status=open,ready; room=2.05`).
        The legend, title and filters line sit in a margin added right of the drawing or below it (never over it),
        so the PNG is the view times --scale plus that margin. --around N rings marker N in gold, on top.
        --revision K draws revision K of a stored drawing's sheet (see 'drawing show') with each marker where it \
        was on that revision (where the next revision's alignment carried it from); markers created on a later \
        revision are left out, and room outlines are drawn for the current revision only.
        `-o -` writes the PNG to stdout. The file appears whole or not at all.
        Exit status: 0 written, 64 bad usage, 65 corrupt or refused image, 66 missing file, drawing or marker,
        73 cannot create the output, 74 I/O error.
        """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "A stored drawing's name (leave out with --image).")
    var name: String?

    @Option(name: .long, help: ArgumentHelp("The drawing's PNG (renders from files instead of the store).", valueName: "png"))
    var image: String?

    @Option(name: .long, help: ArgumentHelp("Regions GeoJSON in pixels or LabelMe JSON (with --image).", valueName: "file"))
    var regions: String?

    @Option(name: .long, help: ArgumentHelp("Markers CSV or GeoJSON (with --image), as for `planmark validate`.", valueName: "file"))
    var markers: String?

    @Flag(name: .long, help: "Check markers against the image's size (always done; kept for scripts that pass it).")
    var sizeFromImage = false

    @Option(name: .long, parsing: .unconditional, help: "The zoom of lat,lng markers (with --image).")
    var zoom: Zoom?

    @Option(name: .long, help: "The CRS flavour of lat,lng markers: leaflet or flutter.")
    var crs: CRSFlavour = .leaflet

    @Option(name: .long, help: "The markers file's format, if its extension does not tell: csv or geojson.")
    var inputFormat: MarkerFileFormat?

    @OptionGroup(title: "Stored markers to draw") var filterOptions: MarkerFilterOptions

    @Option(name: .long, help: ArgumentHelp("A stored drawing's revision K (default: the current one).", valueName: "K"))
    var revision: Int?

    @Flag(name: .long, help: "Draw a legend with the count of markers in each state.")
    var legend = false

    @Option(name: .long, help: "A title drawn in the panel beside the drawing.")
    var title: String?

    @Option(name: .long, help: ArgumentHelp("Crop around one marker, ringed: its id (files) or number (store).", valueName: "marker"))
    var around: String?

    @Option(name: .long, help: ArgumentHelp("With --around: pixels of drawing to keep on each side.", valueName: "px"))
    var margin: Int = 300

    @Option(name: .long, help: ArgumentHelp("Scale the output by F (0 < F <= 1) for a smaller preview.", valueName: "F"))
    var scale: Double = 1

    @Option(name: .long, help: ArgumentHelp(
        "Pin diameter in output pixels (default: 2% of the output's shorter side, at least 20); labels and legend follow.",
        valueName: "px"))
    var markerSize: Double?

    @Option(name: .long, help: "Refuse images with more pixels than this (checked before decoding).")
    var maxPixels: Int = PNGDecoder.defaultMaxPixels

    @Option(name: .long, help: ArgumentHelp("zlib level of the output, 0 (fastest) to 9 (smallest).", valueName: "level"))
    var compression: Int = PNGEncoder.defaultCompressionLevel

    @Flag(name: .long, help: "Print how long decoding, drawing and encoding took, on stderr.")
    var timings = false

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The PNG to write; - for stdout.", valueName: "out.png"))
    var output: String

    func validate() throws {
        if (name == nil) == (image == nil) {
            throw ValidationError("give a stored drawing's NAME or --image PLAN.png (one of them)")
        }
        if name != nil && (regions != nil || markers != nil || zoom != nil) {
            throw ValidationError("--regions, --markers and --zoom go with --image; a stored drawing has its own")
        }
        if image != nil && filterOptions.isGiven {
            throw ValidationError("the marker filters (--status, --category, ...) go with a stored drawing's NAME")
        }
        if let revision {
            guard name != nil else { throw ValidationError("--revision goes with a stored drawing's NAME") }
            guard revision >= 1 else { throw ValidationError("--revision must be 1 or more") }
        }
        guard scale > 0 && scale <= 1 else { throw ValidationError("--scale must be greater than 0 and at most 1") }
        guard margin >= 0 else { throw ValidationError("--margin must not be negative") }
        if let markerSize, !(markerSize > 0 && markerSize <= 10_000) {
            throw ValidationError("--marker-size must be greater than 0 and at most 10000")
        }
        guard maxPixels > 0 else { throw ValidationError("--max-pixels must be positive") }
        guard (0...9).contains(compression) else { throw ValidationError("--compression takes a level from 0 to 9") }
        guard !output.isEmpty else { throw ValidationError("-o needs a file name or -") }
    }

    func run() async throws {
        let clock = ContinuousClock()
        var phases: [(String, Duration)] = []
        var phaseStart = clock.now
        func endPhase(_ name: String) {
            let now = clock.now
            phases.append((name, now - phaseStart))
            phaseStart = now
        }
        defer {
            if timings {
                let total = phases.reduce(Duration.zero) { $0 + $1.1 }
                printError((phases + [("total", total)]).map { "\($0.0) \(seconds($0.1))" }.joined(separator: ", "))
            }
        }
        let decoder = PNGDecoder(maxPixels: maxPixels)
        var drawing: RGBAImage
        let regionList: [Region]
        var reviewMarkers: [ReviewMarker] = []
        var filter = MarkerFilter()
        var roomAreas: [ReviewRoomArea] = []
        do {
            if let image {
                let regionsInput = try regions.map { path throws(FormatError) in try readRegionsFile(path, drawingSize: nil) }
                regionList = regionsInput?.regions ?? []
                var rows: [MarkerRow] = []
                if let markers {
                    let conversion = zoom.map { LatLngConversion(crs: SimpleCRS(crs), zoom: $0) }
                    var reader = try MarkerFileReader(path: markers, format: inputFormat, conversion: conversion)
                    rows = try reader.readAll()
                }
                drawing = try decoder.decode(path: image)
                // A LabelMe regions file must have been drawn on an image of this size.
                try regionsInput?.check(drawingSize: DrawingSize(width: Double(drawing.width), height: Double(drawing.height)), source: regions!)
                let validator = MarkerValidator(
                    regions: regionList, size: DrawingSize(width: Double(drawing.width), height: Double(drawing.height)))
                for row in rows {
                    guard let position = row.position else { continue }
                    let state: ReviewMarkerState = validator.validate(position).reason.map { .invalid($0) } ?? .valid
                    reviewMarkers.append(ReviewMarker(label: row.id, position: position, state: state))
                }
            } else {
                filter = try filterOptions.filter()
                let store = try await storeOptions.open()
                let stored = try await store.drawing(named: name!).drawing
                // An older revision: its image, and each marker where it was on it (nil: the current one).
                var older: (image: DrawingImage, size: DrawingSize, positions: [Int: PixelPoint])?
                if let revision, revision != stored.revision {
                    let (record, image) = try await store.revisionImage(of: stored.name, revision: revision)
                    older = (image, DrawingSize(width: Double(record.width), height: Double(record.height)),
                             try await store.markerPositions(of: stored.name, onRevision: revision))
                }
                regionList = older == nil ? try await store.regions(of: stored.name) : []
                roomAreas = RoomAreas.of(regionList, drawing: stored)
                let validator = MarkerValidator(regions: regionList, size: older?.size ?? stored.size)
                try await store.forEachMarker(in: stored.name, filter: filter) { marker in
                    var marker = marker
                    if let older {
                        guard let position = older.positions[marker.number] else { return true }
                        marker.position = position
                    }
                    reviewMarkers.append(ReviewMarker(stored: marker, validator: validator, today: filter.today))
                    return true
                }
                // The same fault reads the same as in every store command (and as the service's 404).
                if let around, !reviewMarkers.contains(where: { $0.label == around }) {
                    guard let number = Int(around), number >= 1 else {
                        throw CommandFailure(place: "--around", message: "expected a marker number, found '\(around)'", code: Exit.usage)
                    }
                    throw StoreError.unknownMarker(drawing: stored.name, number: number)
                }
                let sheet: DrawingImage
                if let older { sheet = older.image } else { sheet = try await store.image(of: stored.name) }
                var pixels = SheetPixels(decoder: decoder)
                pixels.renderer.limits.maxPixels = maxPixels
                drawing = try await pixels.image(sheet, source: "drawing \"\(stored.name)\"")
            }
        } catch let error as ExitCode {
            throw error
        } catch {
            throw fail(error)
        }
        endPhase("read+decode")
        // The image says which filters chose its markers (`Filters: status=open,ready; room=2.05`).
        let options = ReviewOptions(
            legend: legend, title: title,
            view: around.map { .around(label: $0, margin: margin) } ?? .wholeSheet,
            scale: scale, filters: filter.summary, roomAreas: roomAreas, markerSize: markerSize)
        let rendered: RGBAImage
        do {
            rendered = try ReviewRenderer().render(drawing: consume drawing, regions: regionList, markers: reviewMarkers, options: options)
        } catch {
            throw fail(error)
        }
        endPhase("draw")
        defer { endPhase("encode+write") }
        do {
            // The temporary file exists before encoding starts, so an interrupt during the encode
            // removes it (AtomicFile), and the target appears whole or not at all.
            let sink: any OutputSink
            let file: AtomicFile?
            if output == "-" {
                file = nil
                sink = StandardOutput()
            } else {
                file = try AtomicFile(path: output)
                sink = file!
            }
            let bytes = try PNGEncoder(compressionLevel: compression).encode(rendered)
            try sink.write(bytes)
            try sink.flush()
            try file?.commit()
        } catch {
            throw fail(error)
        }
    }
}

/// `d` in seconds with three decimals, e.g. `0.412 s`.
func seconds(_ d: Duration) -> String {
    let (s, attoseconds) = d.components
    let millis = Int64(s) * 1000 + attoseconds / 1_000_000_000_000_000
    let fraction = String(millis % 1000)
    return "\(millis / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) s"
}
