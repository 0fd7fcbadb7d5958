import PlanMarkFormats

/// What a user may do in a project (the table in docs/team.md). Stored as its raw value.
public enum ProjectRole: String, CaseIterable, Hashable, Sendable, Encodable {
    case admin, manager, inspector, subcontractor, viewer
}
