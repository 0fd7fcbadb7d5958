import ArgumentParser
import PlanMarkFormats
import PlanMarkGeometry

/// `planmark validate`: checks a markers file against a drawing's size, allowed areas and rooms.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Validate markers against the drawing size, the allowed areas and the rooms.",
        discussion: """
        Reasons, checked in this order: invalid-coordinate, outside-drawing, outside-allowed-area, \
        outside-rooms (only with --require-room). Every region covering a marker is listed with its \
        location (inside or boundary), so a marker on a shared wall lists both rooms.
        The report goes to stdout as it is computed, or with -o FILE to a file that appears whole when \
        the report is complete (never half-written, also when interrupted).
        Exit status: 0 all valid, 1 at least one invalid, 64 bad usage, 65 bad input data, 66 input missing, \
        73 the output cannot be created, 74 I/O error.
        """
    )

    @Option(name: .long, help: ArgumentHelp("GeoJSON FeatureCollection of Polygon/MultiPolygon regions in pixels (properties.kind room or allowed), or a LabelMe JSON file.", valueName: "file"))
    var regions: String

    @Option(name: .long, help: ArgumentHelp("The drawing's size in pixels; markers must satisfy 0 <= x <= W and 0 <= y <= H (default with a LabelMe --regions file: its image size).", valueName: "WxH"))
    var size: DrawingSize?

    @Option(name: .long, help: "Whether a marker on a wall is covered: include (default, like ST_Covers) or exclude.")
    var boundary: BoundaryRule = .include

    @Flag(name: .long, help: "Refuse markers that no room covers (reason outside-rooms).")
    var requireRoom = false

    @Option(name: .long, parsing: .unconditional, help: "The zoom of lat,lng markers (required for a lat,lng CSV).")
    var zoom: Zoom?

    @Option(name: .long, help: "The CRS flavour of lat,lng markers: leaflet or flutter.")
    var crs: CRSFlavour = .leaflet

    @Option(name: .long, help: "The report: text, json, jsonl or csv.")
    var report: ValidationReportFormat = .text

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write the report to this file, whole or not at all (default: stdout, or -).", valueName: "file"))
    var output: String = "-"

    @Option(name: .long, help: "The markers file's format, if its extension does not tell: csv or geojson.")
    var inputFormat: MarkerFileFormat?

    @Argument(help: ArgumentHelp("Markers: CSV with a header naming x,y or lat,lng (and optionally id), or a GeoJSON FeatureCollection of Points; - reads stdin.", valueName: "markers"))
    var markers: String

    func run() throws {
        // The output's temporary file first: from here on an interrupt leaves no trace of it.
        let file: AtomicFile?
        do {
            file = output == "-" ? nil : try AtomicFile(path: output)
        } catch {
            throw fail(error)
        }
        let regionList: [Region]
        var effectiveSize: DrawingSize?
        var reader: MarkerFileReader
        do {
            let input = try readRegionsFile(regions, drawingSize: size)
            regionList = input.regions
            // A LabelMe file knows its image's size: without --size, markers are checked against it.
            effectiveSize = size ?? input.imageSize
            let conversion = zoom.map { LatLngConversion(crs: SimpleCRS(crs), zoom: $0) }
            reader = try MarkerFileReader(path: markers, format: inputFormat, conversion: conversion)
        } catch {
            throw fail(error)
        }
        if let zoom, let size = effectiveSize, !SimpleCRS(crs).representsWithoutClamping(size, at: zoom) {
            printWarning("a \(size.width.description)x\(size.height.description) drawing does not fit flutter_map's CrsSimple at zoom \(zoom): clients see clamped latLng; use a lower zoom")
        }
        let validator = MarkerValidator(regions: regionList, size: effectiveSize, boundary: boundary, requireRoom: requireRoom)
        let batch = BatchValidation(validator: validator, format: report)
        let out = file.map { BackgroundWriter(to: $0) } ?? BackgroundWriter()
        let showProgress = stderrIsTerminal
        let summary: ValidationSummary
        do {
            summary = try batch.run(&reader, write: { out.write($0) }, progress: { done in
                if showProgress { printProgress("validated \(done) markers") }
            })
            try out.finish()
            try file?.commit()
            if showProgress { printProgress(nil) }
        } catch let error as FormatError {
            try? out.finish()
            file?.discard()
            throw fail(error)
        } catch {
            file?.discard()
            throw fail(error)
        }
        if summary.invalid > 0 { throw ExitCode(Exit.invalid) }
    }
}

extension ValidationReportFormat: ExpressibleByArgument {}
extension MarkerFileFormat: ExpressibleByArgument {}
