import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A `planmark-server` (or `planmark serve`) process on a loopback port chosen by the system.
final class RunningServer: @unchecked Sendable {
    /// The process.
    let process: Process
    /// The port it listens on.
    private(set) var port = 0
    private let lock = NSLock()
    private var stderrText = ""
    private let stderrPipe = Pipe()

    /// Starts `executable` with `arguments` (which should include `--port 0`) and waits up to 30 s for
    /// its "listening on" line; throws when it exits first.
    init(executable: String, arguments: [String], environment: [String: String] = [:]) throws {
        process = Process()
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardError = stderrPipe
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let handle = stderrPipe.fileHandleForReading
        try process.run()
        DispatchQueue.global().async { [self] in
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                lock.withLock { stderrText += String(decoding: data, as: UTF8.self) }
            }
        }
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let match = stderr.firstMatch(of: /listening on http:\/\/[^:]+:(\d+)/) {
                port = Int(match.1)!
                return
            }
            if !process.isRunning { break }
            usleep(20_000)
        }
        process.terminate()
        throw ServerStartFailure(stderr: stderr)
    }

    /// Everything written to stderr so far.
    var stderr: String { lock.withLock { stderrText } }

    /// Sends `signal` and waits up to 30 s for the exit status.
    func stop(signal: Int32 = SIGTERM) -> Int32? {
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            process.terminate()
            return nil
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// The server exited or never said where it listens.
struct ServerStartFailure: Error, CustomStringConvertible {
    var stderr: String
    var description: String { "the server did not start: \(stderr)" }
}
