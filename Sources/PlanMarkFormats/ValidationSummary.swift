import PlanMarkGeometry

/// Counts of a validation run.
public struct ValidationSummary: Hashable, Sendable {
    /// Markers read.
    public var total = 0
    /// Markers that passed every check.
    public var valid = 0
    /// Invalid markers by reason.
    public var byReason: [InvalidReason: Int] = [:]

    /// Creates an empty summary.
    public init() {}

    /// Markers that failed a check.
    public var invalid: Int { total - valid }

    /// Counts one marker.
    @inlinable
    public mutating func count(_ reason: InvalidReason?) {
        total += 1
        if let reason { byReason[reason, default: 0] += 1 } else { valid += 1 }
    }

    /// Adds another summary's counts.
    public mutating func merge(_ other: ValidationSummary) {
        total += other.total
        valid += other.valid
        for (reason, count) in other.byReason { byReason[reason, default: 0] += count }
    }
}
