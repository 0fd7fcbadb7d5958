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
        var summary = ValidationSummary()
        var hits: [RegionHit] = []
        for index in rows.indices {
            let reason: InvalidReason?
            if let position = rows[index].position {
                reason = validator.validate(position, hits: &hits)
            } else {
                hits.removeAll(keepingCapacity: true)
                reason = .invalidCoordinate
            }
            // Passing the element in place lends it to `entry` without copying its strings.
            report.entry(rows[index], reason: reason, hits: hits, isFirst: index == 0, into: &out)
            summary.count(reason)
        }
        return (out, summary)
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
        while let results = try reader.nextBlock({ rows in validateAndFormat(rows) }) {
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
