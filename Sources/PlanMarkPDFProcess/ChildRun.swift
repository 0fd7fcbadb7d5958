import CSpawn
import Dispatch
import PlanMarkPDFCore
import PlanMarkRender

#if canImport(Glibc)
import Glibc
#endif

/// What the parent expects on a child's standard output, and so how much it reads at most.
enum OutputShape {
    /// Text of at most `maxBytes` bytes.
    case text(maxBytes: Int)
    /// Text of at most `maxBytes` bytes, `line` told of each whole line (without its break) as it arrives, on the run's
    /// queue.
    case lines(maxBytes: Int, line: @Sendable (Substring) -> Void)
    /// A `PDFRaster` stream of at most `maxPixels` pixels, of exactly `size` when it is given.
    case raster(maxPixels: Int, size: (width: Int, height: Int)?)
}

/// What a child wrote on its standard output, complete.
enum ChildOutput {
    /// The text, for `.text`.
    case text([UInt8])
    /// The image, for `.raster`.
    case raster(RGBAImage)
}

/// How a child ended.
enum Termination: Hashable {
    /// It exited with this status.
    case exited(Int32)
    /// A signal killed it.
    case signaled(Int32)
}

/// Why the parent killed a child.
enum StopReason: Hashable {
    /// The time limit ran out.
    case timeLimit
    /// The task waiting for it was cancelled.
    case cancelled
    /// It wrote what it should not have (too much, or a bad header).
    case badOutput(String)
}

/// What a finished (and reaped) child left.
struct ChildOutcome {
    /// How it ended.
    var termination: Termination
    /// Why the parent killed it, when it did (and the child did die of that SIGKILL).
    var stopped: StopReason?
    /// Its standard output, or why it is not complete.
    var output: Result<ChildOutput, PDFOutputError>
    /// The last `ChildRun.stderrTailBytes` bytes of its standard error.
    var stderrTail: [UInt8]
}

/// Why a child could not be started.
enum SpawnFailure: Error {
    /// The program is not there or cannot be executed (ENOENT, EACCES, ENOEXEC ...).
    case programMissing
    /// Anything else: no pipes, no process, no pidfd; the message says which.
    case system(String)
}

/// One run of a child process, from posix_spawn to waitpid, with its output read as it comes and a time limit, never
/// blocking a thread of Swift's concurrency pool while it waits.
///
/// - The child's stdout and stderr are pipes made close-on-exec (pipe2), copied onto its fds 1 and 2 by
///   `posix_spawn_file_actions_adddup2`; its stdin is /dev/null; every other descriptor is closed in the child before
///   exec (closefrom 3), so a child never holds another's pipe or a Foundation `Process`'s exit socket; signals
///   are at their defaults and unblocked (SIGPIPE included, whatever the server ignores).
/// - The parent's read ends are non-blocking and watched by dispatch read sources; the child's exit by a pidfd
///   (Linux 5.3) watched the same way; when it fires the child is reaped with waitpid and what is left in the pipes
///   is read. A grandchild holding a pipe open cannot make the parent wait.
/// - All state is touched only on one serial queue. The time limit is a dispatch timer; it and cancellation
///   SIGKILL the child (safe: it is not reaped before its exit is seen on that queue, so its pid cannot have been
///   reused), which then ends like any other exit.
/// - Output beyond what `OutputShape` allows kills the child too: what is kept in memory is bounded by the expected
///   answer (and `stderrTailBytes`).
final class ChildRun: @unchecked Sendable {
    /// How much of the end of stderr is kept (the child's own line is its last; poppler's complaints come before).
    static let stderrTailBytes = 4096

    /// The child.
    let pid: pid_t
    private let pidDescriptor: Int32
    private let stdoutDescriptor: Int32
    private let stderrDescriptor: Int32
    private let queue = DispatchQueue(label: "planmark.pdf-child")

    // Everything below is used on `queue` only.
    private var stdout: StdoutReader
    private var stdoutOpen = true
    private var stderrOpen = true
    private var stderrTail: [UInt8] = []
    private var sources: [DispatchSourceProtocol] = []
    private var stdoutSource: DispatchSourceRead?
    private var stderrSource: DispatchSourceRead?
    private var continuation: CheckedContinuation<ChildOutcome, Never>?
    private var reaped = false
    private var stopped: StopReason?
    private var pendingStop: StopReason?

    private init(pid: pid_t, pidDescriptor: Int32, stdout: Int32, stderr: Int32, shape: OutputShape) {
        self.pid = pid
        self.pidDescriptor = pidDescriptor
        self.stdoutDescriptor = stdout
        self.stderrDescriptor = stderr
        self.stdout = StdoutReader(shape: shape)
    }

    /// Starts `executable` with `arguments` (argv[0] is the executable) and the parent's environment.
    /// - Complexity: O(a) for a bytes of arguments, plus the spawn.
    static func spawn(_ executable: String, _ arguments: [String], shape: OutputShape) -> Result<ChildRun, SpawnFailure> {
        var output: [Int32] = [-1, -1], errors: [Int32] = [-1, -1]
        guard cspawn_pipe_cloexec(&output) == 0 else { return .failure(.system("cannot make a pipe: " + lastError())) }
        guard cspawn_pipe_cloexec(&errors) == 0 else {
            let failure = SpawnFailure.system("cannot make a pipe: " + lastError())
            close(output[0]); close(output[1])
            return .failure(failure)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        // Where glibc has no closefrom action (before 2.34), our own descriptors are still close-on-exec.
        _ = cspawn_file_actions_addclosefrom(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid = pid_t()
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        close(output[1])
        close(errors[1])
        guard status == 0 else {
            close(output[0])
            close(errors[0])
            if [ENOENT, EACCES, ENOEXEC, ENOTDIR, EISDIR, ELOOP, ENAMETOOLONG].contains(status) { return .failure(.programMissing) }
            return .failure(.system("cannot start \(executable): " + String(cString: strerror(status))))
        }
        let pidDescriptor = cspawn_pidfd_open(pid)
        guard pidDescriptor >= 0 else {
            let failure = SpawnFailure.system("cannot watch the child (pidfd_open, Linux 5.3 or later): " + lastError())
            kill(pid, SIGKILL)
            _ = reap(pid)
            close(output[0])
            close(errors[0])
            return .failure(failure)
        }
        for descriptor in [output[0], errors[0]] {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        return .success(ChildRun(pid: pid, pidDescriptor: pidDescriptor, stdout: output[0], stderr: errors[0], shape: shape))
    }

    /// Waits for the child to end (killing it when `timeLimit` runs out or the task is cancelled), reaps it, and
    /// returns what it left. Call once. With `timeUp` (tests), the time limit runs out when `timeUp` returns instead.
    /// - Complexity: O(n) for the n bytes the child writes (at most what its `OutputShape` allows).
    func wait(timeLimit: Duration, timeUp: (@Sendable () async -> Void)? = nil) async -> ChildOutcome {
        let clock = timeUp.map { timeUp in
            Task { [queue] in
                await timeUp()
                queue.async { self.stop(.timeLimit) }
            }
        }
        defer { clock?.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                queue.async { self.start(continuation, timeLimit: timeUp == nil ? timeLimit : nil) }
            }
        } onCancel: {
            queue.async { self.stop(.cancelled) }
        }
    }

    /// Watches the pipes, the pidfd and the clock. On `queue`.
    private func start(_ continuation: CheckedContinuation<ChildOutcome, Never>, timeLimit: Duration?) {
        self.continuation = continuation
        let out = DispatchSource.makeReadSource(fileDescriptor: stdoutDescriptor, queue: queue)
        out.setEventHandler { self.readStdout() }
        out.setCancelHandler { [descriptor = stdoutDescriptor] in close(descriptor) }
        let err = DispatchSource.makeReadSource(fileDescriptor: stderrDescriptor, queue: queue)
        err.setEventHandler { self.readStderr() }
        err.setCancelHandler { [descriptor = stderrDescriptor] in close(descriptor) }
        let exit = DispatchSource.makeReadSource(fileDescriptor: pidDescriptor, queue: queue)
        exit.setEventHandler { self.finish() }
        exit.setCancelHandler { [descriptor = pidDescriptor] in close(descriptor) }
        stdoutSource = out
        stderrSource = err
        sources = [out, err, exit]
        if let timeLimit {
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + Self.interval(timeLimit))
            timer.setEventHandler { self.stop(.timeLimit) }
            sources.append(timer)
        }
        for source in sources { source.activate() }
        // A cancellation that came before the sources were there.
        if let pendingStop {
            self.pendingStop = nil
            stop(pendingStop)
        }
    }

    /// Kills the child for `reason`, unless it is already reaped or already being killed. On `queue`.
    private func stop(_ reason: StopReason) {
        guard !reaped, stopped == nil else { return }
        guard continuation != nil else {
            pendingStop = pendingStop ?? reason
            return
        }
        stopped = reason
        kill(pid, SIGKILL)
    }

    /// Reads what stdout has; ends the reading at end of file, and the child when it writes too much. On `queue`.
    private func readStdout() {
        guard stdoutOpen else { return }
        while true {
            switch stdout.read(from: stdoutDescriptor) {
            case .more: continue
            case .wouldBlock: return
            case .end:
                closeStdout()
                return
            case .failed(let reason):
                stdout.fail(reason)
                closeStdout()
                stop(.badOutput(reason))
                return
            }
        }
    }

    /// Keeps the last `stderrTailBytes` bytes of stderr. On `queue`.
    private func readStderr() {
        guard stderrOpen else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(stderrDescriptor, $0.baseAddress!, $0.count) }
            if count > 0 {
                stderrTail.append(contentsOf: buffer[0..<count])
                if stderrTail.count > Self.stderrTailBytes { stderrTail.removeFirst(stderrTail.count - Self.stderrTailBytes) }
                continue
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
            stderrOpen = false
            stderrSource?.cancel()
            return
        }
    }

    private func closeStdout() {
        stdoutOpen = false
        stdoutSource?.cancel()
    }

    /// The child has ended (its pidfd is readable): reap it, read what is left in the pipes, stop watching, answer.
    /// On `queue`.
    private func finish() {
        guard !reaped else { return }
        let termination = Self.reap(pid)
        reaped = true
        // Everything the child wrote is in the pipes now (a grandchild's writes are not waited for).
        readStdout()
        readStderr()
        for source in sources { source.cancel() }
        sources = []
        stdoutSource = nil
        stderrSource = nil
        // The kill counts only when it is what ended the child.
        let stopped = termination == .signaled(SIGKILL) ? self.stopped : nil
        let outcome = ChildOutcome(termination: termination, stopped: stopped, output: stdout.finish(), stderrTail: stderrTail)
        continuation?.resume(returning: outcome)
        continuation = nil
    }

    /// waitpid, EINTR retried; how the child ended.
    private static func reap(_ pid: pid_t) -> Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return .exited(-1) }
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import.
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }

    /// `duration` as dispatch's nanoseconds (at least 1, at most about 292 years).
    private static func interval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let nanoseconds = overflow ? Int64.max : whole.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
        return .nanoseconds(Int(max(1, nanoseconds)))
    }

    /// strerror(errno).
    private static func lastError() -> String {
        String(cString: strerror(errno))
    }
}

/// Standard output as it arrives, kept within what its `OutputShape` allows; a raster's pixels are read straight into
/// the image's buffer, allocated once its header has said how big it is.
struct StdoutReader {
    /// What one read did.
    enum Step {
        /// Bytes arrived; there may be more.
        case more
        /// Nothing more for now.
        case wouldBlock
        /// End of file.
        case end
        /// More than allowed, or a bad header (the reason), or a read error.
        case failed(String)
    }

    let shape: OutputShape
    /// The text, or the start of a raster until its header is complete.
    private var bytes: [UInt8] = []
    /// The raster's size, once its header is read.
    private var size: (width: Int, height: Int)?
    /// The raster's pixels, once its header is read.
    private var pixels: [UInt8] = []
    /// How many bytes of `pixels` have arrived.
    private var filled = 0
    /// Why the output is refused, once it is (the reader has stopped then).
    private var failure: String?
    /// For `.lines`: where the first line not yet handed on starts in `bytes`.
    private var lineStart = 0

    init(shape: OutputShape) {
        self.shape = shape
    }

    /// One read(2) from `descriptor` (non-blocking).
    /// - Complexity: O(k) for the k bytes read, plus O(w * h) once when a raster's header is complete.
    mutating func read(from descriptor: Int32) -> Step {
        if size != nil {
            if filled < pixels.count {
                let count = pixels.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
                guard count > 0 else { return step(count) }
                filled += count
                return .more
            }
            var extra: UInt8 = 0
            let count = Glibc.read(descriptor, &extra, 1)
            guard count > 0 else { return step(count) }
            return .failed("the image is longer than its header says")
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
        guard count > 0 else { return step(count) }
        bytes.append(contentsOf: buffer[0..<count])
        switch shape {
        case .text(let maxBytes):
            return bytes.count > maxBytes ? .failed("the answer is longer than \(maxBytes) bytes") : .more
        case .lines(let maxBytes, let line):
            guard bytes.count <= maxBytes else { return .failed("the answer is longer than \(maxBytes) bytes") }
            while let end = bytes[lineStart...].firstIndex(of: 10) {
                line(Substring(String(decoding: bytes[lineStart..<end], as: UTF8.self)))
                lineStart = end + 1
            }
            return .more
        case .raster(let maxPixels, let expected):
            let header: (width: Int, height: Int, length: Int)?
            do { header = try PDFRaster.readHeader(bytes[...]) } catch { return .failed(error.reason) }
            guard let header else { return .more }
            let (count, overflow) = header.width.multipliedReportingOverflow(by: header.height)
            guard !overflow, count <= maxPixels else {
                return .failed("a \(header.width)x\(header.height) image is over the limit of \(maxPixels) pixels")
            }
            if let expected, expected != (header.width, header.height) {
                return .failed("a \(header.width)x\(header.height) image instead of \(expected.width)x\(expected.height)")
            }
            let rest = bytes.count - header.length
            guard rest <= count * 4 else { return .failed("the image is longer than its header says") }
            pixels = [UInt8](repeating: 0, count: count * 4)
            pixels.withUnsafeMutableBytes { target in
                bytes.withUnsafeBytes { source in
                    target.baseAddress!.copyMemory(from: source.baseAddress! + header.length, byteCount: rest)
                }
            }
            filled = rest
            size = (header.width, header.height)
            bytes = []
            return .more
        }
    }

    /// What a read that returned `count` (0 or -1) means.
    private func step(_ count: Int) -> Step {
        if count == 0 { return .end }
        if errno == EINTR { return .more }
        if errno == EAGAIN || errno == EWOULDBLOCK { return .wouldBlock }
        return .failed("cannot read the answer: " + String(cString: strerror(errno)))
    }

    /// Refuses the output for `reason` (from `read`): `finish()` says so whatever else arrived.
    mutating func fail(_ reason: String) {
        failure = failure ?? reason
    }

    /// The whole answer, or why it is not complete or refused.
    /// - Complexity: O(1) (the buffers are shared, not copied).
    func finish() -> Result<ChildOutput, PDFOutputError> {
        if let failure { return .failure(PDFOutputError(failure)) }
        switch shape {
        case .text, .lines:
            return .success(.text(bytes))
        case .raster:
            guard let size else {
                return .failure(PDFOutputError(bytes.isEmpty ? "no image" : "the image header is cut short"))
            }
            guard filled == pixels.count else {
                return .failure(PDFOutputError("the image ends after \(filled) of its \(pixels.count) bytes"))
            }
            return .success(.raster(RGBAImage(width: size.width, height: size.height, pixels: pixels)))
        }
    }
}
