import PlanMarkGeometry

/// Validates a markers file against a validator and streams the report, using every core.
public struct BatchValidation {
    /// The validator.
    public let validator: MarkerValidator
    /// The report format.
    public let report: ValidationReport

    /// Creates a batch run.
    public init(validator: MarkerValidator, format: ValidationReportFormat) {
        self.validator = validator
        report = ValidationReport(format: format, regions: validator.regions)
    }

    /// Validates `rows` and formats their report entries (the first one without a leading comma).
    /// - Complexity: O(n * k) for n rows and k edges tested per row.
    func validateAndFormat(_ rows: [MarkerRow]) -> (ReportBuffer, ValidationSummary) {
        var out = ReportBuffer(capacity: rows.count * 112)
        var counts = ReasonCounts()
        var hits: [RegionHit] = []
        for index in rows.indices {
            let reason = validate(rows[index].position, hits: &hits)
            // Passing the element in place lends it to `entry` without copying its strings.
            report.entry(rows[index], reason: reason, hits: hits, isFirst: index == 0, into: &out)
            counts.count(reason)
        }
        return (out, counts.summary)
    }

    /// Parses a piece of a CSV block, validates each row and formats its entry straight from the
    /// row's bytes: no `String`, array or other heap object per row.
    /// - Complexity: O(b + n * k) for b bytes, n rows and k edges tested per row.
    func validateAndFormat(
        _ parser: CSVMarkerParser, _ piece: UnsafeBufferPointer<UInt8>, firstLine: Int, firstRow: Int
    ) throws(FormatError) -> (ReportBuffer, ValidationSummary) {
        // Room for the whole piece's report at once (a csv line is about 2.7 times its input line on
        // the benchmark's data, a JSON one about 8 times), so the buffer is not copied as it grows.
        let factor: Int
        switch report.format {
        case .csv: factor = 3
        case .json, .jsonl: factor = 9
        case .text: factor = 1
        }
        var out = ReportBuffer(capacity: piece.count * factor + 4096)
        var counts = ReasonCounts()
        var hits: [RegionHit] = []
        hits.reserveCapacity(8)
        var isFirst = true
        try parser.forEachRow(piece, firstLine: firstLine, firstRow: firstRow) { row in
            let reason = validate(row.position, hits: &hits)
            report.entry(id: row.id, defaultID: row.row, line: row.line, position: row.position,
                         reason: reason, hits: hits, isFirst: isFirst, into: &out)
            isFirst = false
            counts.count(reason)
        }
        return (out, counts.summary)
    }

    /// The `csv` report of a piece of a CSV block: parsed, validated and written straight into one
    /// buffer through pointers (`ByteSink`), the covering regions into a buffer made once, no array
    /// or reference count touched per row.
    /// - Complexity: O(b + n * k) for b bytes, n rows and k edges tested per row.
    func validateAndFormatCSV(
        _ parser: CSVMarkerParser, _ piece: UnsafeBufferPointer<UInt8>, firstLine: Int, firstRow: Int
    ) throws(FormatError) -> (ReportBuffer, ValidationSummary) {
        var sink = ByteSink(capacity: piece.count * 3 + 4096)
        defer { sink.release() }
        let validator = self.validator
        let report = self.report
        let labels = report.csvLabels
        let hits = UnsafeMutablePointer<RegionHit>.allocate(capacity: max(1, validator.regions.count))
        defer { hits.deallocate() }
        var counts = ReasonCounts()
        try parser.forEachRow(piece, firstLine: firstLine, firstRow: firstRow) { row in
            var n = 0
            let reason: InvalidReason?
            if let position = row.position {
                reason = validator.validate(position, hits: hits, count: &n)
            } else {
                reason = .invalidCoordinate
            }
            report.csvEntry(row, reason: reason, hits: UnsafeBufferPointer(start: hits, count: n), labels: labels, into: &sink)
            counts.count(reason)
        }
        var out = ReportBuffer()
        out.bytes = sink.take()
        return (out, counts.summary)
    }

    @inline(__always)
    func validate(_ position: PixelPoint?, hits: inout [RegionHit]) -> InvalidReason? {
        if let position { return validator.validate(position, hits: &hits) }
        hits.removeAll(keepingCapacity: true)
        return .invalidCoordinate
    }

    /// Reads every row of `reader`, validates it, and hands report text to `write` in input order.
    /// `progress` is called after each batch with the number of markers done.
    /// - Complexity: O(n * k) for n markers and k edges tested per marker, spread over the cores;
    ///   memory O(batch), independent of n.
    public func run(
        _ reader: inout MarkerFileReader,
        write: ([UInt8]) throws -> Void,
        progress: (Int) -> Void = { _ in }
    ) throws -> ValidationSummary {
        var summary = ValidationSummary()
        var wroteHeading = false
        try write(Array(report.header().utf8))
        while let results = try reader.nextBlock(
            rows: { rows in validateAndFormat(rows) },
            csv: { parser, piece, line, row throws(FormatError) in
                if report.format == .csv {
                    return try validateAndFormatCSV(parser, piece, firstLine: line, firstRow: row)
                }
                return try validateAndFormat(parser, piece, firstLine: line, firstRow: row)
            }
        ) {
            for (text, partSummary) in results {
                if report.format == .text && !wroteHeading && partSummary.invalid > 0 {
                    try write(Array(report.textTableHeading().utf8))
                    wroteHeading = true
                }
                // Each part's first entry has no comma; parts after the first need one in json.
                if report.format == .json && summary.total > 0 && partSummary.total > 0 {
                    try write(Array(",".utf8))
                }
                try write(text.bytes)
                summary.merge(partSummary)
            }
            progress(summary.total)
        }
        try write(Array(report.footer(summary).utf8))
        return summary
    }
}

/// Counts of a part of a batch by reason, without a dictionary update per marker.
struct ReasonCounts {
    var total = 0
    var byReason: (Int, Int, Int, Int) = (0, 0, 0, 0)

    @inline(__always)
    mutating func count(_ reason: InvalidReason?) {
        total += 1
        switch reason {
        case nil: break
        case .invalidCoordinate?: byReason.0 += 1
        case .outsideDrawing?: byReason.1 += 1
        case .outsideAllowedArea?: byReason.2 += 1
        case .outsideRooms?: byReason.3 += 1
        }
    }

    /// The same summary as counting each marker with `ValidationSummary.count`.
    var summary: ValidationSummary {
        var summary = ValidationSummary()
        let pairs: [(InvalidReason, Int)] = [
            (.invalidCoordinate, byReason.0), (.outsideDrawing, byReason.1),
            (.outsideAllowedArea, byReason.2), (.outsideRooms, byReason.3),
        ]
        summary.total = total
        summary.valid = total - pairs.reduce(0) { $0 + $1.1 }
        for (reason, count) in pairs where count > 0 { summary.byReason[reason] = count }
        return summary
    }
}
