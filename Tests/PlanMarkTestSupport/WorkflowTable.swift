/// The punch-item status workflow of issue 10, written out by hand (not taken from `MarkerStatus.next`),
/// for the store, CLI and service tests to check every transition against.
public enum WorkflowTable {
    /// The statuses, in workflow order.
    public static let statuses = ["open", "in-progress", "ready", "closed", "void"]

    /// From each status, the statuses it may change to.
    public static let allowed: [String: Set<String>] = [
        "open": ["in-progress", "ready", "closed", "void"],
        "in-progress": ["open", "ready", "closed", "void"],
        "ready": ["closed", "open", "void"],
        "closed": ["open"],
        "void": ["open"],
    ]

    /// Every ordered pair of different statuses (20).
    public static let pairs: [(String, String)] = statuses.flatMap { from in statuses.filter { $0 != from }.map { (from, $0) } }
}
