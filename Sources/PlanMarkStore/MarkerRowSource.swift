import PlanMarkFormats

/// Where an import reads its rows from, in batches (a markers file, or rows in memory).
/// `SendableMetatype`: an import parses a source's rows on a background thread.
public protocol MarkerRowSource: SendableMetatype {
    /// The next rows, at most `maxCount`; nil when there are no more.
    mutating func nextBatch(maxCount: Int) throws(FormatError) -> [MarkerRow]?
    /// Reads the rest of the input into memory, so that reading rows never waits for a file or a pipe.
    mutating func readInput() throws(FormatError)
    /// About how many rows are left, to size what holds them; 0 when unknown.
    var expectedRowCount: Int { get }
    /// The next rows, in pieces each given to `transform` (several at once, on several threads); the results in
    /// file order, or nil when there are no more rows.
    mutating func nextChunks<T>(_ transform: ([MarkerRow]) -> T) throws(FormatError) -> [T]?
}

/// Rows a chunk of an import when the source does not split them itself.
let importChunkRows = 1 << 14

extension MarkerRowSource {
    public mutating func readInput() throws(FormatError) {}
    public var expectedRowCount: Int { 0 }
    public mutating func nextChunks<T>(_ transform: ([MarkerRow]) -> T) throws(FormatError) -> [T]? {
        guard let rows = try nextBatch(maxCount: importChunkRows) else { return nil }
        return [transform(rows)]
    }
}

extension MarkerFileReader: MarkerRowSource {
    public mutating func readInput() throws(FormatError) { try readInputIntoMemory() }
    /// A CSV row takes at least 4 bytes and usually 15 or more; 10 errs on the large side.
    public var expectedRowCount: Int { rowsInMemory + bytesInMemory / 10 }
    /// The rows of one block of the file, parsed on all cores, each piece handed to `transform` in the task
    /// that parsed it.
    public mutating func nextChunks<T>(_ transform: ([MarkerRow]) -> T) throws(FormatError) -> [T]? {
        try nextBlock(transform)
    }
}

/// Rows already in memory.
public struct MarkerRowList: MarkerRowSource {
    private var rows: [MarkerRow]
    private var start = 0

    /// Serves `rows` in order.
    public init(_ rows: [MarkerRow]) { self.rows = rows }

    /// The rows left.
    public var expectedRowCount: Int { rows.count - start }

    /// The next rows, at most `maxCount`; nil when there are no more.
    public mutating func nextBatch(maxCount: Int) throws(FormatError) -> [MarkerRow]? {
        guard start < rows.count else { return nil }
        let end = min(rows.count, start + max(1, maxCount))
        defer { start = end }
        return Array(rows[start..<end])
    }
}
