import Foundation
import PlanMarkFormats

/// Where a PlanMark marker is, carried in its BCF topic so that PlanMark can read it back: the topic's `BimSnippet`
/// (`SnippetType="PlanMarkPlacement"`) names `planmark.json` in the topic's folder, this value as JSON. BCF itself has
/// no position on a 2D sheet; tools that do not know the snippet keep or drop it, and read the rest of the topic.
///
/// ```json
/// {"drawing":"Level 2","revision":1,"x":1204.5,"y":388,"number":12,"capturedAt":null,"ref":null,
///  "people":{"ann@example.com":"ann"},"statusComments":["6f0c…"]}
/// ```
public struct BCFPlacement: Codable, Hashable, Sendable {
    /// The drawing's name.
    public var drawing: String
    /// The drawing's revision the position is on.
    public var revision: Int
    /// Pixels of the full-resolution sheet, from its top left corner.
    public var x: Double
    public var y: Double
    /// The marker's number on that drawing (also the topic's `Index`).
    public var number: Int
    /// When the client captured it (its clock and offset), as PlanMark keeps it.
    public var capturedAt: String?
    /// The id the markers file gave it.
    public var ref: String?
    /// PlanMark's user names of the e-mail addresses the topic's authors and assignee are written as, so that an
    /// import into a store without those users keeps the names.
    public var people: [String: String]
    /// The Guids of the topic's comments that record status changes (PlanMark writes the workflow into the thread):
    /// an import stores the status, not these as comments.
    public var statusComments: [String]
    /// True when the marker has no category and the topic's type is the word BCF 3.0 requires instead (`Issue`).
    public var untyped: Bool?

    /// The snippet's type, the name of its file in the topic's folder, and the page that documents it.
    public static let snippetType = "PlanMarkPlacement"
    public static let fileName = "planmark.json"
    public static let schema = "https://planmark.invalid/docs/bcf.md#placement"

    public init(drawing: String, revision: Int, x: Double, y: Double, number: Int, capturedAt: String? = nil, ref: String? = nil,
                people: [String: String] = [:], statusComments: [String] = [], untyped: Bool = false) {
        self.drawing = drawing
        self.revision = revision
        self.x = x
        self.y = y
        self.number = number
        self.capturedAt = capturedAt
        self.ref = ref
        self.people = people
        self.statusComments = statusComments
        self.untyped = untyped ? true : nil
    }

    /// The JSON (`JSONDocument`'s, as every shape: one marker always gives the same bytes).
    public func json() throws(BCFError) -> [UInt8] {
        Array(JSONDocument.text(self).utf8)
    }

    /// Reads the JSON; nil when it is not this shape (a snippet of another tool's of the same name is ignored).
    public init?(json: [UInt8]) {
        guard let value = try? JSONDecoder().decode(BCFPlacement.self, from: Data(json)), value.x.isFinite, value.y.isFinite else {
            return nil
        }
        self = value
    }
}
