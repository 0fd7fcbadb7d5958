import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `planmark serve`: replaces this process with `planmark-server` from the same folder, so the CLI
/// itself never links the HTTP stack.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the store to map clients over HTTP (runs planmark-server from the same folder).",
        discussion: """
        GET / is the review page for browsers. Endpoints: GET /health, /drawings, /drawings/NAME (bounds for an image overlay), /drawings/NAME/image, \
        /drawings/NAME/regions[?zoom=Z], /drawings/NAME/markers[?zoom=Z&status=open], /drawings/NAME/review.png; \
        POST /drawings/NAME/markers; PATCH and DELETE /drawings/NAME/markers/N; POST /validate; GET /openapi.json. \
        HEAD wherever GET. Writes need Content-Type: application/json; a Host that is not this server gets 421.
        The store (--store or $PLANMARK_STORE) is an SQLite file or postgres://USER@HOST[:PORT]/DATABASE.
        Stops on SIGINT or SIGTERM after finishing requests in flight.
        """
    )

    /// Everything after `serve`, handed to `planmark-server` as it is: its options are declared once, there
    /// (`planmark serve --help` prints them), so the two front doors cannot drift.
    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp(
        "planmark-server's options: --store, --host, --port, --token, --token-file, --max-body, --max-attachment, --cors-origin, --allowed-host, --max-vertices, --max-markers, --max-validations, --tile-cache, --tile-cache-size, --max-heavy-jobs, --heavy-queue, --head-timeout, --idle-timeout, --max-connections, --max-streams, --event-loops, --shutdown-grace, --pdf-time-limit, --busy-timeout, --web-root, --leaflet-dir, --markercluster-dir, --log-level (planmark serve --help lists them).",
        valueName: "server-options"))
    var serverArguments: [String] = []

    func run() throws {
        let server = Self.serverPath()
        guard access(server, X_OK) == 0 else {
            throw fail(CommandFailure(place: "serve", message: "planmark-server is not built; run: swift build --product planmark-server",
                                      code: Exit.unavailable))
        }
        let argv = ([server] + serverArguments).map { strdup($0) } + [nil]
        execv(server, argv)
        // Only reached when execv failed.
        throw fail(CommandFailure(place: "serve", message: "cannot run \(server): \(String(cString: strerror(errno)))", code: Exit.unavailable))
    }

    /// `planmark-server` in the folder of this executable (`/proc/self/exe`, else argv[0]).
    static func serverPath() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let executable = count > 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
        let folder = executable.lastIndex(of: "/").map { String(executable[..<$0]) } ?? "."
        return (folder.isEmpty ? "" : folder) + "/planmark-server"
    }
}
