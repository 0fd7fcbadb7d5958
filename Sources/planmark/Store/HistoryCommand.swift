import ArgumentParser
import PlanMarkFormats
import PlanMarkStore

/// `planmark history NAME [NUMBER]`.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show every change to a drawing's markers (or to one marker), oldest first, with old and new values.",
        discussion: """
        Actions: created, moved, resolved (to closed), reopened (to open; from ready with the reason), status (to \
        in-progress, ready or void), edited (note, category, priority, assignee, due, rooms), attached, detached, \
        removed. The old and new values name only the fields that changed (x, y, status, note, rooms, uuid, ref, \
        category, priority, assignee, due, capturedAt, reason, attachment {id, sha256, size, contentType, caption}).
        """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The drawing's name.")
    var name: String

    @Argument(help: "Only this marker's history.")
    var number: Int?

    @Option(name: .long, help: "text or jsonl (one object a change: number, lastNumber for an import's range, action, at, author, old, new).")
    var format: HistoryFormat = .text

    enum HistoryFormat: String, ExpressibleByArgument, CaseIterable { case text, jsonl }

    func run() async throws {
        try await storeCommand {
            let entries = try await storeOptions.open().history(of: name, number: number)
            let out = StandardOutput()
            for entry in entries {
                switch format {
                case .jsonl:
                    let range = entry.lastNumber.map { ",\"lastNumber\":\($0)" } ?? ""
                    try out.write("{\"number\":\(entry.number)\(range),\"action\":\"\(entry.action.rawValue)\",\"at\":\"\(entry.at.text)\""
                        + ",\"author\":" + (entry.author.map(JSONString.quoted) ?? "null")
                        + ",\"old\":" + (entry.old?.jsonText ?? "null") + ",\"new\":" + (entry.new?.jsonText ?? "null") + "}\n")
                case .text:
                    let range = entry.lastNumber.map { "...\($0)" } ?? ""
                    var line = "\(entry.at.text)  #\(entry.number)\(range) \(entry.action.rawValue)"
                    if let author = entry.author { line += " by \(author)" }
                    if let old = entry.old { line += "  old \(old.jsonText)" }
                    if let new = entry.new { line += "  new \(new.jsonText)" }
                    try out.write(line + "\n")
                }
            }
            try out.flush()
        }
    }
}
