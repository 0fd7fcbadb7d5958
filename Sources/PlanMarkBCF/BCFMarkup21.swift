import XMLCoder

/// `markup.bcf` of BCF 2.1 (buildingSMART's markup.xsd), element for element in the schema's order: XMLCoder writes a
/// struct's properties in declaration order, and the schema's sequences are ordered.
struct BCFMarkup21: Codable {
    var topic: Topic
    var comments: [Comment]?
    var viewpoints: [ViewPoint]?

    enum CodingKeys: String, CodingKey {
        case topic = "Topic", comments = "Comment", viewpoints = "Viewpoints"
    }

    struct Topic: BCFElement {
        var guid: String
        var topicType: String?
        var topicStatus: String?
        var referenceLinks: [String]?
        var title: String
        var priority: String?
        var index: Int?
        var labels: [String]?
        var creationDate: String
        var creationAuthor: String
        var modifiedDate: String?
        var modifiedAuthor: String?
        var dueDate: String?
        var assignedTo: String?
        var description: String?
        var bimSnippet: BimSnippet?
        var documentReferences: [DocumentReference]?

        enum CodingKeys: String, CodingKey {
            case guid = "Guid", topicType = "TopicType", topicStatus = "TopicStatus", referenceLinks = "ReferenceLink", title = "Title"
            case priority = "Priority", index = "Index", labels = "Labels", creationDate = "CreationDate", creationAuthor = "CreationAuthor"
            case modifiedDate = "ModifiedDate", modifiedAuthor = "ModifiedAuthor", dueDate = "DueDate", assignedTo = "AssignedTo"
            case description = "Description", bimSnippet = "BimSnippet", documentReferences = "DocumentReference"
        }

        static let attributes: Set<String> = ["Guid", "TopicType", "TopicStatus"]
    }

    /// A topic's BIM snippet, in both versions: 2.1 spells its attribute `isExternal`, 3.0 `IsExternal`; both are read,
    /// neither is written (PlanMark's snippet is in the file: not external, the default).
    struct BimSnippet: BCFElement {
        var snippetType: String
        var isExternal21: Bool?
        var isExternal30: Bool?
        var reference: String
        var referenceSchema: String

        enum CodingKeys: String, CodingKey {
            case snippetType = "SnippetType", isExternal21 = "isExternal", isExternal30 = "IsExternal", reference = "Reference"
            case referenceSchema = "ReferenceSchema"
        }

        /// PlanMark's placement snippet.
        static let placement = BimSnippet(snippetType: BCFPlacement.snippetType, reference: BCFPlacement.fileName,
                                          referenceSchema: BCFPlacement.schema)

        /// Whether the snippet is a file outside the BCF file.
        var isExternal: Bool { isExternal21 == true || isExternal30 == true }

        static let attributes: Set<String> = ["SnippetType", "isExternal", "IsExternal"]
    }

    struct DocumentReference: BCFElement {
        var guid: String?
        var isExternal: Bool?
        var referencedDocument: String?
        var description: String?

        enum CodingKeys: String, CodingKey {
            case guid = "Guid", isExternal = "isExternal", referencedDocument = "ReferencedDocument", description = "Description"
        }

        static let attributes: Set<String> = ["Guid", "isExternal"]
    }

    struct Comment: BCFElement {
        var guid: String
        var date: String
        var author: String
        var comment: String?
        var viewpoint: CommentViewpoint?

        enum CodingKeys: String, CodingKey {
            case guid = "Guid", date = "Date", author = "Author", comment = "Comment", viewpoint = "Viewpoint"
        }

        static let attributes: Set<String> = ["Guid"]
    }

    /// A comment's viewpoint, and a version file's or visualization's root: an element with a `Guid` attribute only.
    struct CommentViewpoint: BCFElement {
        var guid: String

        enum CodingKeys: String, CodingKey { case guid = "Guid" }

        static let attributes: Set<String> = ["Guid"]
    }

    struct ViewPoint: BCFElement {
        var guid: String
        var viewpoint: String?
        var snapshot: String?
        var index: Int?

        enum CodingKeys: String, CodingKey { case guid = "Guid", viewpoint = "Viewpoint", snapshot = "Snapshot", index = "Index" }

        static let attributes: Set<String> = ["Guid"]
    }
}

extension BCFMarkup21 {
    /// The markup of `topic`, with its viewpoints named `viewpoint.bcfv` / `snapshot.png` for the first and
    /// `viewpoint-<guid>.bcfv` / `snapshot-<guid>.png` for the others.
    init(_ topic: BCFTopic) {
        self.topic = Topic(
            guid: topic.guid, topicType: topic.type, topicStatus: topic.status, referenceLinks: nil, title: topic.title, priority: topic.priority,
            index: topic.index, labels: topic.labels.isEmpty ? nil : topic.labels, creationDate: topic.creationDate,
            creationAuthor: topic.creationAuthor, modifiedDate: topic.modifiedDate, modifiedAuthor: topic.modifiedAuthor, dueDate: topic.dueDate,
            assignedTo: topic.assignedTo, description: topic.description,
            bimSnippet: topic.placement == nil ? nil : .placement,
            documentReferences: topic.documentReferences.isEmpty ? nil : topic.documentReferences.map {
                DocumentReference(guid: $0.guid, isExternal: $0.url == nil ? nil : true, referencedDocument: $0.url, description: $0.description)
            })
        comments = topic.comments.isEmpty ? nil : topic.comments.map {
            Comment(guid: $0.guid, date: $0.date, author: $0.author, comment: $0.text, viewpoint: $0.viewpoint.map(CommentViewpoint.init))
        }
        viewpoints = topic.viewpoints.isEmpty ? nil : topic.viewpoints.enumerated().map { index, viewpoint in
            let files = BCFFiles.viewpoint(index, guid: viewpoint.guid)
            return ViewPoint(guid: viewpoint.guid, viewpoint: files.visualization, snapshot: viewpoint.snapshot == nil ? nil : files.snapshot,
                             index: nil)
        }
    }
}
