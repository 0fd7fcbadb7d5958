#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where results go: standard output (a stream) or an `AtomicFile`.
protocol OutputSink {
    /// Writes `bytes`.
    func write(_ bytes: [UInt8]) throws(OutputError)
    /// Makes everything written so far durable (stdout: flushed; a file: nothing yet, see `commit`).
    func flush() throws(OutputError)
}

extension StandardOutput: OutputSink {}

/// An output file written whole or not at all: bytes go to a temporary file beside the target
/// (`.NAME.tmp-XXXXXX`, same folder so the rename is atomic), which `commit` syncs and renames over the
/// target. Until then the target is untouched; `discard`, deinit, SIGINT, SIGTERM and SIGHUP remove the
/// temporary file (`PendingFiles`), so a failure or an interrupt never leaves a half-written file.
final class AtomicFile: OutputSink {
    /// The target path.
    let path: String
    private let temporary: String
    private var descriptor: Int32
    private let slot: Int
    private var done = false

    /// Creates the temporary file for `path`.
    init(path: String) throws(OutputError) {
        self.path = path
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        // mkstemp fills in the name inside the armed slot itself, so an interrupt at any moment after
        // this finds the file's name (or no file yet) there.
        guard let slot = PendingFiles.reserve(folder + "." + name + ".tmp-XXXXXX") else {
            throw OutputError(place: path, message: "the path is too long, or too many outputs are open", exitCode: Exit.cannotCreate)
        }
        self.slot = slot
        descriptor = mkstemp(PendingFiles.path(slot))
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            PendingFiles.unregister(slot)
            throw OutputError(place: path, message: "cannot create: \(reason)", exitCode: Exit.cannotCreate)
        }
        temporary = String(cString: PendingFiles.path(slot))
        fchmod(descriptor, 0o644 & ~Self.umaskValue)
    }

    deinit { discard() }

    /// Appends `bytes` to the temporary file.
    func write(_ bytes: [UInt8]) throws(OutputError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                Glibc.write(descriptor, raw.baseAddress! + offset, bytes.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw OutputError(place: path, message: "cannot write: \(String(cString: strerror(errno)))", exitCode: Exit.ioError)
            }
            offset += written
        }
    }

    /// Nothing to do: the file becomes visible only at `commit`.
    func flush() throws(OutputError) {}

    /// Syncs the temporary file and renames it over the target.
    func commit() throws(OutputError) {
        guard !done else { return }
        if fsync(descriptor) != 0 || close(descriptor) != 0 {
            let reason = String(cString: strerror(errno))
            descriptor = -1
            discard()
            throw OutputError(place: path, message: "cannot write: \(reason)", exitCode: Exit.ioError)
        }
        descriptor = -1
        if rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            discard()
            throw OutputError(place: path, message: "cannot create: \(reason)", exitCode: Exit.cannotCreate)
        }
        done = true
        PendingFiles.unregister(slot)
    }

    /// Removes the temporary file; the target stays as it was.
    func discard() {
        guard !done else { return }
        done = true
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        unlink(temporary)
        PendingFiles.unregister(slot)
    }

    /// The process's umask (read without changing it for long).
    private static let umaskValue: mode_t = {
        let value = umask(0o022)
        umask(value)
        return value
    }()
}

/// Temporary files to remove if the process is interrupted: fixed slots of preallocated C strings,
/// so the signal handler only reads memory and calls `unlink` (async-signal-safe).
enum PendingFiles {
    /// How many temporary files can be pending at once.
    static let slotCount = 4
    /// Bytes per slot, path and terminating NUL.
    static let slotBytes = Int(PATH_MAX) + 1

    /// The paths; a slot is armed when its flag is 1.
    nonisolated(unsafe) static let paths = UnsafeMutablePointer<CChar>.allocate(capacity: slotCount * slotBytes)
    nonisolated(unsafe) static let armed: UnsafeMutablePointer<sig_atomic_t> = {
        let flags = UnsafeMutablePointer<sig_atomic_t>.allocate(capacity: slotCount)
        flags.initialize(repeating: 0, count: slotCount)
        return flags
    }()

    /// Arms a slot holding `path` (installing the signal handlers first); nil when all are in use or
    /// the path is too long.
    static func reserve(_ path: String) -> Int? {
        installHandlers
        let bytes = Array(path.utf8)
        guard bytes.count < slotBytes else { return nil }
        for slot in 0..<slotCount where armed[slot] == 0 {
            let start = paths + slot * slotBytes
            bytes.withUnsafeBufferPointer { buffer in
                UnsafeMutableRawPointer(start).copyMemory(from: buffer.baseAddress!, byteCount: buffer.count)
            }
            start[bytes.count] = 0
            armed[slot] = 1
            return slot
        }
        return nil
    }

    /// The C string of `slot`.
    static func path(_ slot: Int) -> UnsafeMutablePointer<CChar> { paths + slot * slotBytes }

    /// Disarms `slot`.
    static func unregister(_ slot: Int) {
        armed[slot] = 0
    }

    /// Installs the handlers once: remove every armed file, then die of the same signal. The signals
    /// are unblocked too: a parent may have started this process with them blocked (a thread pool's
    /// mask is inherited), and then an interrupt would wait until the process ends by itself.
    static let installHandlers: Void = {
        _ = paths
        _ = armed
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            sigaddset(&unblock, signal)
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                for slot in 0..<PendingFiles.slotCount where PendingFiles.armed[slot] == 1 {
                    unlink(PendingFiles.paths + slot * PendingFiles.slotBytes)
                }
                Glibc.signal(number, SIG_DFL)
                raise(number)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signal, &action, nil)
        }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }()
}
