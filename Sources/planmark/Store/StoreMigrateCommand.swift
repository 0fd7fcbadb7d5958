import ArgumentParser
import PlanMarkExport
import PlanMarkFrontDoor
import PlanMarkStore

/// `planmark store migrate --from SRC --to DST`: copies a whole store, byte for byte, between SQLite and PostgreSQL.
struct StoreMigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Copy a whole store into an empty one: SQLite or PostgreSQL, either way.",
        discussion: """
        Copies every drawing (ids, names, counters, calibration, revision), revision, region, marker (with its number), \
        history entry, attachment, attachment blob and drawing image, value for value, table by table, all in one \
        transaction of the destination. The destination must have no drawing (else exit 1, nothing written). \
        A missing SQLite destination is created (in a temporary file beside it, renamed into place at the end); a \
        PostgreSQL destination database must exist and gets PlanMark's tables when it has none. PostgreSQL's id \
        sequences are set past the copied ids. The source is read in one snapshot; stop writers to it first so that \
        nothing written after the snapshot is left behind.
        A store is an SQLite file or postgres://USER@HOST[:PORT]/DATABASE (password from $PGPASSWORD or the URL; \
        never printed).
        Exit status: 0 copied, 1 refused (the destination has drawings), 64 bad usage, 66 no source store, \
        74 I/O error or database unreachable.
        """
    )

    @Option(name: .long, help: ArgumentHelp("The store to copy: an SQLite file or a postgres:// URL.", valueName: "store"))
    var from: String

    @Option(name: .long, help: ArgumentHelp("The empty store to copy into: an SQLite file (created if missing) or a postgres:// URL.",
                                            valueName: "store"))
    var to: String

    func run() async throws {
        try await storeCommand {
            let reader = try await Self.reader(from)
            var counts: [String] = []
            do {
                let writer = try await Self.writer(to)
                try await copyStore(from: reader, to: writer, destinationName: Self.name(to)) { table, count in
                    counts.append("\(count) \(table.name)")
                }
            } catch {
                await reader.close()
                throw error
            }
            await reader.close()
            try StandardOutput.print("copied \(Self.name(from)) to \(Self.name(to)): \(counts.joined(separator: ", "))\n")
        }
    }

    /// The store `text` names as messages show it (a URL without its password).
    static func name(_ text: String) -> String { StoreOpener.name(StoreLocation(text: text, source: "--from")) }

    static func reader(_ text: String, source: String = "--from") async throws(StoreError) -> any StoreTableReader {
        try await StoreOpener.tableReader(StoreLocation(text: text, source: source))
    }

    static func writer(_ text: String) async throws(StoreError) -> any StoreTableWriter {
        try await StoreOpener.tableWriter(StoreLocation(text: text, source: "--to"))
    }
}
