import PlanMarkPDFCore
import PlanMarkRender

#if canImport(Glibc)
import Glibc
#endif

/// PDF pages measured and drawn in a child process, `planmark-pdf`, so that a PDF that crashes poppler, makes it
/// spin or eat memory costs one request (a `PDFProcessError`), never the server or the CLI.
///
/// Each call runs one child: it sets its own rlimits (`processLimits`), opens the file under `limits` (checked before
/// the work or memory they bound), answers, and exits. The parent kills it when `timeLimit` (wall-clock) runs out or
/// the calling task is cancelled, and reads no more from it than the answer asked for can be. Calls may run
/// concurrently; each has its own child. Linux only (the child's exit is watched with a pidfd, Linux 5.3).
public struct PDFRenderer: Sendable {
    /// The default time limit of one call: 60 seconds.
    public static let defaultTimeLimit: Duration = .seconds(60)

    /// The path of `planmark-pdf`.
    public var executable: String
    /// The limits the child opens and draws the PDF under.
    public var limits: PDFLimits
    /// The child's own rlimits (memory, CPU time).
    public var processLimits: PDFProcessLimits
    /// How long one call's child may run (wall-clock) before it is killed and the call throws `timedOut`.
    public var timeLimit: Duration
    /// Told each child's pid as soon as it is started (tests use it to see that the child is gone afterwards).
    package var spawned: (@Sendable (Int32) -> Void)?
    /// Tests: when set, each call's time limit runs out when this returns, instead of after `timeLimit` (so a test can
    /// show what happens while a child runs, then make it time out, without waiting on the clock).
    package var timeUp: (@Sendable () async -> Void)?

    /// A renderer.
    /// - Parameters:
    ///   - executable: the path of `planmark-pdf`; nil for `defaultExecutable()`, the one beside this program.
    ///   - limits: what the PDF may ask for.
    ///   - processLimits: the child's rlimits.
    ///   - timeLimit: how long one call's child may run.
    public init(
        executable: String? = nil, limits: PDFLimits = PDFLimits(), processLimits: PDFProcessLimits = PDFProcessLimits(),
        timeLimit: Duration = PDFRenderer.defaultTimeLimit
    ) {
        self.executable = executable ?? PDFRenderer.defaultExecutable()
        self.limits = limits
        self.processLimits = processLimits
        self.timeLimit = timeLimit
    }

    /// `planmark-pdf` in the folder of the running executable (`/proc/self/exe`, else argv[0]): `.build/debug/` for
    /// `swift run` and the tests, the install's `bin/` for an install.
    /// - Complexity: O(1).
    public static func defaultExecutable() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let program = count > 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
        let folder = program.lastIndex(of: "/").map { String(program[..<$0]) } ?? "."
        return folder + "/" + PDFChild.programName
    }

    /// The PDF's pages: each page's size in points and in pixels at `dpi`, and its sheet name.
    ///
    /// - Parameters:
    ///   - file: the PDF's path.
    ///   - dpi: the resolution of the pixel sizes (`PDFPixels.side(points:dpi:)`).
    ///   - name: the name used in messages (default: `file`).
    /// - Throws: `refused` (the file's size, header, encryption, pages, a page over the side limit, a bad dpi ...),
    ///   `timedOut`, `crashed`, `fileMissing`, `programMissing`, `io`, `childFailed`, `cancelled`.
    /// - Complexity: O(n + p) in the child for n bytes and p pages; the parent reads at most
    ///   `PDFDocumentInfo.maxJSONBytes(maxPages:)` bytes.
    public func info(file: String, dpi: Double = 300, name: String? = nil) async throws(PDFProcessError) -> PDFDocumentInfo {
        let source = name ?? file
        let arguments = ["info", "--dpi", String(dpi)] + common(name: name) + ["--", file]
        let output = try await run(arguments, shape: .text(maxBytes: PDFDocumentInfo.maxJSONBytes(maxPages: limits.maxPages)), source: source, file: file)
        guard case .text(let bytes) = output else { throw .childFailed(source: source, reason: "an image instead of the info") }
        do { return try PDFDocumentInfo(json: bytes) } catch { throw .childFailed(source: source, reason: error.reason) }
    }

    /// A rectangle of a page drawn at `dpi` on white paper, as PlanMarkPDF's `render(page:dpi:x:y:width:height:)`
    /// draws it: in pixels of the whole page at `dpi`, from its top-left corner; white outside the page.
    ///
    /// - Parameters:
    ///   - file: the PDF's path.
    ///   - page: the page, from 1.
    ///   - dpi: pixels per inch (72: one pixel a point).
    ///   - x: the rectangle's left edge.
    ///   - y: the rectangle's top edge.
    ///   - width: its width in pixels, 0 or more.
    ///   - height: its height in pixels, 0 or more.
    ///   - name: the name used in messages (default: `file`).
    /// - Throws: `refused` (as `info`, and `page_out_of_range`, `invalid_area`, `too_many_pixels` over
    ///   `limits.maxPixels` before anything is drawn, `render_failed`), `timedOut`, `crashed`, `fileMissing`,
    ///   `programMissing`, `io`, `childFailed`, `cancelled`.
    /// - Complexity: O(w * h + c) in the child for a w x h rectangle of a page of c drawing operations; the parent
    ///   allocates the w * h * 4 bytes once and reads nothing more.
    public func render(
        file: String, page: Int, dpi: Double, x: Int, y: Int, width: Int, height: Int, name: String? = nil
    ) async throws(PDFProcessError) -> RGBAImage {
        let arguments = [
            "render", "--page", String(page), "--dpi", String(dpi), "--x", String(x), "--y", String(y),
            "--width", String(width), "--height", String(height),
        ] + common(name: name) + ["--", file]
        return try await image(arguments, size: (width, height), source: name ?? file, file: file)
    }

    /// A whole page drawn at `dpi`: `PDFPixels.side(points:dpi:)` pixels a side.
    /// - Throws: as `render(file:page:dpi:x:y:width:height:name:)`.
    /// - Complexity: as `render(file:page:dpi:x:y:width:height:name:)` for the whole page.
    public func render(file: String, page: Int, dpi: Double, name: String? = nil) async throws(PDFProcessError) -> RGBAImage {
        let arguments = ["render", "--page", String(page), "--dpi", String(dpi)] + common(name: name) + ["--", file]
        return try await image(arguments, size: nil, source: name ?? file, file: file)
    }

    /// A page's vectors as CairoScript (`planmark-pdf script`): what poppler draws of the page onto a cairo script
    /// surface its size in points, checked and replayed once by the child before it answers (PlanMarkPDFVectors'
    /// `PDFScriptCheck` and `PDFVectorPage`), for the caller to replay (`PDFVectorPage(script:limits:)`).
    ///
    /// - Parameters:
    ///   - file: the PDF's path.
    ///   - page: the page, from 1.
    ///   - limits: the script's size and what it may declare; the child stops writing at `limits.maxBytes`, the parent
    ///     reads no more.
    ///   - name: the name used in messages (default: `file`).
    /// - Throws: `refused` (as `info`, `page_out_of_range`, and `not_vectors` for a page that cannot be kept as vectors:
    ///   a Type 1, CFF or Type 3 font, a script over the limits, one that does not replay), `timedOut`, `crashed`,
    ///   `fileMissing`, `programMissing`, `io`, `childFailed`, `cancelled`.
    /// - Complexity: O(c + n) in the child for a page of c drawing operations and a script of n bytes, twice (drawn,
    ///   then replayed); the parent reads at most `limits.maxBytes`.
    public func script(file: String, page: Int, limits scriptLimits: PDFScriptLimits = PDFScriptLimits(),
                       name: String? = nil) async throws(PDFProcessError) -> [UInt8] {
        let source = name ?? file
        let arguments = [
            "script", "--page", String(page), "--" + PDFChild.Option.maxScriptBytes, String(scriptLimits.maxBytes),
            "--" + PDFChild.Option.maxDecodedBytes, String(scriptLimits.maxDecodedBytes),
        ] + common(name: name) + ["--", file]
        let output = try await run(arguments, shape: .text(maxBytes: scriptLimits.maxBytes), source: source, file: file)
        guard case .text(let bytes) = output else { throw .childFailed(source: source, reason: "an image instead of a script") }
        return bytes
    }

    /// The limit options, and `--name`.
    func common(name: String?) -> [String] {
        PDFChild.limitArguments(limits, processLimits) + (name.map { ["--" + PDFChild.Option.name, $0] } ?? [])
    }

    /// Runs a render and takes its image.
    private func image(_ arguments: [String], size: (width: Int, height: Int)?, source: String, file: String) async throws(PDFProcessError) -> RGBAImage {
        let output = try await run(arguments, shape: .raster(maxPixels: limits.maxPixels, size: size), source: source, file: file)
        guard case .raster(let image) = output else { throw .childFailed(source: source, reason: "text instead of an image") }
        return image
    }

    /// Runs `planmark-pdf` with `arguments` and turns how it ended into its output or a `PDFProcessError`.
    func run(_ arguments: [String], shape: OutputShape, source: String, file: String) async throws(PDFProcessError) -> ChildOutput {
        if Task.isCancelled { throw .cancelled(source: source) }
        guard access(executable, X_OK) == 0 else { throw .programMissing(path: executable) }
        let child: ChildRun
        switch ChildRun.spawn(executable, arguments, shape: shape) {
        case .success(let run): child = run
        case .failure(.programMissing): throw .programMissing(path: executable)
        case .failure(.system(let message)): throw .io(source: source, message: message)
        }
        spawned?(child.pid)
        let outcome = await child.wait(timeLimit: timeLimit, timeUp: timeUp)
        let line = PDFChild.lastLine(outcome.stderrTail)
        switch outcome.stopped {
        case .timeLimit?: throw .timedOut(source: source, seconds: Self.seconds(timeLimit))
        case .cancelled?: throw .cancelled(source: source)
        case .badOutput(let reason)?: throw .childFailed(source: source, reason: reason)
        case nil: break
        }
        switch outcome.termination {
        case .signaled(let signal):
            throw .crashed(source: source, signal: signal)
        case .exited(PDFChild.Status.ok.rawValue):
            do { return try outcome.output.get() } catch { throw .childFailed(source: source, reason: error.reason) }
        case .exited(PDFChild.Status.refused.rawValue):
            guard let line, let (code, message) = PDFChild.refusal(line) else {
                throw .childFailed(source: source, reason: "exit status 65 without a refusal line")
            }
            throw .refused(source: source, code: code, message: message)
        case .exited(PDFChild.Status.fileMissing.rawValue):
            throw .fileMissing(path: file)
        case .exited(PDFChild.Status.io.rawValue):
            // The child's line is `FILE: what`.
            let what = line.map { $0.hasPrefix(file + ": ") ? String($0.dropFirst(file.count + 2)) : $0 }
            throw .io(source: source, message: what ?? "cannot read the file")
        case .exited(let status):
            throw .childFailed(source: source, reason: "exit status \(status)" + (line.map { ": " + $0 } ?? ""))
        }
    }

    /// `duration` in seconds.
    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
