import Foundation
import PlanMarkTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A `planmark-server` (or `planmark serve`) process on a loopback port chosen by the system.
///
/// Everything is waited for as an event: its stderr lines (read on a Dispatch thread that wakes the
/// waiters) and its exit (the process's termination handler). Nothing polls or sleeps; a server that
/// never says what a test waits for fails the test when its stderr closes, or the test's time limit.
final class RunningServer: @unchecked Sendable {
    /// The process.
    let process: Process
    /// The port it listens on.
    private(set) var port = 0

    private let lock = NSLock()
    private var stderrText = ""
    private var stderrClosed = false
    private var textWaiters: [(match: @Sendable (String) -> String?, continuation: CheckedContinuation<String, any Error>)] = []
    private var exitStatus: Int32?
    private var exitWaiters: [CheckedContinuation<Int32, Never>] = []

    /// Starts `executable` with `arguments` (which should include `--port 0`) and waits for its
    /// "listening on" line; throws when its stderr closes first.
    init(executable: String, arguments: [String], environment: [String: String] = [:]) async throws {
        process = Process()
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stderrPipe = ChildProcess.pipe()
        process.standardError = stderrPipe
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { [weak self] process in self?.exited(process.terminationStatus) }
        try ChildProcess.run(process)
        let handle = stderrPipe.fileHandleForReading
        DispatchQueue.global().async { [self] in
            while true {
                let data = handle.readAvailableBytes()
                if data.isEmpty { break }
                received(String(decoding: data, as: UTF8.self))
            }
            received(nil)
        }
        do {
            let line = try await waitForStderr(matching: /listening on http:\/\/\S+:\d+/)
            port = Int(line.split(separator: ":").last ?? "") ?? 0
        } catch {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw error
        }
    }

    /// Everything written to stderr so far.
    var stderr: String { lock.withLock { stderrText } }

    /// Waits until stderr contains a match of `regex` (already written or still to come); returns
    /// the matched text. Throws when stderr closes without one.
    func waitForStderr(matching regex: Regex<some Any>) async throws -> String {
        nonisolated(unsafe) let regex = regex
        return try await waitForStderr { text in text.firstMatch(of: regex).map { String(text[$0.range]) } }
    }

    /// Waits until stderr contains `text`.
    func waitForStderr(containing text: String) async throws {
        _ = try await waitForStderr { $0.contains(text) ? text : nil }
    }

    private func waitForStderr(_ match: @escaping @Sendable (String) -> String?) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            let result = lock.withLock { () -> Result<String, any Error>? in
                if let found = match(stderrText) { return .success(found) }
                if stderrClosed { return .failure(ServerStartFailure(stderr: stderrText)) }
                textWaiters.append((match, continuation))
                return nil
            }
            if let result { continuation.resume(with: result) }
        }
    }

    private func received(_ chunk: String?) {
        let ready = lock.withLock { () -> [(CheckedContinuation<String, any Error>, Result<String, any Error>)] in
            if let chunk { stderrText += chunk } else { stderrClosed = true }
            var ready: [(CheckedContinuation<String, any Error>, Result<String, any Error>)] = []
            textWaiters.removeAll { waiter in
                if let found = waiter.match(stderrText) {
                    ready.append((waiter.continuation, .success(found)))
                    return true
                }
                if stderrClosed {
                    ready.append((waiter.continuation, .failure(ServerStartFailure(stderr: stderrText))))
                    return true
                }
                return false
            }
            return ready
        }
        for (continuation, result) in ready { continuation.resume(with: result) }
    }

    private func exited(_ status: Int32) {
        let waiters = lock.withLock { () -> [CheckedContinuation<Int32, Never>] in
            exitStatus = status
            defer { exitWaiters = [] }
            return exitWaiters
        }
        for waiter in waiters { waiter.resume(returning: status) }
    }

    /// Waits for the process to exit; its status.
    func waitForExit() async -> Int32 {
        await withCheckedContinuation { continuation in
            let status = lock.withLock { () -> Int32? in
                if let exitStatus { return exitStatus }
                exitWaiters.append(continuation)
                return nil
            }
            if let status { continuation.resume(returning: status) }
        }
    }

    /// Sends `signal` without waiting.
    func signal(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Sends `signal` and waits for the exit status.
    func stop(signal: Int32 = SIGTERM) async -> Int32 {
        kill(process.processIdentifier, signal)
        return await waitForExit()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// The server exited or never said what was waited for.
struct ServerStartFailure: Error, CustomStringConvertible {
    var stderr: String
    var description: String { "the server's stderr closed before the awaited line: \(stderr)" }
}
