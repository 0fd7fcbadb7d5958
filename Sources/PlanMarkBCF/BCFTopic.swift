/// One BCF topic as PlanMark writes and reads it, whatever the version: the fields of `markup.bcf`, its comments, its
/// viewpoints' snapshots, and PlanMark's own placement (`BCFPlacement`) when the topic carries one. Dates are
/// `xs:dateTime` text as the file has them.
public struct BCFTopic: Hashable, Sendable {
    /// Lower-case UUID: PlanMark's marker uuid.
    public var guid: String
    public var type: String?
    public var status: String?
    public var title: String
    public var priority: String?
    public var index: Int?
    public var labels: [String]
    public var creationDate: String
    public var creationAuthor: String
    public var modifiedDate: String?
    public var modifiedAuthor: String?
    public var dueDate: String?
    public var assignedTo: String?
    public var description: String?
    public var documentReferences: [BCFDocumentReference]
    public var comments: [BCFComment]
    public var viewpoints: [BCFViewpoint]
    /// Where the marker is on which drawing (the topic's BIM snippet `planmark.json`); nil for a topic another tool made.
    public var placement: BCFPlacement?

    /// Creates a topic.
    public init(guid: String, type: String? = nil, status: String? = nil, title: String, priority: String? = nil, index: Int? = nil,
                labels: [String] = [], creationDate: String, creationAuthor: String, modifiedDate: String? = nil, modifiedAuthor: String? = nil,
                dueDate: String? = nil, assignedTo: String? = nil, description: String? = nil,
                documentReferences: [BCFDocumentReference] = [], comments: [BCFComment] = [], viewpoints: [BCFViewpoint] = [],
                placement: BCFPlacement? = nil) {
        self.guid = guid
        self.type = type
        self.status = status
        self.title = title
        self.priority = priority
        self.index = index
        self.labels = labels
        self.creationDate = creationDate
        self.creationAuthor = creationAuthor
        self.modifiedDate = modifiedDate
        self.modifiedAuthor = modifiedAuthor
        self.dueDate = dueDate
        self.assignedTo = assignedTo
        self.description = description
        self.documentReferences = documentReferences
        self.comments = comments
        self.viewpoints = viewpoints
        self.placement = placement
    }
}

/// One comment of a topic.
public struct BCFComment: Hashable, Sendable {
    public var guid: String
    public var date: String
    public var author: String
    public var text: String
    /// The viewpoint it refers to.
    public var viewpoint: String?

    public init(guid: String, date: String, author: String, text: String, viewpoint: String? = nil) {
        self.guid = guid
        self.date = date
        self.author = author
        self.text = text
        self.viewpoint = viewpoint
    }
}

/// A topic's reference to a document: for PlanMark, the drawing (its name and revision in `description`, and a link).
public struct BCFDocumentReference: Hashable, Sendable {
    public var guid: String
    /// 2.1 `ReferencedDocument` (external), 3.0 `Url`.
    public var url: String?
    public var description: String?

    public init(guid: String, url: String?, description: String?) {
        self.guid = guid
        self.url = url
        self.description = description
    }
}

/// A viewpoint: its `.bcfv` (no camera: a sheet has no model coordinates) and its snapshot.
public struct BCFViewpoint: Hashable, Sendable {
    public var guid: String
    /// The PNG, or nil when the viewpoint has none (or, read from a file, when it was not a PNG).
    public var snapshot: [UInt8]?

    public init(guid: String, snapshot: [UInt8]?) {
        self.guid = guid
        self.snapshot = snapshot
    }
}
