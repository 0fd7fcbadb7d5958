import CCairo
import CCairoScript
import PlanMarkPDFCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A PDF page's vectors, replayed from the CairoScript `planmark-pdf script` wrote into a cairo recording surface
/// (libcairo-script-interpreter): painted onto a cairo PDF surface, its lines, fills, images and text go into that PDF
/// as they are (text as text in the page's own TrueType fonts, so it stays selectable).
///
/// The script is checked first (`PDFScriptCheck`); nothing the check refuses reaches the interpreter. Replays are run
/// one at a time in a process (`replayLock`): the interpreter loads fonts through one FreeType library of its own,
/// which must not make two faces at once.
///
/// Owns the recording surface and the interpreter: the fonts in the recording are the interpreter's, so keep this
/// object until every surface the page was painted onto is finished (cairo writes a PDF's fonts when it finishes).
/// Not for use from several threads at once.
public final class PDFVectorPage: @unchecked Sendable {
    /// The page's width in points.
    public let width: Double
    /// The page's height in points.
    public let height: Double
    /// What the check counted (`PDFScriptSummary.decodedBytes`).
    public let decodedBytes: Int
    /// The recording (a `cairo_surface_t *` of `width` x `height`, origin top-left), valid while this object lives.
    public let surface: OpaquePointer
    private let interpreter: OpaquePointer
    private let replay: UnsafeMutablePointer<planmark_script_replay_t>

    /// One replay at a time in this process.
    static let replayLock = Mutex(())

    /// The interpreter's pointer, handed out of `replayLock`.
    private struct Handle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// Checks `script` and replays it.
    /// - Throws: `PDFScriptError`: the check's, `replay` (the interpreter's error and line), `pageSurfaces`,
    ///   `pageSize`, `cairo`.
    /// - Complexity: O(n) for n bytes to check, then the interpreter's work: O(n) plus decompressing what the check
    ///   counted (at most `limits.maxDecodedBytes`).
    public init(script: [UInt8], limits: PDFScriptLimits = PDFScriptLimits()) throws(PDFScriptError) {
        // The interpreter takes the script's length as an Int32.
        guard script.count <= Int(Int32.max) else { throw .tooLarge(bytes: script.count, max: Int(Int32.max)) }
        let summary = try PDFScriptCheck.check(script, limits: limits)
        let replay = UnsafeMutablePointer<planmark_script_replay_t>.allocate(capacity: 1)
        replay.initialize(to: planmark_script_replay_t(page: nil, width: 0, height: 0, surfaces: 0))
        let outcome: Result<Handle, PDFScriptError> = Self.replayLock.withLock { _ in
            guard let interpreter = planmark_script_interpreter_create(replay) else {
                return .failure(.cairo("cannot make a CairoScript interpreter"))
            }
            let status = script.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) {
                    cairo_script_interpreter_feed_string(interpreter, $0.baseAddress, Int32(buffer.count))
                }
            }
            guard status == CAIRO_STATUS_SUCCESS else {
                let line = Int(cairo_script_interpreter_get_line_number(interpreter))
                Self.finish(interpreter)
                return .failure(.replay(line: line, status: Self.text(status)))
            }
            return .success(Handle(pointer: interpreter))
        }
        let interpreter: OpaquePointer
        switch outcome {
        case .success(let made): interpreter = made.pointer
        case .failure(let error):
            Self.free(replay)
            throw error
        }
        guard replay.pointee.surfaces == 1, let page = replay.pointee.page else {
            let count = Int(replay.pointee.surfaces)
            Self.free(replay)
            Self.release(interpreter)
            throw .pageSurfaces(count: count)
        }
        let status = cairo_surface_status(page)
        guard status == CAIRO_STATUS_SUCCESS else {
            Self.free(replay)
            Self.release(interpreter)
            throw .cairo(String(cString: cairo_status_to_string(status)))
        }
        self.width = summary.width
        self.height = summary.height
        self.decodedBytes = summary.decodedBytes
        self.surface = page
        self.interpreter = interpreter
        self.replay = replay
    }

    deinit {
        // The recording first (it holds the interpreter's fonts), then the interpreter.
        if let page = replay.pointee.page {
            replay.pointee.page = nil
            cairo_surface_destroy(page)
        }
        Self.release(interpreter)
        Self.free(replay)
    }

    /// Paints the page onto `context` (a `cairo_t *`) in a box `width` x `height` user units at (`x`, `y`), scaled
    /// to fill it, clipped to it; `context`'s state is as it was afterwards.
    /// - Complexity: O(1) here; the target replays the recording (a PDF surface writes it as a form XObject when it
    ///   finishes the page).
    public func paint(on context: OpaquePointer, x: Double, y: Double, width boxWidth: Double, height boxHeight: Double) {
        cairo_save(context)
        cairo_translate(context, x, y)
        cairo_rectangle(context, 0, 0, boxWidth, boxHeight)
        cairo_clip(context)
        cairo_scale(context, boxWidth / width, boxHeight / height)
        cairo_set_source_surface(context, surface, 0, 0)
        cairo_paint(context)
        cairo_restore(context)
    }

    /// Paints the page onto a cairo PDF surface of its size that writes nowhere, and finishes it: what a report
    /// does with the page (the fonts subset and written, images compressed), done where a crash costs little
    /// (`planmark-pdf` does it before it answers).
    /// - Throws: `cairo` when the surface ends in an error.
    /// - Complexity: the page's operations and its images' and fonts' bytes.
    public func trial() throws(PDFScriptError) {
        guard let target = cairo_pdf_surface_create_for_stream({ _, _, _ in CAIRO_STATUS_SUCCESS }, nil, width, height) else {
            throw .cairo("cannot make a PDF surface")
        }
        defer { cairo_surface_destroy(target) }
        guard let context = cairo_create(target) else { throw .cairo("cannot make a context") }
        paint(on: context, x: 0, y: 0, width: width, height: height)
        var status = cairo_status(context)
        cairo_destroy(context)
        cairo_surface_finish(target)
        if status == CAIRO_STATUS_SUCCESS { status = cairo_surface_status(target) }
        guard status == CAIRO_STATUS_SUCCESS else { throw .cairo(String(cString: cairo_status_to_string(status))) }
    }

    /// Finishes and drops the interpreter under `replayLock` (finishing may release fonts it made).
    /// - Complexity: O(what the interpreter holds).
    private static func release(_ interpreter: OpaquePointer) {
        replayLock.withLock { _ in finish(interpreter) }
    }

    /// Finishes and drops the interpreter; the caller holds `replayLock`.
    /// - Complexity: O(what the interpreter holds).
    private static func finish(_ interpreter: OpaquePointer) {
        _ = cairo_script_interpreter_finish(interpreter)
        _ = cairo_script_interpreter_destroy(interpreter)
    }

    /// Drops the replay's record and its reference to the page (the interpreter's surface hook writes the record only
    /// while the interpreter is fed).
    /// - Complexity: O(1), and the page's recording when this was its last reference.
    private static func free(_ replay: UnsafeMutablePointer<planmark_script_replay_t>) {
        if let page = replay.pointee.page { cairo_surface_destroy(page) }
        replay.deinitialize(count: 1)
        replay.deallocate()
    }

    /// cairo's text for `status`, or the interpreter's own statuses (past cairo's).
    /// - Complexity: O(1).
    private static func text(_ status: cairo_status_t) -> String {
        status.rawValue < CAIRO_STATUS_LAST_STATUS.rawValue ? String(cString: cairo_status_to_string(status))
            : "interpreter status \(status.rawValue) (an invalid script)"
    }
}
