import Foundation
import Logging

/// Keeps every message logged through it and lets a test wait for one (no polling, no sleeps).
final class LogRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    private var waiters: [(predicate: @Sendable (String) -> Bool, continuation: CheckedContinuation<String, Never>)] = []

    /// Every line so far.
    var all: [String] { lock.withLock { lines } }

    /// A logger writing here at `level` and above.
    func logger(level: Logger.Level = .info) -> Logger {
        var logger = Logger(label: "test") { _ in Handler(recorder: self) }
        logger.logLevel = level
        return logger
    }

    func append(_ line: String) {
        let ready = lock.withLock { () -> [CheckedContinuation<String, Never>] in
            lines.append(line)
            var matched: [CheckedContinuation<String, Never>] = []
            waiters.removeAll { waiter in
                guard waiter.predicate(line) else { return false }
                matched.append(waiter.continuation)
                return true
            }
            return matched
        }
        for continuation in ready { continuation.resume(returning: line) }
    }

    /// The first line (already logged or still to come) for which `predicate` holds.
    func waitForLine(where predicate: @escaping @Sendable (String) -> Bool) async -> String {
        await withCheckedContinuation { continuation in
            let found = lock.withLock { () -> String? in
                if let line = lines.first(where: predicate) { return line }
                waiters.append((predicate, continuation))
                return nil
            }
            if let found { continuation.resume(returning: found) }
        }
    }

    struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) { recorder.append(event.message.description) }
    }
}
