import PlanMarkFormats
import PlanMarkGeometry

/// Reads a regions file (GeoJSON or LabelMe, `RegionsInput`) for a command; a LabelMe file's shapes that
/// are not regions are reported on stderr, one line each (`planmark: FILE: shapes[3]: skipped circle "x"`),
/// and the command goes on. With `drawingSize`, a LabelMe file made on an image of another size is
/// refused (exit 65, like every other fault of a regions file).
/// - Complexity: O(n log n) for n vertices.
func readRegionsFile(_ path: String, drawingSize: DrawingSize?) throws(FormatError) -> RegionsInput {
    let input = try RegionsInput.read(path: path, drawingSize: drawingSize)
    for shape in input.skipped {
        printError("planmark: \(path): \(shape)")
    }
    return input
}
