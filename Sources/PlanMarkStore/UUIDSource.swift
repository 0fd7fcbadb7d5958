import Foundation
import PlanMarkFormats

/// The store's maker of marker uuids (version 7, increasing: see `MarkerUUIDGenerator`), shared by its
/// writers under a lock.
final class UUIDSource: @unchecked Sendable {
    private var generator = MarkerUUIDGenerator()
    private let lock = NSLock()

    /// The next uuid for a marker stored at `milliseconds`.
    func next(milliseconds: Int64) -> MarkerUUID {
        lock.lock()
        defer { lock.unlock() }
        return generator.next(milliseconds: milliseconds)
    }

    /// Writes the next uuid's 36 characters into `text`, with no heap allocation (an import's rows).
    func write(milliseconds: Int64, into text: UnsafeMutableBufferPointer<UInt8>) {
        lock.lock()
        defer { lock.unlock() }
        generator.writeNext(milliseconds: milliseconds, into: text)
    }
}
