import PlanMarkFormats
import PlanMarkStore

/// The change feed's JSON, one shape for the service (`GET /changes`) and the CLI (`planmark changes`):
/// a change is `{"cursor","drawing","kind","number","uuid","marker"}`: `kind` `upsert` carries the marker object as it
/// is now (`MarkerWriter.object`), `remove` its number and uuid (a tombstone, `marker` null), a drawing's kind
/// (`drawing-added`, `drawing-renamed`, `drawing-regions`, `drawing-revised`, `drawing-calibrated`, `drawing-removed`)
/// only the drawing (`number`, `uuid`, `marker` null). A page is `{"changes":[...],"next":CURSOR,"more":BOOL}`.
public struct ChangeJSON: Encodable, Sendable {
    public var cursor: Int64
    public var drawing: String
    public var kind: String
    @NullWhenAbsent public var number: Int?
    @NullWhenAbsent public var uuid: String?
    /// The marker's object as `MarkerWriter` writes it (the listing's measured writer, so a change and a listing agree).
    @NullWhenAbsent public var marker: JSONFragment?

    /// The shape of `change`.
    /// - Complexity: O(size of the marker's text).
    public init(_ change: Change) {
        cursor = change.cursor
        drawing = change.drawing
        kind = change.kind.rawValue
        number = change.number
        uuid = change.uuid?.text
        marker = change.marker.map { JSONFragment(MarkerWriter.object($0, conversion: nil)) }
    }

    /// One change, without a line break.
    /// - Complexity: O(size of the marker's text).
    public static func object(_ change: Change) -> String {
        JSONDocument.text(ChangeJSON(change))
    }

    /// A page of `changes` (those the reader may see of `page`), with the page's `next` and `more`, and a line break.
    /// - Complexity: O(size of the text).
    public static func page(_ page: ChangePage, changes: [Change]) -> String {
        struct Page: Encodable { var changes: [ChangeJSON]; var next: Int64; var more: Bool }
        return JSONDocument.line(Page(changes: changes.map(ChangeJSON.init), next: page.next, more: page.more))
    }
}
