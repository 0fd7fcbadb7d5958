import ArgumentParser
import PlanMarkFormats
import PlanMarkStore

/// `planmark user`: the people who sign in to the service, and their tokens.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Add, list and remove users, and make, list and revoke their tokens.",
        discussion: """
        Whoever can open the store is its operator: these commands need no token. A user signs in to the service \
        with a token (Authorization: Bearer pmk_...); the store keeps only each token's SHA-256.
        """,
        subcommands: [UserAddCommand.self, UserListCommand.self, UserRemoveCommand.self, UserTokenCommand.self,
                      UserTokensCommand.self, UserRevokeCommand.self]
    )
}

/// `planmark user add NAME --email EMAIL [--company COMPANY]`.
struct UserAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a user.",
                                                    discussion: "Exit status: 0 added, 1 the name is taken, 64 a bad name or address.")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The user's name, unique: what the history records as the author of their changes.") var name: String
    @Option(name: .long, help: "Their e-mail address.") var email: String
    @Option(name: .long, help: "The company they work for: markers assigned to it are theirs too.") var company: String?

    func run() async throws {
        try await storeCommand {
            let user = try await storeOptions.open().addUser(User(name: name, email: email, company: company, createdAt: .now()))
            try StandardOutput.print("added user \"\(user.name)\" <\(user.email)>\(user.company.map { " of \($0)" } ?? "")\n")
        }
    }
}

/// `planmark user list [--format json]`.
struct UserListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the users: name, e-mail, company.")

    @OptionGroup var storeOptions: StoreOptions
    @Option(name: .long, help: "text or json.") var format: TextOrJSON = .text

    func run() async throws {
        try await storeCommand {
            try format.write(try await storeOptions.open().users(), key: "users") { "\($0.name)\t\($0.email)\t\($0.company ?? "-")" }
        }
    }
}

/// `planmark user remove NAME`.
struct UserRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove a user with their tokens and roles.",
        discussion: "Their history stays, attributed to them. Exit status: 0 removed, 66 no such user.")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The user's name.") var name: String

    func run() async throws {
        try await storeCommand {
            let user = try await storeOptions.open().removeUser(named: name)
            try StandardOutput.print("removed user \"\(user.name)\"\n")
        }
    }
}

/// `planmark user token NAME [--label TEXT] [--expires YYYY-MM-DD]`.
struct UserTokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Make a token for a user and print it, once.",
        discussion: """
        Prints the token on stdout, one line beginning pmk_ (32 random bytes); it cannot be shown again: the store \
        keeps only its SHA-256. Exit status: 0 made, 64 an expiry date that is not a date or is in the past, 66 no \
        such user.
        """)

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The user's name.") var name: String
    @Option(name: .long, help: "What the token is for (a device, a script).") var label: String?
    @Option(name: .long, help: ArgumentHelp("The last day it is accepted (UTC); default: never expires.", valueName: "YYYY-MM-DD")) var expires: String?

    func run() async throws {
        try await storeCommand {
            var date: DueDate?
            if let expires {
                date = try PunchItemArgument.due(expires, place: "--expires")
                if let date, date < .today {
                    throw CommandFailure(place: "--expires", message: "\(date.text) is in the past (today is \(DueDate.today.text))", code: Exit.usage)
                }
            }
            let made = try await storeOptions.open().addToken(for: name, label: label, expires: date)
            try StandardOutput.print(made.secret + "\n")
            printError("planmark: token \(made.token.id) of user \"\(name)\"\(date.map { ", accepted until \($0.text)" } ?? ""): shown once, the store keeps only its SHA-256")
        }
    }
}

/// `planmark user tokens NAME [--format json]`.
struct UserTokensCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tokens",
                                                    abstract: "List a user's tokens: id, label, created, expires, last used (never the tokens).")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The user's name.") var name: String
    @Option(name: .long, help: "text or json.") var format: TextOrJSON = .text

    func run() async throws {
        try await storeCommand {
            try format.write(try await storeOptions.open().tokens(of: name), key: "tokens") { token in
                "\(token.id)\t\(token.label ?? "-")\tcreated \(token.createdAt.text)\texpires \(token.expires?.text ?? "never")"
                    + "\tlast used \(token.lastUsedAt?.text ?? "never")"
            }
        }
    }
}

/// `planmark user revoke NAME ID|--all`.
struct UserRevokeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke", abstract: "Revoke one of a user's tokens, or all of them.",
        discussion: "A revoked token signs nothing in from then on. Exit status: 0 revoked, 64 neither or both of ID and --all, 66 no such user or token.")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The user's name.") var name: String
    @Argument(help: "The token's id (user tokens NAME).") var id: Int64?
    @Flag(name: .long, help: "Revoke every token of the user.") var all = false

    func validate() throws {
        if (id == nil) == !all { throw ValidationError("give a token's id or --all, not both") }
    }

    func run() async throws {
        try await storeCommand {
            let revoked = try await storeOptions.open().revokeTokens(all ? nil : id, of: name)
            try StandardOutput.print(all ? "revoked \(revoked.count) tokens of user \"\(name)\"\n" : "revoked token \(id!) of user \"\(name)\"\n")
        }
    }
}
