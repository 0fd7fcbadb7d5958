import Foundation
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

    /// Whether the PostgreSQL tests must run: a cluster is set, or CI is (where a missing cluster is a failure, not a skip).
    public static var required: Bool {
        adminURL != nil || ProcessInfo.processInfo.environment["CI"] == "true"
    }

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
    /// Runs `statements` on one new connection (not a pool), then closes it: for CREATE DATABASE and the template.
    public func execute(_ statements: [String]) throws {
        let url = self
        let group = MultiThreadedEventLoopGroup.singleton
        // On an event loop, not the cooperative pool: the caller (a test) may hold one of its two threads.
        try Blocking.run(on: group) {
            var configuration: PostgresConnection.Configuration
            if let folder = url.socketFolder {
                configuration = .init(unixSocketPath: folder + "/.s.PGSQL.\(url.port)", username: url.user, password: url.password, database: url.database)
            } else {
                configuration = .init(host: url.host ?? "localhost", port: url.port, username: url.user, password: url.password,
                                      database: url.database, tls: .disable)
            }
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
