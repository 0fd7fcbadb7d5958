import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A TCP connection to a loopback port that sends exactly the bytes a test writes (headers, partial
/// bodies, broken chunked encodings) and reads answers byte by byte. Blocking socket calls run on a
/// Dispatch thread; reads give up after 60 s so a broken server fails the test instead of hanging it.
final class RawHTTPConnection: @unchecked Sendable {
    /// An answer: status, headers (names lower-cased) and body.
    struct Answer {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: [UInt8]

        func header(_ name: String) -> String? { headers.first { $0.name == name.lowercased() }?.value }
        var text: String { String(decoding: body, as: UTF8.self) }
        /// `error.code` of a JSON error body.
        var errorCode: String? {
            let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
            return (object?["error"] as? [String: Any])?["code"] as? String
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let socket: Int32
    private var buffered: [UInt8] = []

    /// Connects to 127.0.0.1:`port`.
    init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: 300, tv_usec: 0)  // a guard against a hung server, not a wait
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            Glibc.close(socket)
            throw Failure(description: "connect to port \(port): \(String(cString: strerror(errno)))")
        }
    }

    private var closed = false

    deinit { if !closed { Glibc.close(socket) } }

    /// Drops the connection at once (a reset, as a client that goes away does); nothing more can be sent or read.
    func abort() {
        guard !closed else { return }
        closed = true
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        Glibc.close(socket)
    }

    /// Reads what has arrived, waiting for at least one byte; empty when the server has closed the connection.
    func readSome() async throws -> [UInt8] {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result {
                    if self.buffered.isEmpty { _ = try self.fill() }
                    defer { self.buffered = [] }
                    return self.buffered
                })
            }
        }
    }

    /// Writes `text` (UTF-8) in full.
    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Writes `bytes` in full.
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
            offset += written
        }
    }

    /// Closes the sending side (the server reads end of stream).
    func shutdownWrite() { Glibc.shutdown(socket, Int32(SHUT_WR)) }

    /// Reads one answer; `head` for the answer to a HEAD request (no body whatever the headers say).
    func readAnswer(head: Bool = false) async throws -> Answer {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try self.readAnswerBlocking(head: head) }) }
        }
    }

    /// Reads until the server closes the connection; everything read.
    func readToEnd() async throws -> [UInt8] {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result {
                    while try self.fill() {}
                    defer { self.buffered = [] }
                    return self.buffered
                })
            }
        }
    }

    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if count < 0 {
            if errno == ECONNRESET { return false }
            throw Failure(description: "recv: \(String(cString: strerror(errno)))")
        }
        buffered += chunk[0..<count]
        return count > 0
    }

    private func readLine() throws -> String {
        while true {
            if let end = buffered.indices.dropLast().first(where: { buffered[$0] == 13 && buffered[$0 + 1] == 10 }) {
                let line = String(decoding: buffered[..<end], as: UTF8.self)
                buffered.removeFirst(end + 2)
                return line
            }
            guard try fill() else { throw Failure(description: "the connection closed in the middle of a line") }
        }
    }

    private func readBytes(_ count: Int) throws -> [UInt8] {
        while buffered.count < count {
            guard try fill() else { throw Failure(description: "the connection closed after \(buffered.count) of \(count) body bytes") }
        }
        defer { buffered.removeFirst(count) }
        return Array(buffered[..<count])
    }

    private func readAnswerBlocking(head: Bool) throws -> Answer {
        var statusLine = try readLine()
        var status = 0
        while true {
            let parts = statusLine.split(separator: " ", maxSplits: 2)
            guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let code = Int(parts[1]) else {
                throw Failure(description: "not a status line: \(statusLine)")
            }
            status = code
            if code >= 200 { break }
            // An interim answer (100 Continue): skip its headers.
            while try !readLine().isEmpty {}
            statusLine = try readLine()
        }
        var headers: [(name: String, value: String)] = []
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { throw Failure(description: "not a header: \(line)") }
            headers.append((line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var answer = Answer(status: status, headers: headers, body: [])
        if head || status == 204 || status == 304 { return answer }
        if answer.header("transfer-encoding")?.lowercased() == "chunked" {
            while true {
                let sizeLine = try readLine()
                guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else { throw Failure(description: "bad chunk size: \(sizeLine)") }
                if size == 0 {
                    while try !readLine().isEmpty {}
                    break
                }
                answer.body += try readBytes(size)
                _ = try readLine()
            }
        } else if let length = answer.header("content-length").flatMap({ Int($0) }) {
            answer.body = try readBytes(length)
        } else {
            while try fill() {}
            answer.body = buffered
            buffered = []
        }
        return answer
    }
}
