import PlanMarkFormats

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
