import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starting child processes from tests that run in parallel, without one child keeping another's exit unseen.
///
/// swift-corelibs-foundation learns that a child exited when a socket pair it made for that child reaches end of
/// file, and closes the other descriptors in the child by listing `/proc/self/fd` just before `posix_spawn`. Neither
/// the socket pair nor `Pipe()` is close-on-exec. So when two tests start processes at once, a descriptor made by
/// one between the other's listing and its spawn is inherited: the second child holds the first child's socket end
/// (the first child's exit, its `terminationHandler` and `waitUntilExit`, wait for the second child to end) or its
/// pipe (its reader never sees end of file). A long-lived second child (a server, a PostgreSQL cluster) made the
/// full suite wait forever once, idle, with no thread blocked.
///
/// Every test starts its processes with `ChildProcess.run` and makes their pipes with `ChildProcess.pipe()`: both
/// take one lock, and a pipe's ends are close-on-exec from the moment they exist (the child's own standard streams
/// are `dup2` copies, which are not), so no spawn can see another's descriptors half-made.
public enum ChildProcess {
    private static let lock = NSLock()

    /// A pipe whose two ends are close-on-exec, made while no child is being started.
    public static func pipe() -> Pipe {
        lock.withLock {
            let pipe = Pipe()
            for descriptor in [pipe.fileHandleForReading.fileDescriptor, pipe.fileHandleForWriting.fileDescriptor] {
                _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
            }
            return pipe
        }
    }

    /// Starts `process`, alone: no other test's child is being started, and no pipe is being made, meanwhile.
    public static func run(_ process: Process) throws {
        try lock.withLock { try process.run() }
    }
}
