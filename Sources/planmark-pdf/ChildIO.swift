import ArgumentParser
import PlanMarkPDF
import PlanMarkPDFCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failure as `planmark-pdf` reports it: one line on stderr and an exit status.
struct ChildFailure: Error {
    /// The line, without its line break: `planmark-pdf: CODE: FILE: what` or `planmark-pdf: WHERE: what`.
    var line: String
    /// The exit status.
    var status: PDFChild.Status

    /// A refused PDF: `planmark-pdf: CODE: FILE: what`, status 65.
    init(_ error: PDFError) {
        self.line = PDFChild.refusalLine(error)
        self.status = .refused
    }

    /// Any other failure: `planmark-pdf: WHERE: what`.
    init(place: String, message: String, status: PDFChild.Status) {
        self.line = PDFChild.linePrefix + place + ": " + message
        self.status = status
    }
}

/// The child's own work around the PDF: its rlimits, the file read under the byte limit, the answer written.
enum ChildIO {
    /// Runs `body`; a `ChildFailure` becomes its line on stderr and its exit status.
    static func reporting(_ body: () throws(ChildFailure) -> Void) throws {
        do {
            try body()
        } catch {
            let line = Array((error.line + "\n").utf8)
            _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress!, $0.count) }
            throw ExitCode(error.status.rawValue)
        }
    }

    /// Sets this process's rlimits: address space (`RLIMIT_AS`, soft and hard), CPU time (`RLIMIT_CPU`: SIGXCPU at
    /// the limit, SIGKILL a second later) and no core files (`RLIMIT_CORE` 0), each no higher than the hard limit
    /// already there. Lowered hard limits cannot be raised again: a PDF cannot undo them.
    /// - Complexity: O(1).
    static func limitSelf(_ limits: PDFProcessLimits) throws(ChildFailure) {
        let memory = rlim_t(clamping: limits.maxMemoryMiB) &<< 20
        try set(RLIMIT_AS.rawValue, soft: memory, hard: memory, what: "address space")
        let cpu = rlim_t(clamping: limits.maxCPUSeconds)
        try set(RLIMIT_CPU.rawValue, soft: cpu, hard: cpu + 1, what: "CPU time")
        try set(RLIMIT_CORE.rawValue, soft: 0, hard: 0, what: "core files")
    }

    /// setrlimit, both values capped at the current hard limit.
    private static func set(_ resource: UInt32, soft: rlim_t, hard: rlim_t, what: String) throws(ChildFailure) {
        var current = rlimit()
        guard getrlimit(__rlimit_resource_t(resource), &current) == 0 else { throw systemFailure("rlimit", "cannot read the \(what) limit") }
        var wanted = rlimit(rlim_cur: min(soft, current.rlim_max), rlim_max: min(hard, current.rlim_max))
        guard setrlimit(__rlimit_resource_t(resource), &wanted) == 0 else { throw systemFailure("rlimit", "cannot set the \(what) limit") }
    }

    /// The whole file at `path`, refused as `tooLarge` (named `source`) when it has more than `maxBytes` bytes: by its
    /// size before anything is read, and again while reading (a file that grows).
    /// - Throws: 66 when there is no such file, 74 when it cannot be read, 65 `tooLarge`.
    /// - Complexity: O(n) for n bytes.
    static func readPDF(path: String, source: String, maxBytes: Int) throws(ChildFailure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw ChildFailure(place: path, message: "no such file", status: .fileMissing) }
            throw systemFailure(path, "cannot open")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw systemFailure(path, "cannot read") }
        let size = Int(status.st_size)
        guard size <= maxBytes else { throw ChildFailure(.tooLarge(source: source, bytes: size, max: maxBytes)) }
        // One byte more than the file's size: reading it means the file grew.
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var count = 0
        while true {
            if count == bytes.count {
                guard count <= maxBytes else { break }
                bytes.append(contentsOf: repeatElement(0, count: min(max(count, 1 << 16), maxBytes + 1 - count)))
            }
            let read = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if read == 0 { break }
            if read < 0 {
                if errno == EINTR { continue }
                throw systemFailure(path, "cannot read")
            }
            count += read
        }
        guard count <= maxBytes else { throw ChildFailure(.tooLarge(source: source, bytes: count, max: maxBytes)) }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// Writes all of `bytes` to standard output.
    /// - Throws: 74 when a write fails (the parent went away: EPIPE, when SIGPIPE is ignored).
    /// - Complexity: O(n) for n bytes.
    static func writeOut(_ bytes: [UInt8]) throws(ChildFailure) {
        let written = bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
        guard written else { throw systemFailure("stdout", "cannot write") }
    }

    /// `WHERE: what: strerror(errno)`, status 74.
    private static func systemFailure(_ place: String, _ what: String) -> ChildFailure {
        ChildFailure(place: place, message: what + ": " + String(cString: strerror(errno)), status: .io)
    }
}
