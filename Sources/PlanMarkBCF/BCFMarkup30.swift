import XMLCoder

/// `markup.bcf` of BCF 3.0 (buildingSMART's markup.xsd): the comments and viewpoints inside the topic, the lists
/// wrapped (`Labels/Label`, `DocumentReferences/DocumentReference`, `Comments/Comment`, `Viewpoints/ViewPoint`),
/// `TopicType` and `TopicStatus` required, and a document reference pointing at a `Url`.
struct BCFMarkup30: Codable {
    var topic: Topic

    enum CodingKeys: String, CodingKey { case topic = "Topic" }

    struct Topic: BCFElement {
        var guid: String
        var topicType: String
        var topicStatus: String
        var title: String
        var priority: String?
        var index: Int?
        var labels: Labels?
        var creationDate: String
        var creationAuthor: String
        var modifiedDate: String?
        var modifiedAuthor: String?
        var dueDate: String?
        var assignedTo: String?
        var description: String?
        var bimSnippet: BCFMarkup21.BimSnippet?
        var documentReferences: DocumentReferences?
        var comments: Comments?
        var viewpoints: Viewpoints?

        enum CodingKeys: String, CodingKey {
            case guid = "Guid", topicType = "TopicType", topicStatus = "TopicStatus", title = "Title", priority = "Priority", index = "Index"
            case labels = "Labels", creationDate = "CreationDate", creationAuthor = "CreationAuthor", modifiedDate = "ModifiedDate"
            case modifiedAuthor = "ModifiedAuthor", dueDate = "DueDate", assignedTo = "AssignedTo", description = "Description"
            case bimSnippet = "BimSnippet", documentReferences = "DocumentReferences", comments = "Comments", viewpoints = "Viewpoints"
        }

        static let attributes: Set<String> = ["Guid", "TopicType", "TopicStatus"]
    }

    struct Labels: Codable {
        var label: [String]
        enum CodingKeys: String, CodingKey { case label = "Label" }
    }

    struct DocumentReferences: Codable {
        var documentReference: [DocumentReference]
        enum CodingKeys: String, CodingKey { case documentReference = "DocumentReference" }
    }

    struct DocumentReference: BCFElement {
        var guid: String
        var documentGuid: String?
        var url: String?
        var description: String?

        enum CodingKeys: String, CodingKey { case guid = "Guid", documentGuid = "DocumentGuid", url = "Url", description = "Description" }

        static let attributes: Set<String> = ["Guid"]
    }

    struct Comments: Codable {
        var comment: [BCFMarkup21.Comment]
        enum CodingKeys: String, CodingKey { case comment = "Comment" }
    }

    struct Viewpoints: Codable {
        var viewPoint: [BCFMarkup21.ViewPoint]
        enum CodingKeys: String, CodingKey { case viewPoint = "ViewPoint" }
    }
}

extension BCFMarkup30 {
    /// The markup of `topic` (viewpoint files named as for 2.1). A topic without type or status gets `Issue` and `Open`
    /// (3.0 requires both).
    init(_ topic: BCFTopic) {
        self.topic = Topic(
            guid: topic.guid, topicType: topic.type ?? "Issue", topicStatus: topic.status ?? "Open", title: topic.title, priority: topic.priority,
            index: topic.index, labels: topic.labels.isEmpty ? nil : Labels(label: topic.labels), creationDate: topic.creationDate,
            creationAuthor: topic.creationAuthor, modifiedDate: topic.modifiedDate, modifiedAuthor: topic.modifiedAuthor, dueDate: topic.dueDate,
            assignedTo: topic.assignedTo, description: topic.description,
            bimSnippet: topic.placement == nil ? nil : .placement,
            documentReferences: topic.documentReferences.isEmpty ? nil : DocumentReferences(documentReference: topic.documentReferences.map {
                DocumentReference(guid: $0.guid, documentGuid: nil, url: $0.url, description: $0.description)
            }),
            comments: topic.comments.isEmpty ? nil : Comments(comment: topic.comments.map {
                BCFMarkup21.Comment(guid: $0.guid, date: $0.date, author: $0.author, comment: $0.text,
                                    viewpoint: $0.viewpoint.map(BCFMarkup21.CommentViewpoint.init))
            }),
            viewpoints: topic.viewpoints.isEmpty ? nil : Viewpoints(viewPoint: topic.viewpoints.enumerated().map { index, viewpoint in
                let files = BCFFiles.viewpoint(index, guid: viewpoint.guid)
                return BCFMarkup21.ViewPoint(guid: viewpoint.guid, viewpoint: files.visualization,
                                             snapshot: viewpoint.snapshot == nil ? nil : files.snapshot, index: nil)
            }))
    }
}
