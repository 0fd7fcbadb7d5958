/// Where a punch item is in its workflow.
///
/// | from | to |
/// |---|---|
/// | open | in-progress, ready, closed, void |
/// | in-progress | open, ready, closed, void |
/// | ready | closed, open (rejected: a reason is required), void |
/// | closed | open |
/// | void | open |
public enum MarkerStatus: String, Hashable, Sendable, CaseIterable, Codable {
    /// Needs attention.
    case open
    /// Someone is working on it.
    case inProgress = "in-progress"
    /// The work is done and ready for inspection.
    case ready
    /// Inspected and accepted (stores written before punch items called this `resolved`).
    case closed
    /// Not an item after all (a duplicate, or raised by mistake).
    case void

    /// The status `text` names (`open`, `in-progress`, `ready`, `closed`, `void`); `resolved`, the name
    /// PlanMark used before the workflow, is `closed`.
    public init?(text: String) {
        if text == "resolved" { self = .closed; return }
        self.init(rawValue: text)
    }

    /// The statuses this one may change to.
    public var next: [MarkerStatus] {
        switch self {
        case .open: return [.inProgress, .ready, .closed, .void]
        case .inProgress: return [.open, .ready, .closed, .void]
        case .ready: return [.closed, .open, .void]
        case .closed, .void: return [.open]
        }
    }

    /// Whether the workflow allows changing from this status to `status`.
    public func allows(_ status: MarkerStatus) -> Bool { next.contains(status) }

    /// Whether changing to `status` rejects the work (ready to open) and so needs a reason.
    public func needsReason(toChangeTo status: MarkerStatus) -> Bool { self == .ready && status == .open }

    /// Whether a marker in this status still needs work (anything but closed and void).
    public var isActive: Bool { self != .closed && self != .void }

    /// Words for people (`In progress`, `Ready for inspection`).
    public var title: String {
        switch self {
        case .open: return "Open"
        case .inProgress: return "In progress"
        case .ready: return "Ready for inspection"
        case .closed: return "Closed"
        case .void: return "Void"
        }
    }
}

/// How urgent a punch item is.
public enum MarkerPriority: String, Hashable, Sendable, CaseIterable, Codable, Comparable {
    case low, normal, high, critical

    public static func < (a: MarkerPriority, b: MarkerPriority) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
