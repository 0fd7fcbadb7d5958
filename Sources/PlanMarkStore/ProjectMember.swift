import PlanMarkFormats

/// A user's role in a project.
public struct ProjectMember: Hashable, Sendable, Encodable {
    public var project: String
    public var user: String
    public var role: ProjectRole

    public init(project: String, user: String, role: ProjectRole) {
        self.project = project
        self.user = user
        self.role = role
    }
}
