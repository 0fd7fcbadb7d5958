import PlanMarkPDFCore

/// Why `PDFRenderer` has no answer from `planmark-pdf`: one user-facing line each (`description`), starting with the
/// file concerned, and a stable `code`. Nothing was rendered; nothing needs cleaning up (the child is gone).
///
/// How the front doors map them (docs/pdf.md): `refused`, `crashed` mean a PDF that cannot be drawn (CLI exit 65;
/// HTTP 422 `pdf-unreadable`); `timedOut` one that takes too long (CLI 65; HTTP 504); `programMissing` an install
/// without `planmark-pdf` (CLI 69; HTTP 500); `fileMissing` CLI 66; `io` and `childFailed` CLI 74, HTTP 500;
/// `cancelled` is no answer at all (the request or the command is gone).
public enum PDFProcessError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The child refused the PDF (exit 65): `code` is the `PDFError` case it hit (`not_pdf`, `encrypted`,
    /// `too_many_pixels` ...), `message` the child's line for it, naming the file.
    case refused(source: String, code: PDFError.Code, message: String)
    /// The child was still running when the time limit (`seconds`, wall-clock) ran out, and was killed.
    case timedOut(source: String, seconds: Double)
    /// The child was killed by `signal` without the parent asking: poppler crashed (SIGSEGV, SIGABRT), an allocation
    /// over the address-space rlimit failed (SIGABRT, SIGILL, SIGTRAP), or it ran out of CPU time (SIGXCPU).
    case crashed(source: String, signal: Int32)
    /// `planmark-pdf` is not at `path`, or cannot be run.
    case programMissing(path: String)
    /// The PDF file is not there (the child exited 66).
    case fileMissing(path: String)
    /// The PDF file could not be read, or the child could not be started or read from.
    case io(source: String, message: String)
    /// The child answered in a way it never should: an exit status or output it does not write (a bug, or a
    /// `planmark-pdf` from another build).
    case childFailed(source: String, reason: String)
    /// The task was cancelled; the child was killed.
    case cancelled(source: String)

    /// A stable name for the case, for logs, metrics and JSON error bodies.
    public var code: String {
        switch self {
        case .refused: "refused"
        case .timedOut: "timed_out"
        case .crashed: "crashed"
        case .programMissing: "program_missing"
        case .fileMissing: "file_missing"
        case .io: "io"
        case .childFailed: "child_failed"
        case .cancelled: "cancelled"
        }
    }

    /// The one-line message, starting with the file concerned (or the program's path).
    public var description: String {
        switch self {
        case .refused(_, _, let message):
            message
        case .timedOut(let source, let seconds):
            "\(source): the PDF took longer than the time limit of \(Self.seconds(seconds)) s to draw; it was stopped"
        case .crashed(let source, let signal):
            "\(source): the PDF renderer failed on this file (\(Self.signalText(signal)))"
        case .programMissing(let path):
            "\(path): the PDF renderer \(PDFChild.programName) is missing or cannot be run (swift build --product \(PDFChild.programName))"
        case .fileMissing(let path):
            "\(path): no such file"
        case .io(let source, let message):
            "\(source): \(message)"
        case .childFailed(let source, let reason):
            "\(source): \(PDFChild.programName) failed: \(reason)"
        case .cancelled(let source):
            "\(source): cancelled"
        }
    }

    /// `12`, `0.5`: seconds as a person writes them.
    private static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// `signal 11, SIGSEGV` and what it usually means here.
    private static func signalText(_ signal: Int32) -> String {
        let known: [Int32: String] = [
            4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 11: "SIGSEGV", 24: "SIGXCPU",
        ]
        let name = known[signal].map { ", \($0)" } ?? ""
        let meaning: String =
            switch signal {
            case 24: ": over its CPU time limit"
            case 9: ": killed, perhaps for memory"
            case 4, 5, 6: ": aborted, perhaps over its memory limit"
            case 7, 11: ": crashed"
            default: ""
            }
        return "signal \(signal)\(name)\(meaning)"
    }
}
