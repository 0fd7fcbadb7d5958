import PlanMarkGeometry

/// The regions of a regions file in either format PlanMark reads: a GeoJSON FeatureCollection
/// (`RegionsFile`) or a LabelMe file (`LabelMeFile`), told apart by the top level (`type` of
/// `FeatureCollection`, or `shapes` with `imageWidth` and `imageHeight`).
public struct RegionsInput: Hashable, Sendable {
    /// The rooms and allowed areas.
    public var regions: [Region]
    /// A LabelMe file's image size (nil for GeoJSON, which has none).
    public var imageSize: DrawingSize?
    /// A LabelMe file's shapes that are not regions, left out (the caller reports them).
    public var skipped: [LabelMeSkippedShape]

    /// Creates the regions read from a file.
    public init(regions: [Region], skipped: [LabelMeSkippedShape] = [], imageSize: DrawingSize? = nil) {
        self.regions = regions
        self.skipped = skipped
        self.imageSize = imageSize
    }

    /// Reads the regions file at `path` (`-` for stdin). With `drawingSize`, a LabelMe file's
    /// `imageWidth` x `imageHeight` must equal it: the points are pixels of that image, so on a drawing of
    /// another size they would land in the wrong place (refused as malformed, `$.imageWidth`, exit 65 at
    /// the command line like every other fault of a regions file).
    /// - Complexity: O(n log n) for n vertices.
    public static func read(path: String, drawingSize: DrawingSize? = nil) throws(FormatError) -> RegionsInput {
        try parse(try InputFile.readAll(path: path), source: path, drawingSize: drawingSize)
    }

    /// Parses a regions file from `bytes`; see `read(path:drawingSize:)`.
    /// - Complexity: O(n log n) for n vertices.
    public static func parse(_ bytes: [UInt8], source: String, drawingSize: DrawingSize? = nil) throws(FormatError) -> RegionsInput {
        let document: JSONParser.Document
        do {
            document = try JSONParser.parseDocument(bytes)
        } catch {
            throw error.formatError(source: source)
        }
        return try input(from: document.root, source: source, idNumberTexts: document.idNumberTexts, drawingSize: drawingSize)
    }

    /// Builds the regions from a parsed file; see `read(path:drawingSize:)`.
    /// - Complexity: O(n log n) for n vertices.
    public static func input(from root: JSONValue, source: String, idNumberTexts: [String: String] = [:],
                             drawingSize: DrawingSize? = nil) throws(FormatError) -> RegionsInput {
        guard root["type"] == nil, LabelMeFile.isLabelMe(root) else {
            return RegionsInput(regions: try RegionsFile.regions(from: root, source: source, idNumberTexts: idNumberTexts),
                                skipped: [], imageSize: nil)
        }
        let labelMe = try LabelMeFile.regions(from: root, source: source)
        let input = RegionsInput(regions: labelMe.regions, skipped: labelMe.skipped,
                                 imageSize: DrawingSize(width: Double(labelMe.imageWidth), height: Double(labelMe.imageHeight)))
        if let drawingSize { try input.check(drawingSize: drawingSize, source: source) }
        return input
    }

    /// Refuses a LabelMe file whose image size is not `drawingSize` (`$.imageWidth`: `the LabelMe image is
    /// 800x600 px but the drawing is 1000x700 px`); GeoJSON, which has no size, always passes.
    /// - Complexity: O(1).
    public func check(drawingSize: DrawingSize, source: String) throws(FormatError) {
        guard let imageSize, imageSize != drawingSize else { return }
        throw FormatError(.malformed, source: source, path: "$.imageWidth",
                          message: "the LabelMe image is \(JSONNumber.text(imageSize.width))x\(JSONNumber.text(imageSize.height)) px "
                              + "but the drawing is \(JSONNumber.text(drawingSize.width))x\(JSONNumber.text(drawingSize.height)) px")
    }
}
