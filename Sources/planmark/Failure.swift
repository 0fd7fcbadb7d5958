import ArgumentParser
import PlanMarkFormats
import PlanMarkGeometry

#if canImport(Glibc)
import Glibc
#endif

/// Exit codes (sysexits), the only place where errors become numbers.
enum Exit {
    static let invalid: Int32 = 1
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let noInput: Int32 = 66
    static let cannotCreate: Int32 = 73
    static let ioError: Int32 = 74
}

/// Standard output as a C stream with a large buffer (results are written in big pieces).
nonisolated(unsafe) let cStandardOutput: UnsafeMutablePointer<FILE> = {
    let stream = fdopen(STDOUT_FILENO, "w")!
    setvbuf(stream, nil, _IOFBF, 1 << 20)
    return stream
}()

/// Standard error as an unbuffered C stream.
nonisolated(unsafe) let cStandardError: UnsafeMutablePointer<FILE> = {
    let stream = fdopen(STDERR_FILENO, "w")!
    setvbuf(stream, nil, _IONBF, 0)
    return stream
}()

/// Prints `message` as one line on stderr.
func printError(_ message: String) {
    var line = message
    if !line.hasSuffix("\n") { line += "\n" }
    fputs(line, cStandardError)
}

/// Reports `error` on stderr and returns the exit code it maps to.
func fail(_ error: FormatError) -> ExitCode {
    printError(error.description)
    switch error.kind {
    case .missingInput: return ExitCode(Exit.noInput)
    case .unreadable: return ExitCode(Exit.ioError)
    case .malformed: return ExitCode(Exit.dataError)
    case .usage: return ExitCode(Exit.usage)
    }
}

/// Writes to stdout through a buffer; a failed write (closed pipe, full disk) is an I/O error.
struct StandardOutput {
    /// Writes `text`.
    func write(_ text: String) throws(OutputError) {
        try write(Array(text.utf8))
    }

    /// Writes `bytes`.
    func write(_ bytes: [UInt8]) throws(OutputError) {
        let ok = bytes.withUnsafeBufferPointer { buffer in
            buffer.isEmpty || fwrite(buffer.baseAddress!, 1, buffer.count, cStandardOutput) == buffer.count
        }
        if !ok { throw OutputError(message: "cannot write to standard output: \(String(cString: strerror(errno)))") }
    }

    /// Flushes what is buffered.
    func flush() throws(OutputError) {
        if fflush(cStandardOutput) != 0 { throw OutputError(message: "cannot write to standard output: \(String(cString: strerror(errno)))") }
    }
}

/// A failure to write results.
struct OutputError: Error, CustomStringConvertible {
    var message: String
    /// 74 (I/O error) by default; 73 when the output cannot be created.
    var exitCode: Int32 = Exit.ioError
    var description: String { message }
}

/// True when stderr is a terminal (progress is shown only then, and never under CI).
var stderrIsTerminal: Bool {
    isatty(STDERR_FILENO) != 0 && getenv("CI") == nil
}

/// Shows a progress line on stderr (overwritten in place); nil clears it.
func printProgress(_ text: String?) {
    if let text {
        fputs("\r\(text)\u{1B}[K", cStandardError)
    } else {
        fputs("\r\u{1B}[K", cStandardError)
    }
}
