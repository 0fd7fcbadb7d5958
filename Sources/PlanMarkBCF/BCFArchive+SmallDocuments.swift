// `bcf.version` (2.1 and 3.0) and `project.bcfp` (BCF 2.1's `ProjectExtension`, 3.0's `ProjectInfo`): the small
// documents beside the topics, as XML elements.

struct Version21: BCFElement {
    var versionID: String?
    var detailedVersion: String?

    enum CodingKeys: String, CodingKey { case versionID = "VersionId", detailedVersion = "DetailedVersion" }

    static let attributes: Set<String> = ["VersionId"]
}

struct Version30: BCFElement {
    var versionID: String

    enum CodingKeys: String, CodingKey { case versionID = "VersionId" }

    static let attributes: Set<String> = ["VersionId"]
}

struct ProjectElement: BCFElement {
    var projectID: String
    var name: String?

    enum CodingKeys: String, CodingKey { case projectID = "ProjectId", name = "Name" }

    static let attributes: Set<String> = ["ProjectId"]
}

struct ProjectExtension: Codable {
    var project: ProjectElement?
    var extensionSchema: String?

    enum CodingKeys: String, CodingKey { case project = "Project", extensionSchema = "ExtensionSchema" }
}

struct ProjectInfo: Codable {
    var project: ProjectElement

    enum CodingKeys: String, CodingKey { case project = "Project" }
}

extension BCFProject {
    init(_ element: ProjectElement) { self.init(id: element.projectID, name: element.name) }
}
