import PlanMarkFormats
import PlanMarkStore

/// A marker's history entry as JSON, for both front doors: `planmark history --format jsonl` (one entry a line, with
/// its number and an import's `lastNumber`) and `GET .../markers/N/history` (`{"drawing","number","history":[...]}`).
/// `old` and `new` are the entry's stored text (`MarkerState.jsonText`, the hash chain's canonical form, only the
/// fields the change touched), carried byte for byte as `JSONFragment`s; null when the entry has none.
public struct HistoryJSON: Encodable, Sendable {
    /// The marker's number (the CLI's lines; the service's object names it once, above its entries).
    public var number: Int?
    /// The last number of an import's range.
    public var lastNumber: Int?
    public var action: String
    public var at: Timestamp
    @NullWhenAbsent public var author: String?
    @NullWhenAbsent public var old: JSONFragment?
    @NullWhenAbsent public var new: JSONFragment?

    /// `entry`'s shape; with `numbered`, its `number` and `lastNumber` too.
    /// - Complexity: O(length of the entry).
    public init(_ entry: HistoryEntry, numbered: Bool) {
        if numbered {
            number = entry.number
            lastNumber = entry.lastNumber
        }
        action = entry.action.rawValue
        at = entry.at
        author = entry.author
        old = entry.old.map { JSONFragment($0.jsonText) }
        new = entry.new.map { JSONFragment($0.jsonText) }
    }

    /// One line of `history --format jsonl`: `{"number":N[,"lastNumber":M],"action","at","author","old","new"}`.
    /// - Complexity: O(length of the entry).
    public static func line(_ entry: HistoryEntry) -> String {
        JSONDocument.line(HistoryJSON(entry, numbered: true))
    }

    /// `{"drawing":..,"number":..,"history":[{"action","at","author","old","new"}, ...]}`, oldest first (the service's answer).
    /// - Complexity: O(total length of the entries).
    public static func object(drawing: String, number: Int, entries: [HistoryEntry]) -> String {
        struct History: Encodable { var drawing: String; var number: Int; var history: [HistoryJSON] }
        return JSONDocument.line(History(drawing: drawing, number: number, history: entries.map { HistoryJSON($0, numbered: false) }))
    }
}
