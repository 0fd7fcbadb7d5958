import PlanMarkFormats
import PlanMarkStore

/// A marker's history as JSON, for both front doors: `planmark history --format jsonl` (one entry a line, with its
/// number and an import's `lastNumber`) and `GET .../markers/N/history` (one object). Written by hand rather than
/// through `Codable`: `old` and `new` are the entries' stored text (`MarkerState.jsonText`, the hash chain's canonical
/// form), carried byte for byte.
public enum HistoryJSON {
    /// `"action":..,"at":..,"author":..,"old":..,"new":..`: an entry's members, without braces; `old`/`new` hold only
    /// the fields the change touched.
    /// - Complexity: O(length of the entry).
    public static func members(_ entry: HistoryEntry) -> String {
        "\"action\":\"\(entry.action.rawValue)\",\"at\":\"\(entry.at.text)\",\"author\":" + (entry.author.map(JSONString.quoted) ?? "null")
            + ",\"old\":" + (entry.old?.jsonText ?? "null") + ",\"new\":" + (entry.new?.jsonText ?? "null")
    }

    /// One line of `history --format jsonl`: `{"number":N[,"lastNumber":M],` + `members` + `}`.
    public static func line(_ entry: HistoryEntry) -> String {
        "{\"number\":\(entry.number)" + (entry.lastNumber.map { ",\"lastNumber\":\($0)" } ?? "") + "," + members(entry) + "}\n"
    }

    /// `{"drawing":..,"number":..,"history":[{members}, ...]}`, oldest first (the service's answer).
    /// - Complexity: O(total length of the entries).
    public static func object(drawing: String, number: Int, entries: [HistoryEntry]) -> String {
        "{\"drawing\":" + JSONString.quoted(drawing) + ",\"number\":\(number),\"history\":["
            + entries.map { "{" + members($0) + "}" }.joined(separator: ",") + "]}\n"
    }
}
