/// A parsed `markup.bcf` as a version-neutral topic, with the names of the files it points to in its folder.
extension BCFMarkup21 {
    /// The topic (snapshots not read yet), each viewpoint's snapshot file, and PlanMark's snippet file when the topic's
    /// BIM snippet is PlanMark's.
    func topic(file: String) -> (BCFTopic, snapshots: [String?], snippet: String?) {
        let points = viewpoints ?? []
        let topic = BCFTopic(
            guid: self.topic.guid, type: self.topic.topicType, status: self.topic.topicStatus, title: self.topic.title,
            priority: self.topic.priority, index: self.topic.index, labels: self.topic.labels ?? [], creationDate: self.topic.creationDate,
            creationAuthor: self.topic.creationAuthor, modifiedDate: self.topic.modifiedDate, modifiedAuthor: self.topic.modifiedAuthor,
            dueDate: self.topic.dueDate, assignedTo: self.topic.assignedTo, description: self.topic.description,
            documentReferences: (self.topic.documentReferences ?? []).map {
                BCFDocumentReference(guid: $0.guid ?? "", url: $0.referencedDocument, description: $0.description)
            },
            comments: (comments ?? []).map {
                BCFComment(guid: $0.guid, date: $0.date, author: $0.author, text: $0.comment ?? "", viewpoint: $0.viewpoint?.guid)
            },
            viewpoints: points.map { BCFViewpoint(guid: $0.guid, snapshot: nil) })
        return (topic, points.map(\.snapshot), Self.snippetFile(self.topic.bimSnippet))
    }

    /// The snippet's file when it is PlanMark's placement inside the file.
    static func snippetFile(_ snippet: BimSnippet?) -> String? {
        guard let snippet, snippet.snippetType == BCFPlacement.snippetType, !snippet.isExternal else { return nil }
        return snippet.reference
    }
}

extension BCFMarkup30 {
    /// As `BCFMarkup21.topic(file:)`.
    func topic(file: String) -> (BCFTopic, snapshots: [String?], snippet: String?) {
        let points = topic.viewpoints?.viewPoint ?? []
        let result = BCFTopic(
            guid: topic.guid, type: topic.topicType, status: topic.topicStatus, title: topic.title, priority: topic.priority, index: topic.index,
            labels: topic.labels?.label ?? [], creationDate: topic.creationDate, creationAuthor: topic.creationAuthor,
            modifiedDate: topic.modifiedDate, modifiedAuthor: topic.modifiedAuthor, dueDate: topic.dueDate, assignedTo: topic.assignedTo,
            description: topic.description,
            documentReferences: (topic.documentReferences?.documentReference ?? []).map {
                BCFDocumentReference(guid: $0.guid, url: $0.url, description: $0.description)
            },
            comments: (topic.comments?.comment ?? []).map {
                BCFComment(guid: $0.guid, date: $0.date, author: $0.author, text: $0.comment ?? "", viewpoint: $0.viewpoint?.guid)
            },
            viewpoints: points.map { BCFViewpoint(guid: $0.guid, snapshot: nil) })
        return (result, points.map(\.snapshot),
                BCFMarkup21.snippetFile(topic.bimSnippet))
    }
}
