import PlanMarkFormats

/// Which markers a listing, a render or a summary takes. Every condition set must hold; an empty filter
/// takes every marker.
public struct MarkerFilter: Hashable, Sendable {
    /// Any of these statuses; empty for any status.
    public var statuses: Set<MarkerStatus>
    /// This category (compared without regard to case); nil for any.
    public var category: String?
    /// This assignee (compared without regard to case); nil for any.
    public var assignee: String?
    /// Any of these priorities; empty for any.
    public var priorities: Set<MarkerPriority>
    /// Covered by the room with this id; nil for any.
    public var room: String?
    /// Only overdue markers (due before `today`, not closed or void).
    public var overdue: Bool
    /// Text found, without regard to case, in the note, the category or the assignee; nil for any.
    public var search: String?
    /// Today's date (UTC), for `overdue`.
    public var today: DueDate
    /// Only markers that need placing again after a revision (`Marker.needsPlacement` set).
    public var needsPlacement = false
    /// Only markers assigned to one of these names (compared without regard to case); nil for any. What a
    /// subcontractor may see (`SignedInUser.assigneeNames`), whatever else the request filters by.
    public var assignedToAnyOf: [String]? = nil

    /// A filter; by default it takes every marker.
    public init(statuses: Set<MarkerStatus> = [], category: String? = nil, assignee: String? = nil, priorities: Set<MarkerPriority> = [],
                room: String? = nil, overdue: Bool = false, search: String? = nil, today: DueDate = .today) {
        self.statuses = statuses
        self.category = category
        self.assignee = assignee
        self.priorities = priorities
        self.room = room
        self.overdue = overdue
        self.search = search
        self.today = today
    }

    /// True when it takes every marker.
    public var isEmpty: Bool {
        statuses.isEmpty && category == nil && assignee == nil && priorities.isEmpty && room == nil && !overdue && search == nil
            && !needsPlacement && assignedToAnyOf == nil
    }

    /// Whether `marker` passes.
    /// - Complexity: O(length of its text fields and rooms).
    public func matches(_ marker: Marker) -> Bool {
        if !statuses.isEmpty && !statuses.contains(marker.status) { return false }
        if !priorities.isEmpty && !priorities.contains(marker.priority) { return false }
        if let category, marker.category.map({ $0.lowercased() }) != category.lowercased() { return false }
        if let assignee, marker.assignee.map({ $0.lowercased() }) != assignee.lowercased() { return false }
        if let room, !marker.rooms.contains(room) { return false }
        if overdue && !marker.isOverdue(today: today) { return false }
        if needsPlacement && marker.needsPlacement == nil { return false }
        if let names = assignedToAnyOf, !Self.isAssigned(marker, toAnyOf: names) { return false }
        if let search {
            let needle = search.lowercased()
            let found = [marker.note, marker.category, marker.assignee].contains { $0?.lowercased().contains(needle) ?? false }
            if !found { return false }
        }
        return true
    }

    /// Whether `marker`'s assignee is one of `names`, without regard to case.
    public static func isAssigned(_ marker: Marker, toAnyOf names: [String]) -> Bool {
        guard let assignee = marker.assignee?.lowercased() else { return false }
        return names.contains { $0.lowercased() == assignee }
    }

    /// This filter without its statuses and priorities: what is left for `matches` after a back end has filtered by
    /// those two in its query.
    public var withoutStatusesAndPriorities: MarkerFilter {
        var rest = self
        rest.statuses = []
        rest.priorities = []
        return rest
    }

    /// The filter as people read it in a legend or a log, conditions in a fixed order:
    /// `status=open,ready; room=2.05; overdue`; nil when it takes every marker.
    public var summary: String? {
        var parts: [String] = []
        if !statuses.isEmpty {
            parts.append("status=" + MarkerStatus.allCases.filter(statuses.contains).map(\.rawValue).joined(separator: ","))
        }
        if !priorities.isEmpty {
            parts.append("priority=" + MarkerPriority.allCases.filter(priorities.contains).map(\.rawValue).joined(separator: ","))
        }
        if let category { parts.append("category=\(category)") }
        if let assignee { parts.append("assignee=\(assignee)") }
        if let room { parts.append("room=\(room)") }
        if overdue { parts.append("overdue") }
        if let search { parts.append("search=\(search)") }
        if needsPlacement { parts.append("needs-placement") }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}

extension DueDate {
    /// Today's date in UTC.
    public static var today: DueDate { DueDate(utcMilliseconds: Timestamp.now().milliseconds) }
}

/// Counts of a drawing's markers (those a filter takes).
public struct MarkerSummary: Hashable, Sendable {
    /// Markers counted.
    public var total: Int
    /// By status (statuses with no marker are 0).
    public var byStatus: [MarkerStatus: Int]
    /// By priority.
    public var byPriority: [MarkerPriority: Int]
    /// By room id (a marker on a shared wall counts for both rooms; markers in no room are not counted here).
    public var byRoom: [String: Int]
    /// By assignee (unassigned markers are not counted here).
    public var byAssignee: [String: Int]
    /// Markers in no room.
    public var withoutRoom: Int
    /// Markers without an assignee.
    public var unassigned: Int
    /// Overdue markers.
    public var overdue: Int

    /// An empty summary.
    public init() {
        total = 0
        byStatus = Dictionary(uniqueKeysWithValues: MarkerStatus.allCases.map { ($0, 0) })
        byPriority = Dictionary(uniqueKeysWithValues: MarkerPriority.allCases.map { ($0, 0) })
        byRoom = [:]
        byAssignee = [:]
        withoutRoom = 0
        unassigned = 0
        overdue = 0
    }

    /// Counts `marker`.
    /// - Complexity: O(rooms of the marker).
    public mutating func add(_ marker: Marker, today: DueDate) {
        total += 1
        byStatus[marker.status, default: 0] += 1
        byPriority[marker.priority, default: 0] += 1
        for room in marker.rooms { byRoom[room, default: 0] += 1 }
        if marker.rooms.isEmpty { withoutRoom += 1 }
        if let assignee = marker.assignee { byAssignee[assignee, default: 0] += 1 } else { unassigned += 1 }
        if marker.isOverdue(today: today) { overdue += 1 }
    }
}
