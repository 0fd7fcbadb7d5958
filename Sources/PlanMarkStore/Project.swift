import PlanMarkFormats

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
