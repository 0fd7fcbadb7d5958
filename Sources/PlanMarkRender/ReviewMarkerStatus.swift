/// Where a stored marker (a punch item) is in its workflow; the review image draws each status in its
/// own colour (see `ReviewStyle`). The raw values are the store's and the API's spelling.
public enum ReviewMarkerStatus: String, CaseIterable, Hashable, Sendable {
    /// Work to do.
    case open
    /// Someone is working on it.
    case inProgress = "in-progress"
    /// Done by the trade, waiting for inspection.
    case ready
    /// Inspected and accepted.
    case closed
    /// Not an item after all (raised in error, duplicate).
    case void

    /// The legend's words for this status, e.g. "Ready for inspection".
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
