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
        while let rows = try reader.nextBatch() {
            let isFirstBatch = summary.total == 0
            let parts = rows.count < 4096 ? 1 : processorCount * 2
            let step = (rows.count + parts - 1) / parts
            let results: [(ReportBuffer, ValidationSummary)] = parallelMap(parts) { part in
                var out = ReportBuffer()
                var partSummary = ValidationSummary()
                var hits: [RegionHit] = []
                let lower = part * step, upper = min(rows.count, lower + step)
                guard lower < upper else { return (out, partSummary) }
                out.bytes.reserveCapacity((upper - lower) * 112)
                for index in lower..<upper {
                    let row = rows[index]
                    let reason: InvalidReason?
                    if let position = row.position {
                        reason = validator.validate(position, hits: &hits)
                    } else {
                        hits.removeAll(keepingCapacity: true)
                        reason = .invalidCoordinate
                    }
                    report.entry(row, reason: reason, hits: hits, isFirst: isFirstBatch && index == 0, into: &out)
                    partSummary.count(reason)
                }
                return (out, partSummary)
            }
            for (text, partSummary) in results {
                if report.format == .text && !wroteHeading && partSummary.invalid > 0 {
                    try write(Array(report.textTableHeading().utf8))
                    wroteHeading = true
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
