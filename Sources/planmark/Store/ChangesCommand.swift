import ArgumentParser
import PlanMarkExport
import PlanMarkStore

/// `planmark changes [--since CURSOR] [--drawing NAME] [--follow]`: the change feed as JSON lines.
struct ChangesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "changes",
        abstract: "Print the store's changes after a cursor, one JSON object a line.",
        discussion: """
        Each line is a change as GET /changes gives it: {"cursor","drawing","kind","number","uuid","marker"}, kind \
        upsert (the marker as it is now), remove (a tombstone: number and uuid) or a drawing's change (drawing-added, \
        drawing-renamed, drawing-regions, drawing-revised, drawing-calibrated, drawing-removed). A marker is listed \
        once, at its last change. Keep the last cursor and pass it to --since next time: every change after it is \
        printed, none twice. --follow keeps printing changes as they are committed (by any process), until stopped.
        """
    )

    @OptionGroup var storeOptions: StoreOptions
    @Option(name: .long, help: "The cursor to print the changes after (default 0: from the beginning).") var since: Int64 = 0
    @Option(name: .long, help: "Only this drawing's changes.") var drawing: String?
    @Flag(name: .long, help: "Keep printing new changes, until stopped.") var follow = false

    func validate() throws {
        guard since >= 0 else { throw ValidationError("--since: expected a cursor >= 0, found \(since)") }
    }

    func run() async throws {
        try await storeCommand {
            let store = try await storeOptions.open()
            let out = StandardOutput()
            var cursor = since
            // --follow: the store's watcher (as the service's: PostgreSQL's LISTEN, SQLite's counter read ten times a
            // second) says when changes may have been committed; wakes coalesce.
            let (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
            let watcher = follow ? Task { await store.watchChanges { _ in wake.yield() } } : nil
            defer { watcher?.cancel() }
            var next = wakes.makeAsyncIterator()
            while true {
                let page = try await store.changes(since: cursor, drawing: drawing, limit: ChangePage.defaultLimit)
                for change in page.changes { try out.write(ChangeJSON.object(change) + "\n") }
                try out.flush()
                cursor = page.next
                if page.more { continue }
                if !follow { return }
                guard await next.next() != nil else { return }
            }
        }
    }
}
