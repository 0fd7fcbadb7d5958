import ArgumentParser
import PlanMarkStore

/// `planmark project`: projects, which drawings belong to, and users' roles in them.
struct ProjectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "project",
        abstract: "Add and list projects, and grant users roles in them.",
        discussion: """
        A drawing belongs to one project (drawing add --project; drawings made before projects are in "default"). \
        Roles: admin, manager, inspector, subcontractor, viewer (docs/team.md says what each may do).
        """,
        subcommands: [ProjectAddCommand.self, ProjectListCommand.self, ProjectGrantCommand.self, ProjectRevokeCommand.self,
                      ProjectMembersCommand.self]
    )
}

/// `planmark project add NAME`.
struct ProjectAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a project.",
                                                    discussion: "Exit status: 0 added, 1 the name is taken, 64 a bad name.")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The project's name, unique.") var name: String

    func run() async throws {
        try await storeCommand {
            let project = try await storeOptions.open(create: true).addProject(named: name)
            try StandardOutput.print("added project \"\(project.name)\"\n")
        }
    }
}

/// `planmark project list [--format json]`.
struct ProjectListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the projects.")

    @OptionGroup var storeOptions: StoreOptions
    @Option(name: .long, help: "text or json.") var format: TextOrJSON = .text

    func run() async throws {
        try await storeCommand {
            try format.write(try await storeOptions.open().projects(), key: "projects") { "\($0.name)\tcreated \($0.createdAt.text)" }
        }
    }
}

/// `planmark project grant PROJECT USER ROLE`.
struct ProjectGrantCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grant", abstract: "Give a user a role in a project (replacing the role they had there).",
        discussion: "Exit status: 0 granted, 64 an unknown role, 66 no such project or user.")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The project's name.") var project: String
    @Argument(help: "The user's name.") var user: String
    @Argument(help: "admin, manager, inspector, subcontractor or viewer.") var role: String

    func run() async throws {
        try await storeCommand {
            let member = try await storeOptions.open().grant(try projectRole(role, place: "project grant"), in: project, to: user)
            try StandardOutput.print("\"\(member.user)\" is \(member.role.rawValue) in project \"\(member.project)\"\n")
        }
    }
}

/// `planmark project revoke PROJECT USER`.
struct ProjectRevokeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke", abstract: "Take a user's role in a project away.",
        discussion: "Exit status: 0 revoked, 66 no such project or user, or the user has no role there.")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The project's name.") var project: String
    @Argument(help: "The user's name.") var user: String

    func run() async throws {
        try await storeCommand {
            let member = try await storeOptions.open().revoke(user, from: project)
            try StandardOutput.print("\"\(member.user)\" is no longer \(member.role.rawValue) in project \"\(member.project)\"\n")
        }
    }
}

/// `planmark project members PROJECT [--format json]`.
struct ProjectMembersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "members", abstract: "List a project's members and their roles.")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The project's name.") var project: String
    @Option(name: .long, help: "text or json.") var format: TextOrJSON = .text

    func run() async throws {
        try await storeCommand {
            try format.write(try await storeOptions.open().members(of: project), key: "members") { "\($0.user)\t\($0.role.rawValue)" }
        }
    }
}
