/// The project a BCF file names (`project.bcfp`).
public struct BCFProject: Hashable, Sendable {
    public var id: String
    public var name: String?

    public init(id: String, name: String?) {
        self.id = id
        self.name = name
    }
}
