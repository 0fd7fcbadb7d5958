import PlanMarkStore
import Dispatch
import GRDB
import GRDBSQLite
import PlanMarkFormats
import PlanMarkGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif


/// Writes the WAL frames an import has written so far to disk, on another thread, while the import goes on.
///
/// Why: committing a large import ends with a checkpoint, which first syncs the WAL (SQLite's `synchronous =
/// NORMAL`): for a million markers 78 MB waited for the disk there, on the import's critical path. Synced in the
/// background as the frames are written (`flush()` after each chunk; one sync at a time, none queued), the
/// checkpoint finds little left to sync. Durability is unchanged (frames without a commit are ignored on
/// recovery, as before); only when the bytes reach the disk moves.
final class WALFlusher: @unchecked Sendable {
    private let descriptor: Int32
    private let queue = DispatchQueue(label: "PlanMarkStore.WALFlusher")
    private let lock = DispatchSemaphore(value: 1)
    private var busy = false

    /// Opens the WAL at `walPath` for syncing; nil when it cannot be opened (nothing is synced early then).
    init?(walPath: String) {
        let descriptor = open(walPath, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    /// Starts syncing what is written so far, unless a sync is under way.
    func flush() {
        lock.wait()
        defer { lock.signal() }
        if busy { return }
        busy = true
        queue.async { [self] in
            #if os(Linux)
            _ = fdatasync(descriptor)
            #else
            _ = fsync(descriptor)
            #endif
            lock.wait()
            busy = false
            lock.signal()
        }
    }

    /// Waits for a sync under way and closes the file.
    func finish() {
        queue.sync {}
        close(descriptor)
    }
}
