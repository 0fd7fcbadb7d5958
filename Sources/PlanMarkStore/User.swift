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
