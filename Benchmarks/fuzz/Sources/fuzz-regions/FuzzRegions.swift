import FuzzDriver
import PlanMarkFormats

/// One input through `RegionsFile.parse` (and the same bytes through the GeoJSON markers reader):
/// regions or a `FormatError`. Regions must survive `RegionsGeoJSONWriter` and parse back equal.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRegions(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let regions = try RegionsFile.parse(bytes, source: "fuzz")
        let written = RegionsGeoJSONWriter.featureCollection(regions)
        guard let again = try? RegionsFile.parse(Array(written.utf8), source: "written") else {
            preconditionFailure("written regions do not parse: \(written)")
        }
        precondition(again == regions, "regions changed through the writer: \(written)")
    } catch {
        precondition(error.kind == .malformed, "unexpected kind \(error.kind)")
        _ = error.description
    }
    do {
        var reader = try MarkerFileReader(input: InputFile(bytes: bytes, source: "fuzz"), format: .geojson, conversion: nil)
        for row in try reader.readAll() {
            precondition(!row.id.isEmpty, "a marker without an id")
            precondition(row.position?.isFinite ?? true, "a marker at a non-finite position")
        }
    } catch {
        precondition(error.kind == .malformed, "unexpected kind \(error.kind)")
    }
    return 0
}

/// The executable's entry point (SwiftPM links `main` to `<module>_main`): hands over to libFuzzer.
@_cdecl("fuzz_regions_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzRegions(data, size) }
}
