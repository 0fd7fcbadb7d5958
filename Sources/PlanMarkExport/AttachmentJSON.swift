import PlanMarkFormats
import PlanMarkStore

/// A marker's attachments as JSON, the one shape of `planmark attachments NAME N --format json` and the
/// service's `GET /drawings/{name}/markers/{n}/attachments`: `{"attachments":[...]}`, each `Attachment`'s own shape
/// (the service's answer to an upload), oldest first.
public struct AttachmentJSON: Encodable, Sendable {
    public var attachments: [Attachment]

    /// The list of `attachments`.
    public init(_ attachments: [Attachment]) { self.attachments = attachments }
}
