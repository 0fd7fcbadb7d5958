/// What `planmark-pdf` and the parent that runs it (PlanMarkPDFProcess's `PDFRenderer`) agree on, written once: the
/// program's name, its option names, its exit statuses and the form of its error line. The info it writes is
/// `PDFDocumentInfo`'s JSON, the image `PDFRaster`'s stream, a page's vectors CairoScript (`PDFScriptLimits`).
public enum PDFChild {
    /// The program's file name, looked for beside the parent's own executable.
    public static let programName = "planmark-pdf"

    /// How the child ended, when it ended by itself (a signal is a crash, or the parent's time limit).
    public enum Status: Int32, Sendable, CaseIterable {
        /// The answer is on standard output.
        case ok = 0
        /// Bad arguments (a bug of the parent's, or a person's at the command line).
        case usage = 64
        /// The PDF was refused: the error line carries a `PDFError.Code`.
        case refused = 65
        /// The PDF file does not exist.
        case fileMissing = 66
        /// Reading the file or writing the answer failed.
        case io = 74
    }

    /// The long option names the child declares and the parent passes (`--max-bytes` ...).
    public enum Option {
        /// `PDFLimits.maxBytes`.
        public static let maxBytes = "max-bytes"
        /// `PDFLimits.maxPages`.
        public static let maxPages = "max-pages"
        /// `PDFLimits.maxPageSidePoints`.
        public static let maxPageSide = "max-page-side"
        /// `PDFLimits.maxPixels`.
        public static let maxPixels = "max-pixels"
        /// `PDFProcessLimits.maxMemoryMiB`.
        public static let maxMemory = "max-memory"
        /// `PDFProcessLimits.maxCPUSeconds`.
        public static let maxCPUSeconds = "max-cpu-seconds"
        /// The name used in messages instead of the file's path.
        public static let name = "name"
        /// `PDFScriptLimits.maxBytes` (`script` only).
        public static let maxScriptBytes = "max-script-bytes"
        /// `PDFScriptLimits.maxDecodedBytes` (`script` only).
        public static let maxDecodedBytes = "max-decoded-bytes"
    }

    /// The options that give the child `limits` and `process`, in the order the child's help lists them.
    /// - Complexity: O(1).
    public static func limitArguments(_ limits: PDFLimits, _ process: PDFProcessLimits) -> [String] {
        [
            "--" + Option.maxBytes, String(limits.maxBytes),
            "--" + Option.maxPages, String(limits.maxPages),
            "--" + Option.maxPageSide, String(limits.maxPageSidePoints),
            "--" + Option.maxPixels, String(limits.maxPixels),
            "--" + Option.maxMemory, String(process.maxMemoryMiB),
            "--" + Option.maxCPUSeconds, String(process.maxCPUSeconds),
        ]
    }

    /// The start of every line of the child's own on stderr (poppler may write lines of its own there too).
    public static let linePrefix = programName + ": "

    /// The child's error line for a refused PDF, without its line break: `planmark-pdf: CODE: MESSAGE`, e.g.
    /// `planmark-pdf: not_pdf: plan.pdf: not a PDF file`. (Other failures are `planmark-pdf: WHERE: what`.)
    /// - Complexity: O(n) for a message of n bytes.
    public static func refusalLine(_ error: PDFError) -> String {
        linePrefix + error.code + ": " + error.description
    }

    /// The last line of `stderr` that the child wrote itself (it starts with `linePrefix`), without the prefix; nil
    /// when there is none.
    /// - Complexity: O(n) for n bytes of stderr.
    public static func lastLine(_ stderr: [UInt8]) -> String? {
        let text = String(decoding: stderr, as: UTF8.self)
        return text.split(separator: "\n").last { $0.hasPrefix(linePrefix) }.map { String($0.dropFirst(linePrefix.count)) }
    }

    /// The code and the message of a refusal line's remainder (`lastLine(_:)` of a child that exited `refused`);
    /// nil when it does not start with a known code.
    /// - Complexity: O(n) for a line of n bytes.
    public static func refusal(_ line: String) -> (code: PDFError.Code, message: String)? {
        guard let colon = line.firstIndex(of: ":"), let code = PDFError.Code(rawValue: String(line[..<colon])) else { return nil }
        let message = line[line.index(after: colon)...].drop { $0 == " " }
        return (code, String(message))
    }
}

/// What the child process itself may use, set as its own rlimits before it opens the PDF, so that a runaway poppler
/// is killed by the kernel instead of eating the machine. Unlike the parent's time limit (wall-clock, which kills the
/// child with SIGKILL), these also hold when the parent is gone.
public struct PDFProcessLimits: Hashable, Sendable {
    /// The default address-space limit: 4 GiB, four times a render of `PDFLimits.defaultMaxPixels` (800 MB), the
    /// rest for poppler's decoded images and fonts.
    public static let defaultMaxMemoryMiB = 4096
    /// The default CPU limit: 300 seconds, far above any page that should be drawn at all.
    public static let defaultMaxCPUSeconds = 300

    /// The most address space the child may map, in MiB (`RLIMIT_AS`): an allocation past it fails, and poppler or
    /// the Swift runtime then aborts.
    public var maxMemoryMiB: Int
    /// The most CPU time the child may use, in seconds (`RLIMIT_CPU`): past it the kernel sends SIGXCPU, a second
    /// later SIGKILL.
    public var maxCPUSeconds: Int

    /// Limits, each defaulting to its `default...` value.
    public init(maxMemoryMiB: Int = PDFProcessLimits.defaultMaxMemoryMiB, maxCPUSeconds: Int = PDFProcessLimits.defaultMaxCPUSeconds) {
        self.maxMemoryMiB = maxMemoryMiB
        self.maxCPUSeconds = maxCPUSeconds
    }
}
