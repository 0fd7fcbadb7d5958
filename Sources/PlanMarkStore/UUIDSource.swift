import Foundation
import PlanMarkFormats

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The store's maker of marker uuids (version 7, increasing: see `MarkerUUIDGenerator`), shared by its
/// writers under a lock.
///
/// Why the random pool: `SystemRandomNumberGenerator` makes one `getrandom` system call per 64 bits; an
/// import of a million markers spent more time in those calls (2 s of system time) than in SQLite. The pool
/// takes 4 KiB from the same source (the kernel's CSPRNG, `/dev/urandom`) per read.
final class UUIDSource: @unchecked Sendable {
    private var generator = MarkerUUIDGenerator()
    private var random = PooledSystemRandom()
    private let lock = NSLock()

    /// The next uuid for a marker stored at `milliseconds`.
    func next(milliseconds: Int64) -> MarkerUUID {
        lock.lock()
        defer { lock.unlock() }
        return generator.next(milliseconds: milliseconds, using: &random)
    }

    /// Writes the next uuid's 36 characters into `text`, with no heap allocation (an import's rows).
    func write(milliseconds: Int64, into text: UnsafeMutableBufferPointer<UInt8>) {
        lock.lock()
        defer { lock.unlock() }
        generator.writeNext(milliseconds: milliseconds, into: text, using: &random)
    }
}

/// Random words from the system's CSPRNG, 512 at a time.
struct PooledSystemRandom: RandomNumberGenerator {
    private var pool = [UInt64](repeating: 0, count: 512)
    private var used = 512
    private var system = SystemRandomNumberGenerator()

    mutating func next() -> UInt64 {
        if used == pool.count {
            refill()
            used = 0
        }
        defer { used += 1 }
        return pool[used]
    }

    private mutating func refill() {
        let filled = pool.withUnsafeMutableBytes { bytes -> Bool in
            let file = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
            guard file >= 0 else { return false }
            defer { close(file) }
            var offset = 0
            while offset < bytes.count {
                let got = read(file, bytes.baseAddress! + offset, bytes.count - offset)
                if got <= 0 { return false }
                offset += got
            }
            return true
        }
        if !filled {
            for index in pool.indices { pool[index] = system.next() }
        }
    }
}
