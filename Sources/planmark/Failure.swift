import ArgumentParser
import PlanMarkFormats
import PlanMarkFrontDoor
import PlanMarkGeometry
import PlanMarkPDFProcess
import PlanMarkRender
import PlanMarkSheets
import PlanMarkStore

#if canImport(Glibc)
import Glibc
#endif

/// Exit codes (sysexits): the front doors' one table (`ExitStatus`, PlanMarkFrontDoor).
typealias Exit = ExitStatus

/// One failure as the command line reports it: the line `planmark: WHERE: what` on stderr and an exit
/// code. Every error of every module becomes one of these here (`init(_:)`), so the same fault reads the
/// same and exits the same in every command.
struct CommandFailure: Error, CustomStringConvertible {
    /// Where: a file (`FILE`, `FILE:LINE`), an option (`--around`), a drawing (`drawing "A"`), or the
    /// command (`crs to-pixel`) for its arguments.
    var place: String
    /// What is wrong.
    var message: String
    /// The exit code.
    var code: Int32

    init(place: String, message: String, code: Int32) {
        self.place = place
        self.message = message
        self.code = code
    }

    /// The line on stderr, without its line break.
    var description: String { "planmark: \(place): \(message)" }

    /// `error` in the command line's words, with its exit code.
    init(_ error: any Error) {
        switch error {
        case let failure as CommandFailure: self = failure
        case let error as FormatError: self.init(format: error)
        case let error as StoreError: self.init(store: error)
        case let error as RenderError: self.init(render: error)
        case let error as ReviewError: self.init(review: error)
        case let error as OutputError: self.init(place: error.place, message: error.message, code: error.exitCode)
        case let error as SheetError: self.init(sheet: error)
        case let error as PDFProcessError: self.init(pdf: error)
        default: self.init(place: "internal error", message: String(describing: error), code: Exit.ioError)
        }
    }

    /// `FILE[:LINE]: [$.path: ]what`: 66 missing, 74 unreadable, 65 malformed, 64 an option is needed.
    init(format error: FormatError) {
        self.init(place: error.source + (error.line.map { ":\($0)" } ?? ""),
                  message: (error.path.map { "\($0): " } ?? "") + error.message, code: error.exitStatus)
    }

    /// The store's error in the CLI's words, with the exit status both front doors give it (`StoreError.exitStatus`).
    init(store error: StoreError) {
        let code = error.exitStatus
        switch error {
        case .input(let formatError):
            self.init(format: formatError)
        case .missingStore(let path):
            self.init(place: path, message: "no such store (create one with 'planmark drawing add')", code: code)
        case .unknownDrawing(let name):
            self.init(place: Self.drawing(name), message: "no such drawing", code: code)
        case .unknownMarker(let drawing, let number):
            self.init(place: Self.drawing(drawing), message: "no marker \(number)", code: code)
        case .missingImage(let path):
            self.init(place: path, message: "no such file", code: code)
        case .duplicateDrawing(let name):
            self.init(place: Self.drawing(name), message: "a drawing with this name already exists", code: code)
        case .invalidMarker(let reason, let position):
            self.init(place: "marker at \(position)", message: "refused: \(reason.rawValue)", code: code)
        case .uuidConflict(let uuid, let drawing, let number):
            self.init(place: Self.drawing(drawing), message: "uuid \(uuid.text) is stored already, with other content, as marker \(number)",
                      code: code)
        case .refused, .newerSchema, .transitionRefused, .versionConflict, .idempotencyKeyReused, .replayed:
            self.init(text: error.description, code: code)
        case .unknownAttachment(let drawing, let number, let id):
            self.init(place: Self.drawing(drawing), message: "marker \(number) has no attachment \(id)", code: code)
        case .unsupportedMediaType, .photoTooLarge:
            self.init(text: error.description, code: code)
        case .notPNG, .notPDF, .invalidText, .imageChanged:
            self.init(text: error.description, code: code)
        case .invalidArgument:
            self.init(text: error.description, code: code)
        case .io, .busy, .unavailable, .storeReplaced:
            self.init(text: error.description, code: code)
        case .unknownRevision(let drawing, let number):
            self.init(place: Self.drawing(drawing), message: "no revision \(number)", code: code)
        case .unknownUser(let name):
            self.init(place: "user \"\(name)\"", message: "no such user", code: code)
        case .unknownProject(let name):
            self.init(place: "project \"\(name)\"", message: "no such project", code: code)
        case .unknownToken(let user, let id):
            self.init(place: "user \"\(user)\"", message: "no token \(id)", code: code)
        case .notAMember(let project, let user):
            self.init(place: "project \"\(project)\"", message: "user \"\(user)\" has no role here", code: code)
        case .duplicateUser(let name):
            self.init(place: "user \"\(name)\"", message: "a user with this name already exists", code: code)
        case .duplicateProject(let name):
            self.init(place: "project \"\(name)\"", message: "a project with this name already exists", code: code)
        }
    }

    /// 66 missing input, 65 a refused image, 73 cannot create the output, 74 I/O.
    init(render error: RenderError) {
        let code: Int32
        switch error {
        case .inputNotFound, .cannotOpenInput: code = Exit.noInput
        case .notPNG, .corruptPNG, .imageSideTooLarge, .imageTooManyPixels, .outOfMemory: code = Exit.dataError
        case .cannotCreateOutput: code = Exit.cannotCreate
        case .inputReadFailed, .outputWriteFailed, .cannotEncode: code = Exit.ioError
        }
        switch error {
        case .cannotEncode(let reason): self.init(place: "PNG encoder", message: reason, code: code)
        // The same wording as the outputs of every other command (AtomicFile).
        case .cannotCreateOutput(let path, let reason): self.init(place: path, message: "cannot create: \(reason)", code: code)
        case .outputWriteFailed(let path, let reason): self.init(place: path, message: "cannot write: \(reason)", code: code)
        default: self.init(text: error.description, code: code)
        }
    }

    /// 66 missing font or marker, 1 a marker off the drawing, 64 a bad view.
    init(review error: ReviewError) {
        switch error {
        case .fontNotFound:
            self.init(place: "font", message: String(error.description.dropFirst("font ".count)), code: Exit.noInput)
        case .fontUnreadable, .markerNotFound:
            self.init(text: error.description, code: Exit.noInput)
        case .markerOffDrawing:
            self.init(text: error.description, code: Exit.invalid)
        case .invalidScale, .invalidMargin, .invalidMarkerSize:
            self.init(text: error.description, code: Exit.usage)
        }
    }

    /// From a module's `WHERE: what` description (split at its first `": "`).
    init(text: String, code: Int32) {
        if let range = text.range(of: ": ") {
            self.init(place: String(text[..<range.lowerBound]), message: String(text[range.upperBound...]), code: code)
        } else {
            self.init(place: "planmark", message: text, code: code)
        }
    }

    /// `drawing "NAME"`, the place of a drawing's faults.
    static func drawing(_ name: String) -> String { "drawing \"\(name)\"" }

    /// The one wording of a CRS conversion whose result is not finite (it is never printed): 64 when the
    /// numbers came from the command's arguments (`place` is the command), 65 from an input line.
    static func notRepresentable(_ place: String, _ a: Double, _ b: Double, zoom: Zoom, code: Int32) -> CommandFailure {
        CommandFailure(place: place, message: "\(a) \(b) converts to a number too large to represent at zoom \(zoom)", code: code)
    }
}

/// Reports `error` on stderr as one line and returns the exit code it maps to.
func fail(_ error: any Error) -> ExitCode {
    let failure = CommandFailure(error)
    printError(failure.description)
    return ExitCode(failure.code)
}

/// Prints `planmark: warning: what` on stderr (the command goes on).
func printWarning(_ what: String) {
    printError("planmark: warning: " + what)
}

/// Prints `planmark: COMMAND: wrote WHAT` on stderr: what a command whose results are files wrote, once they
/// are in place (stdout stays for results a pipe reads).
func printWrote(_ command: String, _ what: String) {
    printError("planmark: \(command): wrote " + what)
}

/// `1 page`, `12 pages`: a count and its noun, plural when the count is not 1.
func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
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

/// Writes to stdout through a buffer; a failed write (closed pipe, full disk) is an I/O error.
struct StandardOutput {
    /// Writes `text` and flushes it: a command's whole result at once.
    static func print(_ text: String) throws(OutputError) {
        try print(Array(text.utf8))
    }

    /// Writes `bytes` and flushes them.
    static func print(_ bytes: [UInt8]) throws(OutputError) {
        let out = StandardOutput()
        try out.write(bytes)
        try out.flush()
    }

    /// Writes `text`.
    func write(_ text: String) throws(OutputError) {
        try write(Array(text.utf8))
    }

    /// Writes `bytes`.
    func write(_ bytes: [UInt8]) throws(OutputError) {
        let ok = bytes.withUnsafeBufferPointer { buffer in
            buffer.isEmpty || fwrite(buffer.baseAddress!, 1, buffer.count, cStandardOutput) == buffer.count
        }
        if !ok { throw OutputError(place: "stdout", message: "cannot write: \(String(cString: strerror(errno)))") }
    }

    /// Flushes what is buffered.
    func flush() throws(OutputError) {
        if fflush(cStandardOutput) != 0 { throw OutputError(place: "stdout", message: "cannot write: \(String(cString: strerror(errno)))") }
    }
}

/// A failure to write results.
struct OutputError: Error, CustomStringConvertible {
    /// The output: its path, or `stdout`.
    var place: String
    /// What went wrong.
    var message: String
    /// 74 (I/O error) by default; 73 when the output cannot be created.
    var exitCode: Int32 = Exit.ioError
    var description: String { "planmark: \(place): \(message)" }
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
