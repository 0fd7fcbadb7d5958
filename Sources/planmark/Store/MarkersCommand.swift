import ArgumentParser
import PlanMarkExport
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore

/// `planmark markers NAME`: exports a drawing's markers.
struct MarkersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "markers",
        abstract: "List or export a drawing's markers: text, json, jsonl, csv or geojson; in pixels, or also as latLng.",
        discussion: """
        Every format carries every field. jsonl: one object a marker: id (the markers file's id it was imported \
        with, or null), uuid, number, x, y (lat, lng with --latlng), status, category, priority, assignee, due, \
        capturedAt, note, author, rooms, createdAt, updatedAt, overdue. csv: the same columns (without overdue; \
        rooms joined with ;), which `planmark import` reads back. text: tab-separated, one line a marker, with a \
        backslash, tab, line feed or carriage return in a text field written \\\\, \\t, \\n or \\r. The filters \
        combine (all must hold).
        """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The drawing's name.")
    var name: String

    @Option(name: .long, help: "text, json, jsonl, csv or geojson.")
    var format: MarkerFormat = .text

    @Flag(name: .long, help: "Add lat and lng in the drawing's CRS flavour (geojson: positions become [lng, lat]).")
    var latlng = false

    @Option(name: .long, parsing: .unconditional, help: "The client's zoom for --latlng (default: the drawing's zoom).")
    var zoom: Zoom?

    @Flag(name: .long, help: "Add each marker's comment thread to json, jsonl and geojson: comments [{id, author, createdAt, text}], oldest first.")
    var comments = false

    @OptionGroup var filterOptions: MarkerFilterOptions

    func run() async throws {
        try await storeCommand {
            let filter = try filterOptions.filter()
            let store = try await storeOptions.open()
            let drawing = try await store.drawing(named: name).drawing
            var conversion: LatLngConversion?
            if latlng {
                let crs = SimpleCRS(drawing.crs)
                let z = zoom ?? drawing.zoom
                if !crs.representsWithoutClamping(drawing.size, at: z) {
                    printWarning("a \(drawing.width)x\(drawing.height) drawing does not fit flutter_map's CrsSimple at zoom \(z): latLng is clamped")
                }
                conversion = LatLngConversion(crs: crs, zoom: z)
            }
            var writer = MarkerWriter(format: format, conversion: conversion, drawing: drawing.name, today: filter.today)
            if comments { writer.threads = try await store.comments(in: name) }
            let out = StandardOutput()
            var failure: OutputError?
            try await store.forEachMarker(in: name, filter: filter) { marker in
                writer.append(marker)
                if writer.buffer.bytes.count >= 1 << 16 {
                    do throws(OutputError) { try out.write(writer.take()) } catch { failure = error; return false }
                }
                return true
            }
            if let failure { throw failure }
            try out.write(writer.finish())
            try out.flush()
        }
    }
}

extension MarkerStatus: ExpressibleByArgument {}
extension MarkerFormat: ExpressibleByArgument {}
