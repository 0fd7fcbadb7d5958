import FuzzDriver
import PlanMarkFormats
import PlanMarkGeometry

/// Reads `bytes` as a markers CSV file (latLng rows at Leaflet zoom 2) with the given block size.
func readCSV(_ bytes: [UInt8], blockSize: Int) -> Result<[MarkerRow], FormatError> {
    Result { () throws(FormatError) -> [MarkerRow] in
        var reader = try MarkerFileReader(input: InputFile(bytes: bytes, source: "fuzz"), format: .csv,
                                          conversion: LatLngConversion(crs: .leaflet, zoom: 2), blockSize: blockSize)
        return try reader.readAll()
    }
}

/// One input through the markers CSV reader: rows or a `FormatError`, and the same answer whether
/// the file is read in one block or in blocks of a few bytes (block and line boundaries anywhere).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMarkersCSV(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    let whole = readCSV(bytes, blockSize: MarkerFileReader.blockSize)
    let small = readCSV(bytes, blockSize: 1 + size % 13)
    switch (whole, small) {
    case let (.success(a), .success(b)):
        precondition(a == b, "rows differ with small blocks")
        for row in a {
            precondition(!row.id.isEmpty && row.line >= 1, "a row without an id or a line")
            precondition(row.position?.isFinite ?? true, "a non-finite position")
        }
    case let (.failure(a), .failure(b)):
        precondition(a == b, "errors differ with small blocks: \(a) / \(b)")
    default:
        preconditionFailure("one block size accepted what the other refused")
    }
    return 0
}

/// The executable's entry point (SwiftPM links `main` to `<module>_main`): hands over to libFuzzer.
@_cdecl("fuzz_markers_csv_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzMarkersCSV(data, size) }
}
