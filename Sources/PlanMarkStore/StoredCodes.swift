import PlanMarkFormats
/// How the marker table stores statuses and priorities since migration v9: small integers.
///
/// Why: SQLite stores the integers 0 and 1 with no payload bytes (only the record header's type byte), so a
/// new marker (`open`, `normal`) spends nothing on either, where the words took 4 and 6 bytes of every row;
/// with `updatedAt` NULL while it equals `createdAt`, an imported row is 16 bytes smaller (about a fifth),
/// which is a fifth less for SQLite to write, twice (WAL, then the checkpoint). The codes are fixed here and
/// in the v9 migration, never derived from the order of `allCases`.
extension MarkerStatus {
    /// The stored code: open 0, in-progress 1, ready 2, closed 3, void 4.
    package var storedCode: Int64 {
        switch self {
        case .open: return 0
        case .inProgress: return 1
        case .ready: return 2
        case .closed: return 3
        case .void: return 4
        }
    }

    /// The status a stored code names; nil for any other number.
    package init?(storedCode: Int64) {
        switch storedCode {
        case 0: self = .open
        case 1: self = .inProgress
        case 2: self = .ready
        case 3: self = .closed
        case 4: self = .void
        default: return nil
        }
    }
}

extension MarkerPriority {
    /// The stored code, in order of urgency: low 0, normal 1, high 2, critical 3.
    package var storedCode: Int64 {
        switch self {
        case .low: return 0
        case .normal: return 1
        case .high: return 2
        case .critical: return 3
        }
    }

    /// The priority a stored code names; nil for any other number.
    package init?(storedCode: Int64) {
        switch storedCode {
        case 0: self = .low
        case 1: self = .normal
        case 2: self = .high
        case 3: self = .critical
        default: return nil
        }
    }
}
