import PlanMarkStore

/// What the request's identity may do, checked on the object it touches (the team's role table,
/// `ProjectRole.permission`): a user sees only the drawings of projects where they have a role (any other is 404, as
/// if it did not exist), and a subcontractor only the markers assigned to them (404 by number, absent from every
/// list, count, image and report). An action a role may not take on something it can see is 403 `forbidden`. The
/// operator (the server's token, or anyone while the store has no users) may do everything, at no cost: no check reads
/// the store for it.
struct Gate: Sendable {
    let identity: Identity
    let store: StoreAccess

    /// The user's role on drawing `name` and the drawing; nil for the operator. 404 when the user may not see it.
    /// - Complexity: one indexed read of the drawing for a user, none for the operator.
    func role(on name: String) async throws(APIError) -> (ProjectRole, Drawing, SignedInUser)? {
        guard case .user(let user) = identity else { return nil }
        let drawing = try await store.run("drawingRecord") { store throws(StoreError) in try await store.drawingRecord(named: name) }
        guard let role = user.role(inProject: drawing.projectID) else { throw APIError(StoreError.unknownDrawing(name)) }
        return (role, drawing, user)
    }

    /// Requires `action` on drawing `name`: 404 when the user may not see the drawing, 403 when their role may never
    /// take the action there. An action a role may take on its own markers only needs `marker` (see `require(_:on:marker:)`).
    func require(_ action: TeamAction, on name: String) async throws(APIError) {
        guard let (role, _, _) = try await role(on: name) else { return }
        if role.permission(action) == .never { throw APIError.forbidden(role: role, action: action) }
    }

    /// Requires `action` on marker `number` of drawing `name` (read from the store for a user): 404 when the user may
    /// not see the drawing or the marker (a subcontractor's view has only the markers assigned to them), 403 when
    /// their role may not take the action on it.
    func require(_ action: TeamAction, on name: String, marker number: Int) async throws(APIError) {
        guard let (role, drawing, user) = try await role(on: name) else { return }
        let marker = try await store.run("marker") { store throws(StoreError) in try await store.marker(number, in: drawing.name) }
        try Self.check(action, role: role, user: user, marker: marker, drawing: drawing.name)
    }

    /// The check of `require(_:on:marker:)` for a marker at hand.
    static func check(_ action: TeamAction, role: ProjectRole, user: SignedInUser, marker: Marker, drawing: String) throws(APIError) {
        if role.permission(.readMarkers) == .onTheirMarkers && !user.isAssigned(marker) { throw APIError.unknownMarker(marker.number, drawing: drawing) }
        switch role.permission(action) {
        case .always: return
        case .onTheirMarkers where user.isAssigned(marker): return
        default: throw APIError.forbidden(role: role, action: action)
        }
    }

    /// The names a marker's assignee must have for the user to see it on drawing `name` (a subcontractor's: their
    /// name and company), or nil when they see every marker; 404 when they may not see the drawing.
    func visibleAssignees(on name: String) async throws(APIError) -> [String]? {
        guard let (role, _, user) = try await role(on: name) else { return nil }
        return role.permission(.readMarkers) == .onTheirMarkers ? user.assigneeNames : nil
    }

    /// `visibleAssignees(on:)` for a drawing of project `projectID` whose record is at hand.
    func visibleAssignees(in projectID: Int64) -> [String]? {
        guard case .user(let user) = identity, let role = user.role(inProject: projectID), role.permission(.readMarkers) == .onTheirMarkers else {
            return nil
        }
        return user.assigneeNames
    }

    /// Whether the identity may see a drawing of project `projectID` (in lists).
    func sees(project projectID: Int64) -> Bool {
        guard case .user(let user) = identity else { return true }
        return user.role(inProject: projectID) != nil
    }
}

extension APIError {
    /// 403 for an action the signed-in user's role may not take on what it touches.
    static func forbidden(role: ProjectRole, action: TeamAction) -> APIError {
        APIError(.forbidden, code: "forbidden", message: "a user whose role is \(role.rawValue) may not \(action.rawValue) here")
    }
}

extension Gate {
    /// Requires what `change` does to marker `number` of drawing `name`: editing its fields (`editMarker`) and moving
    /// its status (`TeamAction.statusChange` from the status it has now).
    func require(_ change: MarkerChange, on name: String, marker number: Int) async throws(APIError) {
        guard let (role, drawing, user) = try await role(on: name) else { return }
        let marker = try await store.run("marker") { store throws(StoreError) in try await store.marker(number, in: drawing.name) }
        var edits = change
        edits.status = nil
        edits.reason = nil
        if !edits.isEmpty { try Self.check(.editMarker, role: role, user: user, marker: marker, drawing: drawing.name) }
        if let status = change.status {
            try Self.check(TeamAction.statusChange(from: marker.status, to: status), role: role, user: user, marker: marker, drawing: drawing.name)
        }
        if edits.isEmpty && change.status == nil { try Self.check(.readMarkers, role: role, user: user, marker: marker, drawing: drawing.name) }
    }
}
