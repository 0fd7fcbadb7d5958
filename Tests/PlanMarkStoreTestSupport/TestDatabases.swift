import Foundation
import PlanMarkTestSupport
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import PlanMarkPostgres
import PostgresNIO

/// Throwaway PostgreSQL databases for tests, on the cluster `$PLANMARK_TEST_POSTGRES` names (an admin URL; `.ci/run`
/// starts one with `Drawings/postgres-cluster.sh` and sets it).
///
/// Each test gets its own database, copied from a template that has PostGIS enabled (when the server has it):
/// creating the extension takes most of a second, copying the template a tenth.
public enum TestDatabases {
    /// The admin URL, or nil when no test cluster is set.
    public static var adminURL: PostgresURL? {
        guard let text = ProcessInfo.processInfo.environment["PLANMARK_TEST_POSTGRES"], !text.isEmpty else { return nil }
        return try? PostgresURL(text)
    }

    /// Whether the PostgreSQL tests must run: a cluster is set, or CI is (where a missing cluster is a failure, not a
    /// skip). When they are skipped, the test process ends its output with `untestedNotice` (once, whatever the number
    /// of suites skipped), so that a run without PostgreSQL never passes for a run of both back ends.
    public static var required: Bool {
        if adminURL != nil || ProcessInfo.processInfo.environment["CI"] == "true" { return true }
        _ = noticeAtExit
        return false
    }

    /// The last line of a test run that skipped the PostgreSQL back end.
    public static let untestedNotice = "PostgreSQL back end NOT tested: no test cluster (PLANMARK_TEST_POSTGRES unset); "
        + "bash .ci/run starts one, and under CI=true a missing cluster fails the run"

    /// Prints `untestedNotice` on stdout when the process exits (after the test library's own summary).
    private static let noticeAtExit: Void = {
        // `print` goes through stdout's buffer, which `exit` flushes after these handlers: the line comes last.
        atexit { print(TestDatabases.untestedNotice) }
    }()

    private static let counter = NIOLockedValueBox(0)
    private static let template = NIOLockedValueBox<String?>(nil)

    /// A new empty database (PostGIS enabled when available) and its URL.
    /// - Throws: when `$PLANMARK_TEST_POSTGRES` is unset or the cluster refuses.
    public static func fresh() throws -> PostgresURL {
        guard let admin = adminURL else {
            throw TestDatabaseError("PLANMARK_TEST_POSTGRES is not set: start a cluster with Drawings/postgres-cluster.sh (as .ci/run does)")
        }
        let templateName = try template.withLockedValue { name -> String in
            if let name { return name }
            let made = "planmark_template_\(getpid())_\(UInt32.random(in: 0...UInt32.max))"
            try admin.execute(["CREATE DATABASE \(made)"])
            try admin.with(database: made).execute([
                """
                DO $$ BEGIN
                    IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'postgis') THEN CREATE EXTENSION postgis; END IF;
                END $$
                """,
            ])
            name = made
            return made
        }
        let number = counter.withLockedValue { value -> Int in
            value += 1
            return value
        }
        let name = "planmark_test_\(getpid())_\(number)_\(UInt16.random(in: 0...UInt16.max))"
        try admin.execute(["CREATE DATABASE \(name) TEMPLATE \(templateName)"])
        return admin.with(database: name)
    }
}

/// The test cluster is missing or refused a command.
public struct TestDatabaseError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension PostgresURL {
    /// One plain connection's configuration (the Unix socket when the URL names its folder; no TLS), for the
    /// tests' own sessions.
    var testConnectionConfiguration: PostgresConnection.Configuration {
        if let folder = socketFolder {
            return .init(unixSocketPath: folder + "/.s.PGSQL.\(port)", username: user, password: password, database: database)
        }
        return .init(host: host ?? "localhost", port: port, username: user, password: password, database: database, tls: .disable)
    }

    /// Runs `statements` on one new connection (not a pool), then closes it: for CREATE DATABASE and the template.
    public func execute(_ statements: [String]) throws {
        let url = self
        let group = MultiThreadedEventLoopGroup.singleton
        // On an event loop, not the cooperative pool: the caller (a test) may hold one of its two threads.
        try Blocking.run(on: group) {
            let configuration = url.testConnectionConfiguration
            let logger = Logger(label: "planmark.tests.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
            do {
                for statement in statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
            } catch {
                try? await connection.close()
                throw TestDatabaseError("\(url): \(String(reflecting: error))")
            }
            try await connection.close()
        }
    }
}

/// A connection of the test's own (outside any store) that stays open across calls: to hold a transaction (and its
/// locks) while a store works, and to watch the cluster (`pg_stat_activity`).
public final class HeldSession: @unchecked Sendable {
    private let connection: PostgresConnection
    private let logger = Logger(label: "planmark.tests.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Opens a connection to `url`.
    public init(_ url: PostgresURL) throws {
        let configuration = url.testConnectionConfiguration
        let logger = self.logger
        connection = try Blocking.run(on: MultiThreadedEventLoopGroup.singleton, patience: .seconds(30)) {
            try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        }
    }

    /// Runs `sql`; the rows' first column as text (NULL as nil).
    @discardableResult
    public func query(_ sql: String) throws -> [String?] {
        let connection = self.connection
        let logger = self.logger
        return try Blocking.run(on: MultiThreadedEventLoopGroup.singleton, patience: .seconds(30), onOverdue: { _ = connection.close() as EventLoopFuture<Void> }) {
            var values: [String?] = []
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) {
                values.append(try row.makeRandomAccess()[0].decode(String?.self))
            }
            return values
        }
    }

    /// Closes the connection (a transaction open on it is rolled back by the server) and waits until it is.
    public func close() {
        let connection = self.connection
        _ = try? Blocking.run(on: MultiThreadedEventLoopGroup.singleton, patience: .seconds(30)) {
            try await (connection.close() as EventLoopFuture<Void>).get()
        }
    }

    deinit { close() }
}

/// A child process whose end is waited for with a deadline.
public final class BoundedProcess: @unchecked Sendable {
    public let process = Process()
    private let ended = DispatchSemaphore(value: 0)
    private let errorPipe = ChildProcess.pipe()
    private let outputPipe = ChildProcess.pipe()
    private var errorData = Data()
    private var outputData = Data()
    private let readers = DispatchGroup()
    /// Guards `errorData` while the process runs, and is signalled each time stderr brings more (or ends).
    private let errorArrived = NSCondition()
    private var errorEnded = false

    /// Starts `executable` with `arguments`; standard input is empty.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        process.standardError = errorPipe
        process.standardOutput = outputPipe
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { [ended] _ in ended.signal() }
        try ChildProcess.run(process)
        readers.enter()
        DispatchQueue.global().async { [self] in
            // Read as it comes, so that `waitForError` sees a line as soon as the process writes it.
            let handle = errorPipe.fileHandleForReading
            while true {
                let chunk = handle.readAvailableBytes()
                errorArrived.lock()
                if chunk.isEmpty { errorEnded = true } else { errorData.append(chunk) }
                errorArrived.broadcast()
                errorArrived.unlock()
                if chunk.isEmpty { break }
            }
            readers.leave()
        }
        readers.enter()
        DispatchQueue.global().async { [self] in
            outputData = outputPipe.fileHandleForReading.readBytesToEnd()
            readers.leave()
        }
    }

    /// Waits until the process has written `text` to stderr (an event: each read of its pipe wakes this), at most
    /// `seconds`; whether it did. False as soon as stderr ends without it.
    public func waitForError(containing text: String, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        errorArrived.lock()
        defer { errorArrived.unlock() }
        while true {
            if String(decoding: errorData, as: UTF8.self).contains(text) { return true }
            if errorEnded || !errorArrived.wait(until: deadline) { return false }
        }
    }

    /// Waits at most `seconds` for the process to end: its status, stdout and stderr; nil when it had not ended (it is
    /// then killed).
    public func wait(seconds: Double) -> (status: Int32, stdout: String, stderr: String)? {
        if ended.wait(timeout: .now() + seconds) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            _ = ended.wait(timeout: .now() + 10)
            return nil
        }
        _ = readers.wait(timeout: .now() + 10)
        errorArrived.lock()
        let error = errorData
        errorArrived.unlock()
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: error, as: UTF8.self))
    }
}
