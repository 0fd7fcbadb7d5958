import PlanMarkFormats

/// Where an import reads its rows from, in batches (a markers file, or rows in memory).
public protocol MarkerRowSource {
    /// The next rows, at most `maxCount`; nil when there are no more.
    mutating func nextBatch(maxCount: Int) throws(FormatError) -> [MarkerRow]?
}

extension MarkerFileReader: MarkerRowSource {}

/// Rows already in memory.
public struct MarkerRowList: MarkerRowSource {
    private var rows: [MarkerRow]
    private var start = 0

    /// Serves `rows` in order.
    public init(_ rows: [MarkerRow]) { self.rows = rows }

    /// The next rows, at most `maxCount`; nil when there are no more.
    public mutating func nextBatch(maxCount: Int) throws(FormatError) -> [MarkerRow]? {
        guard start < rows.count else { return nil }
        let end = min(rows.count, start + max(1, maxCount))
        defer { start = end }
        return Array(rows[start..<end])
    }
}
