#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a PostgreSQL store lives: `postgres://user[:password]@host[:port]/database[?sslmode=...]` (or
/// `postgresql://`), as libpq writes it. The password comes from the URL or else `$PGPASSWORD`; it is never part
/// of `description`, which is what logs and error messages show.
///
/// A Unix socket is named by a `host` query parameter that is a folder (`postgres://user@/db?host=/run/postgresql`),
/// as libpq does; the socket file is `.s.PGSQL.PORT` in it.
public struct PostgresURL: Hashable, Sendable, CustomStringConvertible {
    /// How the connection is encrypted (libpq's `sslmode`).
    public enum SSLMode: String, Sendable, CaseIterable {
        /// No TLS.
        case disable
        /// TLS if the server offers it (libpq's `allow` and `prefer`).
        case prefer
        /// TLS or no connection; the certificate is not verified (libpq's `require`).
        case require
        /// TLS with the server's certificate verified against the system's roots and its name (`verify-ca`, `verify-full`).
        case verifyFull = "verify-full"
    }

    /// The role to log in as.
    public var user: String
    /// The password (from the URL or `$PGPASSWORD`); never printed.
    public var password: String?
    /// The host name or address; nil with `socketFolder`.
    public var host: String?
    /// The TCP port, or the port number in the socket file's name.
    public var port: Int
    /// The folder of the server's Unix socket, when one is used.
    public var socketFolder: String?
    /// The database.
    public var database: String
    /// The TLS mode (`prefer` when not given, as libpq).
    public var sslMode: SSLMode
    /// How long to wait for a connection (libpq's `connect_timeout`, whole seconds in `connectTimeoutSeconds`);
    /// nil when the URL does not say, and the store's default applies.
    public var connectTimeout: Duration?
    /// The `connect_timeout` values accepted, in seconds. libpq's 0 (wait for ever) is not: a store that cannot be
    /// reached must be reported.
    public static let connectTimeoutSeconds = 1...3600
    /// How long one operation may wait for the database without progress (PlanMark's `statement_timeout`, whole
    /// seconds in `statementTimeoutSeconds`; libpq has no such parameter); nil when the URL does not say.
    public var statementTimeout: Duration?
    /// The `statement_timeout` values accepted, in seconds.
    public static let statementTimeoutSeconds = 1...86400

    /// Whether `text` names a PostgreSQL store rather than an SQLite file.
    public static func isPostgres(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Parses `text`; `environment` supplies `PGPASSWORD` (and `USER` for a URL without a user name).
    /// - Throws: `PostgresURLError` naming the part that is wrong (the password is never in it).
    public init(_ text: String, environment: [String: String] = PostgresURL.processEnvironment()) throws(PostgresURLError) {
        let rest: Substring
        if text.hasPrefix("postgresql://") { rest = text.dropFirst("postgresql://".count) }
        else if text.hasPrefix("postgres://") { rest = text.dropFirst("postgres://".count) }
        else { throw .init("the URL must start with postgres:// or postgresql://") }
        var main = rest
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            main = rest[..<mark]
            query = rest[rest.index(after: mark)...]
        }
        var authority = main
        var path: Substring = ""
        if let slash = main.firstIndex(of: "/") {
            authority = main[..<slash]
            path = main[main.index(after: slash)...]
        }
        var userInfo: Substring? = nil
        var hostPort = authority
        if let at = authority.lastIndex(of: "@") {
            userInfo = authority[..<at]
            hostPort = authority[authority.index(after: at)...]
        }
        var user: String? = nil
        var password: String? = nil
        if let userInfo {
            if let colon = userInfo.firstIndex(of: ":") {
                user = try Self.decode(userInfo[..<colon], part: "user")
                password = try Self.decode(userInfo[userInfo.index(after: colon)...], part: "password")
            } else {
                user = try Self.decode(userInfo, part: "user")
            }
        }
        var host: String? = nil
        var port = 5432
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { throw .init("the host: an IPv6 address without ']'") }
            host = String(hostPort[hostPort.index(after: hostPort.startIndex)..<close])
            let after = hostPort[hostPort.index(after: close)...]
            if after.hasPrefix(":") { port = try Self.port(after.dropFirst()) }
            else if !after.isEmpty { throw .init("the host: unexpected text after the IPv6 address") }
        } else if let colon = hostPort.lastIndex(of: ":") {
            host = String(hostPort[..<colon])
            port = try Self.port(hostPort[hostPort.index(after: colon)...])
        } else if !hostPort.isEmpty {
            host = String(hostPort)
        }
        if host?.isEmpty == true { host = nil }
        var sslMode = SSLMode.prefer
        var socketFolder: String? = nil
        var connectTimeout: Duration? = nil
        var statementTimeout: Duration? = nil
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = String(parts[0])
            let value = try Self.decode(parts.count > 1 ? parts[1] : "", part: key)
            switch key {
            case "sslmode":
                switch value {
                case "disable": sslMode = .disable
                case "allow", "prefer": sslMode = .prefer
                case "require": sslMode = .require
                case "verify-ca", "verify-full": sslMode = .verifyFull
                default: throw .init("sslmode: \"\(value)\" is not one of disable, allow, prefer, require, verify-ca, verify-full")
                }
            case "host":
                if value.hasPrefix("/") { socketFolder = value } else { host = value }
            case "port":
                port = try Self.port(Substring(value))
            case "user":
                user = value
            case "password":
                password = value
            case "dbname":
                path = Substring(value)
            case "connect_timeout":
                guard let seconds = Int(value), Self.connectTimeoutSeconds.contains(seconds) else {
                    throw .init("connect_timeout: \"\(value)\" is not a number of seconds in \(Self.connectTimeoutSeconds)")
                }
                connectTimeout = .seconds(seconds)
            case "statement_timeout":
                guard let seconds = Int(value), Self.statementTimeoutSeconds.contains(seconds) else {
                    throw .init("statement_timeout: \"\(value)\" is not a number of seconds in \(Self.statementTimeoutSeconds)")
                }
                statementTimeout = .seconds(seconds)
            case "application_name":
                continue
            default:
                throw .init("the query parameter \"\(key)\" is not supported (sslmode, host, port, user, password, dbname, connect_timeout, statement_timeout, application_name)")
            }
        }
        if host == nil && socketFolder == nil { host = "localhost" }
        let database = try Self.decode(path, part: "database")
        guard let resolvedUser = user ?? environment["PGUSER"] ?? environment["USER"], !resolvedUser.isEmpty else {
            throw .init("the URL names no user (postgres://USER@host/db)")
        }
        self.user = resolvedUser
        self.password = password ?? environment["PGPASSWORD"]
        self.host = host
        self.port = port
        self.socketFolder = socketFolder
        self.database = database.isEmpty ? resolvedUser : database
        self.sslMode = sslMode
        self.connectTimeout = connectTimeout
        self.statementTimeout = statementTimeout
    }

    /// The URL without its password: what logs, errors and `drawing list` show.
    public var description: String {
        var text = "postgres://\(Self.encode(user))@"
        if let socketFolder {
            text += "/\(Self.encode(database))?host=\(Self.encode(socketFolder))"
            if port != 5432 { text += "&port=\(port)" }
        } else {
            let name = host ?? "localhost"
            text += name.contains(":") ? "[\(name)]" : name
            if port != 5432 { text += ":\(port)" }
            text += "/\(Self.encode(database))"
        }
        var parameters: [String] = []
        if sslMode != .prefer { parameters.append("sslmode=\(sslMode.rawValue)") }
        if let connectTimeout { parameters.append("connect_timeout=\(connectTimeout.components.seconds)") }
        if let statementTimeout { parameters.append("statement_timeout=\(statementTimeout.components.seconds)") }
        if !parameters.isEmpty { text += (socketFolder == nil ? "?" : "&") + parameters.joined(separator: "&") }
        return text
    }

    /// This URL with another database (same server, user and password): tests and `store migrate` use it.
    public func with(database: String) -> PostgresURL {
        var copy = self
        copy.database = database
        return copy
    }

    /// The process's environment as a dictionary.
    public static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        for name in ["PGPASSWORD", "PGUSER", "USER"] {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }

    private static func port(_ text: Substring) throws(PostgresURLError) -> Int {
        guard let port = Int(text), (1...65535).contains(port) else { throw .init("the port \"\(text)\" is not a number in 1...65535") }
        return port
    }

    /// Percent-decodes `text` (UTF-8); `part` names it in the error, never its value when it is the password.
    private static func decode(_ text: Substring, part: String) throws(PostgresURLError) -> String {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    throw .init("the \(part): a '%' not followed by two hexadecimal digits")
                }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else { throw .init("the \(part): not UTF-8 after percent-decoding") }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Percent-encodes what would change the URL's structure.
    private static func encode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF")
                result += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 15)])
            }
        }
        return result
    }
}

/// A store URL that cannot be used; `message` names the part (never the password's value).
public struct PostgresURLError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}
