import PlanMarkStore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The annotation store as the service uses it: every call is awaited (the store runs it on its own queues or event
/// loops; no thread of the service waits for it), measured, and its errors become API errors.
///
/// An SQLite store's file is checked before every call (`StoreFileIdentity`): once it has been removed or
/// replaced (or its WAL has), every call is refused with 503 `store-replaced` instead of writing to a file
/// that no one will open again.
public struct StoreAccess: Sendable {
    /// The store.
    let store: any AnnotationStore
    /// The SQLite store's file as it was opened; nil for other stores.
    let identity: StoreFileIdentity?
    /// Where each call is counted and timed (`planmark_store_*`); nil: not measured.
    private(set) var metrics: ServerMetrics?

    /// Wraps a store.
    public init(_ store: any AnnotationStore) {
        self.store = store
        identity = store.file.flatMap { StoreFileIdentity(path: $0) }
    }

    /// This access with its calls measured in `metrics`.
    func measured(by metrics: ServerMetrics) -> StoreAccess {
        var access = self
        access.metrics = metrics
        return access
    }

    /// Awaits `body` with the store; store errors become API errors. `operation` names the call in the metrics (a fixed
    /// name, never anything from the request): it is counted by how it ended and timed, and counted as in progress
    /// until it ends.
    func run<T>(_ operation: String, _ body: (any AnnotationStore) async throws(StoreError) -> T) async throws(APIError) -> T {
        try identity?.check()
        guard let metrics else {
            do throws(StoreError) { return try await body(store) } catch { throw APIError(error) }
        }
        metrics.storeInProgress.increment()
        let start = ContinuousClock.now
        var outcome = ServerMetrics.StoreOutcome.failed
        defer {
            metrics.storeInProgress.decrement()
            metrics.recordStoreOperation(operation, outcome: outcome, nanoseconds: ServerMetrics.nanoseconds(since: start))
        }
        do throws(StoreError) {
            let value = try await body(store)
            outcome = .ok
            return value
        } catch {
            let failure = APIError(error)
            outcome = failure.status.code >= 500 ? .failed : .refused
            throw failure
        }
    }
}

/// The device and inode of an SQLite store's file, and of its `-wal` file, as the server opened them.
///
/// SQLite keeps writing through its open descriptors when the files are removed or replaced (by another
/// `store init`, a restore from backup ...): the writes would go to files no one will open again. While the
/// server holds the store open, SQLite keeps the WAL file (it is removed only when the last connection
/// closes), so a WAL that disappears or changes is a replaced store too. A WAL not there at the first check
/// is taken as it is when first seen.
final class StoreFileIdentity: Sendable {
    /// A file's device and inode.
    struct FileID: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
    }

    /// The store file's path.
    let path: String
    /// The store file when opened.
    let file: FileID
    private let wal: Mutex<FileID?>

    /// The identity of the store at `path` now; nil when it cannot be read (the store's own errors say why).
    init?(path: String) {
        guard let file = Self.identity(of: path) else { return nil }
        self.path = path
        self.file = file
        wal = Mutex(Self.identity(of: path + "-wal"))
    }

    /// Throws 503 `store-replaced` when the file or its WAL is not the one opened.
    /// - Complexity: two `stat` calls.
    func check() throws(APIError) {
        let now = Self.identity(of: path)
        let walNow = Self.identity(of: path + "-wal")
        let walChanged = wal.withLock { recorded -> Bool in
            guard let known = recorded else {
                recorded = walNow
                return false
            }
            return walNow != known
        }
        guard now == file, !walChanged else {
            let what = now == nil ? "was removed" : now != file ? "was replaced" : walNow == nil ? "lost its WAL file" : "has another WAL file"
            throw APIError.unavailable(
                code: "store-replaced",
                message: "the store file was removed or replaced while the server ran; nothing was changed; restart the server",
                detail: "\(path) \(what) since the server opened it")
        }
    }

    /// Device and inode of the file at `path`; nil when there is none.
    static func identity(of path: String) -> FileID? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileID(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }
}
