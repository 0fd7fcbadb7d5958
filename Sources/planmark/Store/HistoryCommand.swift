import ArgumentParser
import PlanMarkExport
import PlanMarkFrontDoor
import PlanMarkFormats
import PlanMarkStore

/// `planmark history [show] NAME [NUMBER]`, `history verify`, `history head`.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show a drawing's history, or check the store's history chain.",
        discussion: """
        Every history entry carries the SHA-256 of the previous entry's hash and its own bytes (docs/history.md): \
        `history verify` checks the whole chain, `history head` prints its last hash for an auditor to keep.
        """,
        subcommands: [HistoryShowCommand.self, HistoryVerifyCommand.self, HistoryHeadCommand.self],
        defaultSubcommand: HistoryShowCommand.self
    )
}

/// `planmark history [show] NAME [NUMBER]`.
struct HistoryShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show every change to a drawing's markers (or to one marker), oldest first, with old and new values.",
        discussion: """
        Actions: created, moved, resolved (to closed), reopened (to open; from ready with the reason), status (to \
        in-progress, ready or void), edited (note, category, priority, assignee, due, rooms), attached, detached, \
        removed, revised, commented. The old and new values name only the fields that changed (x, y, status, note, \
        rooms, uuid, ref, category, priority, assignee, due, capturedAt, reason, attachment {id, sha256, size, \
        contentType, caption}, needsPlacement, revision, comment).
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

    /// A whole drawing's history is written as it is read (`forEachHistoryEntry`: a drawing of 300,000 entries took
    /// 428.6 MiB when it was read whole first, 37.9 MiB now); one marker's is read whole (`history(of:number:)` expands its import).
    func run() async throws {
        try await storeCommand {
            let store = try await storeOptions.open()
            let out = StandardOutput()
            if let number {
                for entry in try await store.history(of: name, number: number) { try out.write(line(entry)) }
            } else {
                var failure: OutputError?
                try await store.forEachHistoryEntry(in: name) { entry in
                    do throws(OutputError) { try out.write(line(entry)) } catch { failure = error; return false }
                    return true
                }
                if let failure { throw failure }
            }
            try out.flush()
        }
    }

    /// One entry in `format`, with its newline.
    func line(_ entry: HistoryEntry) -> String {
        switch format {
        case .jsonl:
            return HistoryJSON.line(entry)
        case .text:
            let range = entry.lastNumber.map { "...\($0)" } ?? ""
            var line = "\(entry.at.text)  #\(entry.number)\(range) \(entry.action.rawValue)"
            if let author = entry.author { line += " by \(author)" }
            if let old = entry.old { line += "  old \(old.jsonText)" }
            if let new = entry.new { line += "  new \(new.jsonText)" }
            return line + "\n"
        }
    }
}

/// `planmark history verify`: checks the whole store's hash chain.
struct HistoryVerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check every history entry of the store against the hash chain.",
        discussion: """
        Prints `history: N entries verified` and exits 0 when every entry's hash is SHA-256 of the previous entry's \
        hash and its own bytes and the head is the last hash; otherwise names the first entry that does not verify \
        (its id, drawing and marker) and exits 1. Editing, deleting, inserting or reordering history rows with an SQL \
        client is found here. With --head, the chain must also pass through that hash (one `history head` printed \
        earlier): proof that nothing up to it changed since; when it does not, exit 1.
        """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Option(name: .long, help: ArgumentHelp("A hash `history head` printed earlier, which the chain must still pass through.", valueName: "hash"))
    var head: String?

    func validate() throws {
        if let head, head.count != 64 || !head.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) {
            throw ValidationError("--head: \"\(head)\" is not a hash (64 lowercase hexadecimal digits, as `history head` prints)")
        }
    }

    func run() async throws {
        try await storeCommand {
            let reader = try await StoreOpener.tableReader(storeOptions.location)
            let verification: HistoryVerification
            do {
                verification = try await verifyHistory(reader, through: head)
            } catch {
                await reader.close()
                throw error
            }
            await reader.close()
            let out = StandardOutput()
            switch verification {
            case .verified(let count, _):
                try out.write("history: \(count) \(count == 1 ? "entry" : "entries") verified\n")
                try out.flush()
            case .broken(let broken):
                let place: String
                if let id = broken.entryID {
                    place = "entry \(id) (drawing \(JSONString.quoted(broken.drawing ?? "?")), marker \(broken.number ?? 0))"
                } else {
                    place = "the head"
                }
                try out.write("history: \(place) does not verify; \(broken.verifiedBefore) entries before it verified\n")
                try out.flush()
                printError("planmark: history verify: \(place): \(broken.problem)")
                throw ExitCode(1)
            }
        }
    }
}

/// `planmark history head`: the chain's last hash.
struct HistoryHeadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "head",
        abstract: "Print the history chain's last hash (64 hexadecimal digits), for an auditor to keep.",
        discussion: """
        Keep it outside the store; later, `history verify --head HASH` proves that the chain still passes through it, \
        so that no entry up to it has changed since.
        """
    )

    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        try await storeCommand {
            let head = try await storeOptions.open().historyHead()
            try StandardOutput.print(head + "\n")
        }
    }
}
