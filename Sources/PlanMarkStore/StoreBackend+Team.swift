import PlanMarkFormats

/// Users, their tokens, projects and roles, written once over the back ends' row primitives
/// (`StoreTransaction.rows(of:where:)`, `insert`, `update`, `delete`) on the tables `StoreTables.account`, `token`,
/// `project` and `member`.
extension StoreBackend {
    // MARK: Users

    /// Adds a user; `duplicateUser` when the name is taken.
    /// - Complexity: O(log u) for u users.
    public func addUser(_ user: User) async throws(StoreError) -> User {
        try TeamRows.check(user)
        return try await write(drawing: nil) { transaction, _ in
            guard try await transaction.insert(TeamRows.row(user), into: StoreTables.account) != nil else {
                throw StoreError.duplicateUser(user.name)
            }
            return user
        }
    }

    /// Every user, by name.
    /// - Complexity: O(u log u).
    public func users() async throws(StoreError) -> [User] {
        try await rows(of: StoreTables.account, where: []).map(TeamRows.user).sorted { $0.name < $1.name }
    }

    /// The user named `name`; `unknownUser` when there is none.
    /// - Complexity: O(log u).
    public func user(named name: String) async throws(StoreError) -> User {
        guard let row = try await rows(of: StoreTables.account, where: [("name", .text(name))]).first else { throw .unknownUser(name) }
        return TeamRows.user(row)
    }

    /// Removes a user with their tokens and roles; the history keeps their name as the author of their changes.
    /// - Complexity: O(log u + t + p) for their t tokens and p roles.
    public func removeUser(named name: String) async throws(StoreError) -> User {
        try await write(drawing: nil) { transaction, _ in
            let (id, user) = try await TeamRows.account(named: name, transaction)
            _ = try await transaction.delete(from: StoreTables.token, where: [("accountId", .integer(id))])
            _ = try await transaction.delete(from: StoreTables.member, where: [("accountId", .integer(id))])
            _ = try await transaction.delete(from: StoreTables.account, where: [("id", .integer(id))])
            return user
        }
    }

    // MARK: Tokens

    /// Makes a token for the user: the secret (shown once) and the record the store keeps (its SHA-256 only).
    /// `invalidArgument` when `expires` is before `today`.
    /// - Complexity: O(log u + log T) for T tokens.
    public func addToken(for name: String, label: String?, expires: DueDate?, today: DueDate, at now: Timestamp) async throws(StoreError) -> NewToken {
        try TextField.check(label, field: "label")
        if let expires, expires < today {
            throw .invalidArgument("user \"\(name)\": the expiry date \(expires.text) is in the past (today is \(today.text))")
        }
        let secret = TokenSecret.make()
        return try await write(drawing: nil) { transaction, _ in
            let (accountID, _) = try await TeamRows.account(named: name, transaction)
            let row: [StoreValue] = [.null, .integer(accountID), .text(TokenSecret.digest(secret)), label.map(StoreValue.text) ?? .null,
                                     .integer(now.milliseconds), expires.map { .text($0.text) } ?? .null, .null]
            guard let id = try await transaction.insert(row, into: StoreTables.token) else {
                throw StoreError.io("a new token's SHA-256 is stored already")  // 2^-256: the generator is broken
            }
            return NewToken(secret: secret, token: UserToken(id: id, user: name, label: label, createdAt: now, expires: expires, lastUsedAt: nil))
        }
    }

    /// The user's tokens, oldest first (never the tokens themselves).
    /// - Complexity: O(log u + t log T).
    public func tokens(of name: String) async throws(StoreError) -> [UserToken] {
        guard let account = try await rows(of: StoreTables.account, where: [("name", .text(name))]).first,
              case .integer(let id) = account[0] else { throw .unknownUser(name) }
        return try await rows(of: StoreTables.token, where: [("accountId", .integer(id))]).map { TeamRows.token($0, user: name) }
    }

    /// Revokes the user's token `id` (every token when nil); the revoked tokens. A revoked token signs nothing in
    /// from then on. `unknownToken` when the user has no token `id`.
    /// - Complexity: O(log u + t log T).
    public func revokeTokens(_ id: Int64?, of name: String) async throws(StoreError) -> [UserToken] {
        try await write(drawing: nil) { transaction, _ in
            let (accountID, _) = try await TeamRows.account(named: name, transaction)
            var match: [(String, StoreValue)] = [("accountId", .integer(accountID))]
            if let id { match.append(("id", .integer(id))) }
            let revoked = try await transaction.rows(of: StoreTables.token, where: match).map { TeamRows.token($0, user: name) }
            if let id, revoked.isEmpty { throw StoreError.unknownToken(user: name, id: id) }
            _ = try await transaction.delete(from: StoreTables.token, where: match)
            return revoked
        }
    }

    // MARK: Signing in

    /// How often a token's `lastUsedAt` is written: once a minute at most, so that a busy client does not make every
    /// request a write.
    public static var lastUsedResolution: Int64 { 60_000 }

    /// The user `secret` signs in, with their roles; nil when it is no token the store has (never made, or revoked,
    /// or its user removed) or it expired before `today`. Writes the token's `lastUsedAt` (to the minute).
    /// - Complexity: O(log T + log u + m + p) for the user's m roles among p projects: four indexed reads.
    public func signIn(token secret: String, today: DueDate, at now: Timestamp) async throws(StoreError) -> SignedInUser? {
        guard secret.hasPrefix(TokenSecret.prefix),
              let token = try await rows(of: StoreTables.token, where: [("sha256", .text(TokenSecret.digest(secret)))]).first,
              let tokenID = token[0].integer, let accountID = token[1].integer else { return nil }
        if let expires = token[5].text.flatMap(DueDate.init(text:)), expires < today { return nil }
        guard let account = try await rows(of: StoreTables.account, where: [("id", .integer(accountID))]).first else { return nil }
        var roles: [Int64: ProjectRole] = [:]
        var projectNames: [Int64: String] = [:]
        let memberships = try await rows(of: StoreTables.member, where: [("accountId", .integer(accountID))])
        if !memberships.isEmpty {
            var names: [Int64: String] = [:]
            for row in try await rows(of: StoreTables.project, where: []) { if let id = row[0].integer, let name = row[1].text { names[id] = name } }
            for row in memberships {
                if let projectID = row[0].integer, let name = names[projectID], let role = row[2].text.flatMap(ProjectRole.init(rawValue:)) {
                    roles[projectID] = role
                    projectNames[projectID] = name
                }
            }
        }
        if token[6].integer.map({ now.milliseconds - $0 >= Self.lastUsedResolution }) ?? true {
            _ = try await write(drawing: nil) { transaction, _ in
                try await transaction.update(StoreTables.token, set: [("lastUsedAt", .integer(now.milliseconds))], where: [("id", .integer(tokenID))])
            }
        }
        return SignedInUser(user: TeamRows.user(account), tokenID: tokenID, roles: roles, projectNames: projectNames)
    }

    /// Whether the store has any user (then the service signs every request in).
    /// - Complexity: O(u).
    public func hasUsers() async throws(StoreError) -> Bool {
        try await !rows(of: StoreTables.account, where: []).isEmpty
    }

    // MARK: Projects and roles

    /// Adds a project; `duplicateProject` when the name is taken.
    /// - Complexity: O(log p) for p projects.
    public func addProject(named name: String, at now: Timestamp) async throws(StoreError) -> Project {
        try TextField.checkName(name, field: "project name")
        let project = Project(name: name, createdAt: now)
        return try await write(drawing: nil) { transaction, _ in
            guard try await transaction.insert([.null, .text(name), .integer(now.milliseconds)], into: StoreTables.project) != nil else {
                throw StoreError.duplicateProject(name)
            }
            return project
        }
    }

    /// Every project, by name.
    /// - Complexity: O(p log p).
    public func projects() async throws(StoreError) -> [Project] {
        try await rows(of: StoreTables.project, where: []).map(TeamRows.project).sorted { $0.name < $1.name }
    }

    /// Gives `user` the role `role` in `project` (replacing the role they had there).
    /// - Complexity: O(log p + log u + log m) for m roles.
    public func grant(_ role: ProjectRole, in project: String, to user: String) async throws(StoreError) -> ProjectMember {
        try await write(drawing: nil) { transaction, _ in
            let projectID = try await TeamRows.projectID(named: project, transaction)
            let (accountID, _) = try await TeamRows.account(named: user, transaction)
            let key: [(String, StoreValue)] = [("projectId", .integer(projectID)), ("accountId", .integer(accountID))]
            if try await transaction.update(StoreTables.member, set: [("role", .text(role.rawValue))], where: key) == 0 {
                _ = try await transaction.insert([.integer(projectID), .integer(accountID), .text(role.rawValue)], into: StoreTables.member)
            }
            return ProjectMember(project: project, user: user, role: role)
        }
    }

    /// Takes `user`'s role in `project` away; `notAMember` when they had none.
    /// - Complexity: O(log p + log u + log m).
    public func revoke(_ user: String, from project: String) async throws(StoreError) -> ProjectMember {
        try await write(drawing: nil) { transaction, _ in
            let projectID = try await TeamRows.projectID(named: project, transaction)
            let (accountID, _) = try await TeamRows.account(named: user, transaction)
            let key: [(String, StoreValue)] = [("projectId", .integer(projectID)), ("accountId", .integer(accountID))]
            guard let row = try await transaction.rows(of: StoreTables.member, where: key).first,
                  case .text(let text) = row[2], let role = ProjectRole(rawValue: text) else {
                throw StoreError.notAMember(project: project, user: user)
            }
            _ = try await transaction.delete(from: StoreTables.member, where: key)
            return ProjectMember(project: project, user: user, role: role)
        }
    }

    /// The project's members with their roles, by user name.
    /// - Complexity: O(log p + m + u) for its m members among u users.
    public func members(of project: String) async throws(StoreError) -> [ProjectMember] {
        guard let row = try await rows(of: StoreTables.project, where: [("name", .text(project))]).first, case .integer(let id) = row[0] else {
            throw .unknownProject(project)
        }
        let names = TeamRows.userNames(try await rows(of: StoreTables.account, where: []))
        return try await rows(of: StoreTables.member, where: [("projectId", .integer(id))]).compactMap { row in
            guard case .integer(let accountID) = row[1], let user = names[accountID], case .text(let text) = row[2],
                  let role = ProjectRole(rawValue: text) else { return nil }
            return ProjectMember(project: project, user: user, role: role)
        }.sorted { $0.user < $1.user }
    }
}

/// The team's records as rows of `StoreTables` (in their columns' order), and the lookups the use cases share.
enum TeamRows {
    static func check(_ user: User) throws(StoreError) {
        try TextField.checkName(user.name, field: "user name")
        try TextField.check(user.company, field: "company")
        // An address as a mail client takes it: something, one @, a domain with a dot; no spaces or control characters.
        let parts = user.email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
              !user.email.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .invalidArgument("user \"\(user.name)\": \"\(user.email)\" is not an e-mail address")
        }
    }

    static func row(_ user: User) -> [StoreValue] {
        [.null, .text(user.name), .text(user.email), user.company.map(StoreValue.text) ?? .null, .integer(user.createdAt.milliseconds)]
    }

    static func user(_ row: [StoreValue]) -> User {
        User(name: row[1].text ?? "", email: row[2].text ?? "", company: row[3].text, createdAt: Timestamp(milliseconds: row[4].integer ?? 0))
    }

    static func token(_ row: [StoreValue], user: String) -> UserToken {
        UserToken(id: row[0].integer ?? 0, user: user, label: row[3].text, createdAt: Timestamp(milliseconds: row[4].integer ?? 0),
                  expires: row[5].text.flatMap(DueDate.init(text:)), lastUsedAt: row[6].integer.map(Timestamp.init(milliseconds:)))
    }

    static func project(_ row: [StoreValue]) -> Project {
        Project(name: row[1].text ?? "", createdAt: Timestamp(milliseconds: row[2].integer ?? 0))
    }

    /// Users' names by account id.
    static func userNames(_ accounts: [[StoreValue]]) -> [Int64: String] {
        var names: [Int64: String] = [:]
        for row in accounts { if let id = row[0].integer, let name = row[1].text { names[id] = name } }
        return names
    }

    /// The account id and user named `name` in `transaction`; `unknownUser` when there is none.
    static func account(named name: String, _ transaction: some StoreTransaction) async throws -> (Int64, User) {
        guard let row = try await transaction.rows(of: StoreTables.account, where: [("name", .text(name))]).first, let id = row[0].integer else {
            throw StoreError.unknownUser(name)
        }
        return (id, user(row))
    }

    /// The id of the project named `name` in `transaction`; `unknownProject` when there is none.
    static func projectID(named name: String, _ transaction: some StoreTransaction) async throws -> Int64 {
        guard let row = try await transaction.rows(of: StoreTables.project, where: [("name", .text(name))]).first, let id = row[0].integer else {
            throw StoreError.unknownProject(name)
        }
        return id
    }
}

extension StoreValue {
    /// The text this value holds, or nil.
    public var text: String? { if case .text(let text) = self { text } else { nil } }
    /// The integer this value holds, or nil.
    public var integer: Int64? { if case .integer(let number) = self { number } else { nil } }
}
