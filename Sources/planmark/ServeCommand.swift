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
        Endpoints: GET /health, /drawings, /drawings/NAME (bounds for an image overlay), /drawings/NAME/image, \
        /drawings/NAME/regions[?zoom=Z], /drawings/NAME/markers[?zoom=Z&status=open], /drawings/NAME/review.png; \
        POST /drawings/NAME/markers; PATCH and DELETE /drawings/NAME/markers/N; POST /validate; GET /openapi.json. \
        HEAD wherever GET. Writes need Content-Type: application/json; a Host that is not this server gets 421.
        Stops on SIGINT or SIGTERM after finishing requests in flight.
        """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Option(name: .long, help: "The address to listen on; anything but loopback requires a token.")
    var host = "127.0.0.1"

    @Option(name: .long, help: "The TCP port (0: any free port; the chosen one is logged).")
    var port = 8080

    @Option(name: .long, help: ArgumentHelp("Require 'Authorization: Bearer TOKEN' on every request but /health.", valueName: "token"))
    var token: String?

    @Option(name: .long, help: ArgumentHelp("Read the token from this file (first line).", valueName: "file"))
    var tokenFile: String?

    @Option(name: .long, help: ArgumentHelp("The largest request body accepted, in bytes (default 1048576).", valueName: "bytes"))
    var maxBody: Int?

    @Option(name: .long, help: ArgumentHelp("Let browser clients on this origin call the service (CORS); * for any.", valueName: "origin"))
    var corsOrigin: String?

    @Option(name: .long, help: ArgumentHelp(
        "Also answer requests whose Host is NAME (on the listening port) or NAME:PORT; repeatable. Others get 421.", valueName: "name"))
    var allowedHost: [String] = []

    @Option(name: .long, help: ArgumentHelp("POST /validate: the most region vertices one request may hold (default 200000).", valueName: "count"))
    var maxVertices: Int?

    @Option(name: .long, help: ArgumentHelp("POST /validate: the most markers one request may hold (default 100000).", valueName: "count"))
    var maxMarkers: Int?

    @Option(name: .long, help: ArgumentHelp("POST /validate: the most validations at once; more get 503 (default: the number of cores).", valueName: "count"))
    var maxValidations: Int?

    @Option(name: .long, help: ArgumentHelp("Seconds a write waits for another process's lock on the store before 503 (default 10).", valueName: "seconds"))
    var busyTimeout: Double?

    @Option(name: .long, help: ArgumentHelp("trace, debug, info (default), notice, warning, error or critical.", valueName: "level"))
    var logLevel: String?

    func validate() throws {
        if token != nil && tokenFile != nil { throw ValidationError("give --token or --token-file, not both") }
    }

    func run() throws {
        var arguments = ["--store", storeOptions.path, "--host", host, "--port", String(port)]
        if let token { arguments += ["--token", token] }
        if let tokenFile { arguments += ["--token-file", tokenFile] }
        if let maxBody { arguments += ["--max-body", String(maxBody)] }
        if let corsOrigin { arguments += ["--cors-origin", corsOrigin] }
        for name in allowedHost { arguments += ["--allowed-host", name] }
        if let maxVertices { arguments += ["--max-vertices", String(maxVertices)] }
        if let maxMarkers { arguments += ["--max-markers", String(maxMarkers)] }
        if let maxValidations { arguments += ["--max-validations", String(maxValidations)] }
        if let busyTimeout { arguments += ["--busy-timeout", String(busyTimeout)] }
        if let logLevel { arguments += ["--log-level", logLevel] }
        let server = Self.serverPath()
        guard access(server, X_OK) == 0 else {
            throw fail(CommandFailure(place: "serve", message: "planmark-server is not built; run: swift build --product planmark-server",
                                      code: Exit.unavailable))
        }
        let argv = ([server] + arguments).map { strdup($0) } + [nil]
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
