import PlanMarkFormats
import PlanMarkStore

/// A marker's history as JSON.
enum HistoryJSON {
    /// `{"drawing":..,"number":..,"history":[{"action","at","author","old","new"}, ...]}`, oldest first;
    /// `old`/`new` hold only the fields the change touched.
    /// - Complexity: O(total length of the entries).
    static func object(drawing: String, number: Int, entries: [HistoryEntry]) -> String {
        var out = "{\"drawing\":" + JSONString.quoted(drawing) + ",\"number\":\(number),\"history\":["
        for (index, entry) in entries.enumerated() {
            if index > 0 { out += "," }
            out += "{\"action\":\"\(entry.action.rawValue)\",\"at\":\"\(entry.at.text)\",\"author\":"
            out += entry.author.map(JSONString.quoted) ?? "null"
            out += ",\"old\":" + (entry.old?.jsonText ?? "null")
            out += ",\"new\":" + (entry.new?.jsonText ?? "null") + "}"
        }
        return out + "]}\n"
    }
}
