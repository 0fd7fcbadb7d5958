import PlanMarkPostgres
import Testing

/// Parsing `--store postgres://...` as libpq reads it; no database needed. Expected values are written by hand
/// from libpq's connection URI rules (https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-CONNSTRING-URIS).
struct PostgresURLTests {
    static let environment = ["USER": "inspector"]

    @Test(arguments: ["postgres://", "postgresql://"])
    func bothSchemesNameUserHostPortAndDatabase(scheme: String) async throws {
        let url = try PostgresURL(scheme + "ana@db.example:6543/plans", environment: Self.environment)
        #expect(url.user == "ana" && url.host == "db.example" && url.port == 6543 && url.database == "plans")
        #expect(url.password == nil && url.sslMode == .prefer && url.connectTimeout == nil && url.socketFolder == nil)
        #expect(url.description == "postgres://ana@db.example:6543/plans")
    }

    @Test func thePasswordComesFromTheURLOrElsePGPASSWORDAndIsNeverDescribed() async throws {
        let given = try PostgresURL("postgres://ana:s%40cret@db/plans", environment: ["PGPASSWORD": "other"])
        #expect(given.password == "s@cret")
        #expect(!given.description.contains("cret") && given.description == "postgres://ana@db/plans")
        let fromEnvironment = try PostgresURL("postgres://ana@db/plans", environment: ["PGPASSWORD": "other"])
        #expect(fromEnvironment.password == "other" && !fromEnvironment.description.contains("other"))
    }

    @Test func defaultsAreLibpqs() async throws {
        // No host: localhost; no port: 5432; no database: the user's name; no user: $USER.
        let url = try PostgresURL("postgres:///", environment: Self.environment)
        #expect(url.host == "localhost" && url.port == 5432 && url.user == "inspector" && url.database == "inspector")
    }

    @Test func aUnixSocketFolderAndQueryParameters() async throws {
        let url = try PostgresURL("postgres://ana@/plans?host=/run/postgresql&port=5433&sslmode=disable", environment: [:])
        #expect(url.socketFolder == "/run/postgresql" && url.host == nil && url.port == 5433 && url.sslMode == .disable)
        #expect(url.description == "postgres://ana@/plans?host=%2Frun%2Fpostgresql&port=5433&sslmode=disable")
    }

    @Test(arguments: [("require", PostgresURL.SSLMode.require), ("verify-ca", .verifyFull), ("verify-full", .verifyFull),
                      ("allow", .prefer), ("prefer", .prefer), ("disable", .disable)])
    func sslModes(text: String, mode: PostgresURL.SSLMode) async throws {
        #expect(try PostgresURL("postgres://ana@db/plans?sslmode=\(text)", environment: [:]).sslMode == mode)
    }

    @Test func connectTimeoutIsWholeSecondsFrom1To3600() async throws {
        let url = try PostgresURL("postgres://ana@db/plans?connect_timeout=3&application_name=planmark", environment: [:])
        #expect(url.connectTimeout == .seconds(3))
        #expect(url.description == "postgres://ana@db/plans?connect_timeout=3")
        for refused in ["0", "-1", "3601", "2.5", "soon", ""] {
            #expect(throws: PostgresURLError.self, "connect_timeout=\(refused)") {
                try PostgresURL("postgres://ana@db/plans?connect_timeout=\(refused)", environment: [:])
            }
        }
    }

    @Test(arguments: [
        ("mysql://ana@db/plans", "the URL must start with postgres:// or postgresql://"),
        ("postgres://ana@db:0/plans", "the port \"0\" is not a number in 1...65535"),
        ("postgres://ana@db/plans?sslmode=sometimes", "sslmode: \"sometimes\" is not one of disable, allow, prefer, require, verify-ca, verify-full"),
        ("postgres://ana@db/plans?options=-c", "the query parameter \"options\" is not supported (sslmode, host, port, user, password, dbname, connect_timeout, statement_timeout, application_name)"),
        ("postgres://ana:%zz@db/plans", "the password: a '%' not followed by two hexadecimal digits"),
    ])
    func badURLsNameThePartThatIsWrong(text: String, message: String) async {
        let error = #expect(throws: PostgresURLError.self) { try PostgresURL(text, environment: [:]) }
        #expect(error?.message == message)
    }
}
