import ArgumentParser
import PlanMarkPDF
import PlanMarkPDFCore

/// The options every subcommand takes: the PDF's limits (`PDFLimits`) and the process's own (`PDFProcessLimits`),
/// named as `PDFChild.Option` names them for the parent.
struct LimitOptions: ParsableArguments {
    @Option(name: .customLong(PDFChild.Option.maxBytes), help: ArgumentHelp("The largest PDF file accepted.", valueName: "bytes"))
    var maxBytes = PDFLimits.defaultMaxBytes

    @Option(name: .customLong(PDFChild.Option.maxPages), help: ArgumentHelp("The most pages a PDF may have.", valueName: "pages"))
    var maxPages = PDFLimits.defaultMaxPages

    @Option(name: .customLong(PDFChild.Option.maxPageSide), help: ArgumentHelp("The longest side a page may have, in points (1/72 inch).", valueName: "points"))
    var maxPageSide = PDFLimits.defaultMaxPageSidePoints

    @Option(name: .customLong(PDFChild.Option.maxPixels), help: ArgumentHelp("The most pixels (width x height) one render may have.", valueName: "pixels"))
    var maxPixels = PDFLimits.defaultMaxPixels

    @Option(name: .customLong(PDFChild.Option.maxMemory), help: ArgumentHelp("This process's address-space limit (RLIMIT_AS), in MiB.", valueName: "MiB"))
    var maxMemory = PDFProcessLimits.defaultMaxMemoryMiB

    @Option(name: .customLong(PDFChild.Option.maxCPUSeconds), help: ArgumentHelp("This process's CPU-time limit (RLIMIT_CPU), in seconds.", valueName: "seconds"))
    var maxCPUSeconds = PDFProcessLimits.defaultMaxCPUSeconds

    @Option(name: .customLong(PDFChild.Option.name), help: ArgumentHelp("The name used in messages (default: the file's path).", valueName: "name"))
    var name: String?

    func validate() throws {
        guard maxBytes >= 0, maxPages >= 1, maxPixels >= 0, maxPageSide.isFinite, maxPageSide > 0 else {
            throw ValidationError("the PDF limits must be positive numbers")
        }
        guard maxMemory >= 1, maxCPUSeconds >= 1 else { throw ValidationError("--max-memory and --max-cpu-seconds must be 1 or more") }
    }

    /// The PDF's limits.
    var limits: PDFLimits {
        PDFLimits(maxBytes: maxBytes, maxPages: maxPages, maxPageSidePoints: maxPageSide, maxPixels: maxPixels)
    }

    /// The process's limits.
    var processLimits: PDFProcessLimits {
        PDFProcessLimits(maxMemoryMiB: maxMemory, maxCPUSeconds: maxCPUSeconds)
    }

    /// Limits this process (`processLimits`), reads `file` (at most `maxBytes`, named `name` in messages) and opens it
    /// under `limits`: what every subcommand does first.
    /// - Complexity: O(the file's bytes), and poppler's reading of its cross-reference table and page tree.
    func open(_ file: String) throws(ChildFailure) -> PDFDocument {
        try ChildIO.limitSelf(processLimits)
        let source = name ?? file
        let bytes = try ChildIO.readPDF(path: file, source: source, maxBytes: maxBytes)
        do throws(PDFError) {
            return try PDFDocument(bytes: bytes, source: source, limits: limits)
        } catch {
            throw ChildFailure(error)
        }
    }
}

extension PDFDocument {
    /// A rectangle's size: `width` and `height` as given, else the page's at `dpi`.
    /// - Complexity: O(1).
    func size(page: Int, dpi: Double, width: Int?, height: Int?) throws(PDFError) -> (width: Int, height: Int) {
        guard width == nil || height == nil else { return (width!, height!) }
        let whole = try pixelSize(page: page, dpi: dpi)
        return (width ?? whole.width, height ?? whole.height)
    }
}
