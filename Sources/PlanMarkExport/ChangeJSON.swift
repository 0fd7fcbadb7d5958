import PlanMarkFormats
import PlanMarkStore

/// The change feed's JSON, one shape for the service (`GET /changes`) and the CLI (`planmark changes`):
/// a change is `{"cursor","drawing","kind","number","uuid","marker"}`: `kind` `upsert` carries the marker object as it
/// is now (`MarkerWriter.object`), `remove` its number and uuid (a tombstone, `marker` null), a drawing's kind
/// (`drawing-added`, `drawing-renamed`, `drawing-regions`, `drawing-revised`, `drawing-calibrated`, `drawing-removed`)
/// only the drawing (`number`, `uuid`, `marker` null). A page is `{"changes":[...],"next":CURSOR,"more":BOOL}`.
public enum ChangeJSON {
    /// One change, without a line break.
    /// - Complexity: O(size of the marker's text).
    public static func object(_ change: Change) -> String {
        var text = "{\"cursor\":\(change.cursor),\"drawing\":" + JSONString.quoted(change.drawing) + ",\"kind\":\"" + change.kind.rawValue + "\""
        text += ",\"number\":" + (change.number.map { String($0) } ?? "null")
        text += ",\"uuid\":" + (change.uuid.map { "\"" + $0.text + "\"" } ?? "null")
        text += ",\"marker\":" + (change.marker.map { MarkerWriter.object($0, conversion: nil) } ?? "null")
        return text + "}"
    }

    /// A page of `changes` (those the reader may see of `page`), with the page's `next` and `more`, and a line break.
    /// - Complexity: O(size of the text).
    public static func page(_ page: ChangePage, changes: [Change]) -> String {
        "{\"changes\":[" + changes.map(object).joined(separator: ",") + "],\"next\":\(page.next),\"more\":\(page.more)}\n"
    }
}
