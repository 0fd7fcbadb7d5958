import PlanMarkFormats

/// A user a token signed in: who, with which token, and their role in each project (by the project's store id, which
/// `Drawing.projectID` names, and by name).
public struct SignedInUser: Hashable, Sendable {
    public var user: User
    public var tokenID: Int64
    /// Role by project id.
    public var roles: [Int64: ProjectRole]
    /// Project names by id, of the projects in `roles`.
    public var projectNames: [Int64: String]

    public init(user: User, tokenID: Int64, roles: [Int64: ProjectRole], projectNames: [Int64: String]) {
        self.user = user
        self.tokenID = tokenID
        self.roles = roles
        self.projectNames = projectNames
    }

    /// The user's role in the project with store id `projectID`, or nil when they have none there.
    public func role(inProject projectID: Int64) -> ProjectRole? { roles[projectID] }
}
