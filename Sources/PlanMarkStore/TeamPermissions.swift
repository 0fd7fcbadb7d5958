import PlanMarkFormats
/// What a user may do to a drawing and its markers: the actions of the team's role table, each a role may take
/// always, on the markers assigned to them, or never. The table is defined here once; docs/team.md shows it, the
/// service enforces it, and the role tests check every cell.
public enum TeamAction: String, CaseIterable, Hashable, Sendable {
    case readDrawings = "read drawings"
    case readMarkers = "read markers"
    case placeMarker = "place a marker"
    case editMarker = "edit a marker"
    case advanceStatus = "move a marker to in-progress or ready"
    case verifyStatus = "verify, reject, void or reopen a marker"
    case commentOrAttach = "comment or attach a photo"
    case deleteMarker = "delete a marker"
    case bulkUpdate = "bulk update"
    case manageDrawings = "change drawings"

    /// The action's short code, stable for clients (`GET /me` gives each project's permissions by it; the review page
    /// decides its buttons by it).
    public var code: String {
        switch self {
        case .readDrawings: "read-drawings"
        case .readMarkers: "read-markers"
        case .placeMarker: "place-marker"
        case .editMarker: "edit-marker"
        case .advanceStatus: "advance-status"
        case .verifyStatus: "verify-status"
        case .commentOrAttach: "comment-or-attach"
        case .deleteMarker: "delete-marker"
        case .bulkUpdate: "bulk-update"
        case .manageDrawings: "manage-drawings"
        }
    }

    /// The status action of a change from `from` to `to`: open -> in-progress -> ready is work on the item
    /// (`advanceStatus`); anything else (verify ready -> closed, reject ready -> open, void, reopen) is a manager's.
    public static func statusChange(from: MarkerStatus, to: MarkerStatus) -> TeamAction {
        from.advances(to: to) ? .advanceStatus : .verifyStatus
    }
}

/// Whether a role may take an action.
public enum TeamPermission: Hashable, Sendable {
    case always
    /// Only on markers assigned to the user (by name or company).
    case onTheirMarkers
    case never

    /// The permission's short code, stable for clients: `always`, `on-their-markers` or `never`.
    public var code: String {
        switch self {
        case .always: "always"
        case .onTheirMarkers: "on-their-markers"
        case .never: "never"
        }
    }
}

extension ProjectRole {
    /// This role's permission for `action`.
    /// - Complexity: O(1).
    public func permission(_ action: TeamAction) -> TeamPermission {
        switch (self, action) {
        case (_, .readDrawings): .always
        case (.admin, _): .always
        case (.manager, .manageDrawings): .never
        case (.manager, _): .always
        case (.inspector, .verifyStatus), (.inspector, .deleteMarker), (.inspector, .bulkUpdate), (.inspector, .manageDrawings): .never
        case (.inspector, _): .always
        case (.subcontractor, .readMarkers), (.subcontractor, .advanceStatus), (.subcontractor, .commentOrAttach): .onTheirMarkers
        case (.subcontractor, _): .never
        case (.viewer, .readMarkers): .always
        case (.viewer, _): .never
        }
    }

    /// This role's permission for every action, by the actions' and permissions' codes (`GET /me`'s `permissions`).
    public var permissionCodes: [String: String] {
        Dictionary(uniqueKeysWithValues: TeamAction.allCases.map { ($0.code, permission($0).code) })
    }
}

extension SignedInUser {
    /// The names a marker's assignee may have for it to be this user's: their name and their company.
    public var assigneeNames: [String] { [user.name] + (user.company.map { [$0] } ?? []) }

    /// Whether `marker` is assigned to this user (its assignee is their name or their company, in any case).
    public func isAssigned(_ marker: Marker) -> Bool { MarkerFilter.isAssigned(marker, toAnyOf: assigneeNames) }
}
