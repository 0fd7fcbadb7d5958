import PlanMarkFormats

/// A person who signs in to the service with a token (`planmark user add`). Their history stays, under their name,
/// after they are removed.
public struct User: Hashable, Sendable, Encodable {
    /// Unique; what the history records as the author of their changes.
    public var name: String
    public var email: String
    /// The company they work for: a marker assigned to it is assigned to them too.
    public var company: String?
    public var createdAt: Timestamp

    public init(name: String, email: String, company: String? = nil, createdAt: Timestamp) {
        self.name = name
        self.email = email
        self.company = company
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey { case name, email, company, createdAt }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(email, forKey: .email)
        try container.encode(company, forKey: .company)
        try container.encode(createdAt.description, forKey: .createdAt)
    }
}

/// One of a user's tokens, as the store keeps it: never the token itself, only its SHA-256.
public struct UserToken: Hashable, Sendable, Encodable {
    /// The store's id, what `user revoke NAME ID` names.
    public var id: Int64
    public var user: String
    public var label: String?
    public var createdAt: Timestamp
    /// The last day it is accepted (UTC); nil when it never expires.
    public var expires: DueDate?
    /// When it last signed a request in (kept to the minute); nil before its first use.
    public var lastUsedAt: Timestamp?

    public init(id: Int64, user: String, label: String?, createdAt: Timestamp, expires: DueDate?, lastUsedAt: Timestamp?) {
        self.id = id
        self.user = user
        self.label = label
        self.createdAt = createdAt
        self.expires = expires
        self.lastUsedAt = lastUsedAt
    }

    /// Whether it is past its last day on `today`.
    public func hasExpired(today: DueDate) -> Bool { expires.map { $0 < today } ?? false }

    enum CodingKeys: String, CodingKey { case id, user, label, createdAt, expires, lastUsedAt }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(user, forKey: .user)
        try container.encode(label, forKey: .label)
        try container.encode(createdAt.description, forKey: .createdAt)
        try container.encode(expires?.text, forKey: .expires)
        try container.encode(lastUsedAt?.description, forKey: .lastUsedAt)
    }
}

/// What a user may do in a project (the table in docs/team.md). Stored as its raw value.
public enum ProjectRole: String, CaseIterable, Hashable, Sendable, Encodable {
    case admin, manager, inspector, subcontractor, viewer
}

/// A project: drawings belong to one, users are granted a role in it.
public struct Project: Hashable, Sendable, Encodable {
    /// The project every drawing made before projects existed is in, and the one `drawing add` uses by default.
    public static let defaultName = "default"

    public var name: String
    public var createdAt: Timestamp

    public init(name: String, createdAt: Timestamp) {
        self.name = name
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey { case name, createdAt }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(createdAt.description, forKey: .createdAt)
    }
}

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

/// A new token: the secret, shown once, and what the store keeps of it.
public struct NewToken: Sendable {
    /// The token the user sends (`Authorization: Bearer ...`): `pmk_` and 43 characters of base64url, 32 random bytes.
    public var secret: String
    /// The stored record.
    public var token: UserToken
}

/// How tokens are made and recognised.
public enum TokenSecret {
    /// What every token begins with, so that a leaked one is recognised (as GitHub's `ghp_`).
    public static let prefix = "pmk_"
    /// Random bytes in a token.
    public static let randomBytes = 32

    /// A new secret: `prefix` and `randomBytes` bytes of `SystemRandomNumberGenerator` (the kernel's getrandom on
    /// Linux, arc4random on Darwin: cryptographically secure), base64url without padding.
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<randomBytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return prefix + base64URL(bytes)
    }

    /// What the store keeps of `secret`: its SHA-256, hexadecimal.
    public static func digest(_ secret: String) -> String { SHA256.hexDigest(of: Array(secret.utf8)) }

    /// RFC 4648 §5 base64url, no padding.
    /// - Complexity: O(n).
    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value: UInt32 = 0
            for (k, byte) in chunk.enumerated() { value |= UInt32(byte) << (16 - 8 * k) }
            for k in 0..<(chunk.count + 1) { out.append(alphabet[Int((value >> (18 - 6 * k)) & 63)]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension AnnotationStore {
    /// `addToken` as of now (today's date in UTC).
    public func addToken(for name: String, label: String?, expires: DueDate?) async throws(StoreError) -> NewToken {
        try await addToken(for: name, label: label, expires: expires, today: .today, at: .now())
    }

    /// `addProject` made now.
    public func addProject(named name: String) async throws(StoreError) -> Project {
        try await addProject(named: name, at: .now())
    }
}

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
