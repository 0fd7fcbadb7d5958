import Dispatch
import PlanMarkFormats
import PlanMarkGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif


/// An import's rows, parsed and validated on background threads in file order, a few blocks ahead of the
/// importing thread, which takes each chunk (`next()`) as soon as it is ready and stores it while the next
/// are parsed and validated.
///
/// Why: SQLite's inserts run on one thread and are the import's critical path; parsing every row before the
/// transaction (as an earlier version did) added the parse's wall time to it. The input is in memory
/// already (`MarkerRowSource.readInput`), so holding the write lock while parsing costs no more than the
/// inserts do. At most `aheadBlocks` blocks wait, so memory stays at a few blocks' rows, not the file's.
package final class ImportValidation<Source: MarkerRowSource>: @unchecked Sendable {
    /// Blocks parsed ahead of the importing thread.
    static var aheadBlocks: Int { 2 }

    private var source: Source
    private let validator: MarkerValidator
    private let roomText: [[UInt8]?]
    /// Blocks handed over, each in file order, guarded by `mutex`.
    private var queue: [Result<[ValidatedChunk], FormatError>?] = []
    private var queueStart = 0
    private var cancelled = false
    private var current: [ValidatedChunk] = []
    private var currentIndex = 0
    private var ended = false
    // Made at 0 and signalled up to their starting counts (in init): libdispatch traps when a semaphore is freed
    // with a count below the one it was made with, which `free` and `mutex` may have when the last reference to
    // this object goes on the background thread after `finish()`.
    private let mutex = DispatchSemaphore(value: 0)
    private let filled = DispatchSemaphore(value: 0)
    private let free = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private var finished = false

    /// Starts parsing and validating `source`'s rows against `validator` in the background.
    /// - Complexity: O(n * k) for n rows and k nearby regions, on the other cores.
    package init(_ source: Source, validator: MarkerValidator) {
        self.source = source
        self.validator = validator
        roomText = validator.regions.map { $0.kind == .room ? Array(JSONString.quoted($0.id).utf8) : nil }
        mutex.signal()
        for _ in 0..<Self.aheadBlocks { free.signal() }
        DispatchQueue.global().async { [self] in
            produce()
            done.signal()
        }
    }

    private func produce() {
        while true {
            free.wait()
            mutex.wait()
            let stop = cancelled
            mutex.signal()
            if stop { return }
            let item: Result<[ValidatedChunk], FormatError>?
            do throws(FormatError) {
                let (validator, roomText) = (self.validator, self.roomText)
                item = try source.nextChunks { ValidatedChunk($0, validator: validator, roomText: roomText) }.map { .success($0) }
            } catch {
                item = .failure(error)
            }
            mutex.wait()
            queue.append(item)
            mutex.signal()
            filled.signal()
            guard case .success = item else { return }
        }
    }

    /// The next chunk in file order, once validated; nil after the last. Throws the input's error where it
    /// is met.
    package func next() throws(FormatError) -> ValidatedChunk? {
        while currentIndex >= current.count {
            if ended { return nil }
            filled.wait()
            mutex.wait()
            let item = queue[queueStart]
            queue[queueStart] = nil
            queueStart += 1
            mutex.signal()
            free.signal()
            current = []
            currentIndex = 0
            guard let item else {
                ended = true
                return nil
            }
            do {
                current = try item.get()
            } catch {
                ended = true
                throw error
            }
        }
        defer { currentIndex += 1 }
        return current[currentIndex]
    }

    /// Stops the background work and waits until it has ended (so no work outlives the import).
    package func finish() {
        if finished { return }
        mutex.wait()
        cancelled = true
        mutex.signal()
        free.signal()
        done.wait()
        finished = true
    }

    deinit {
        finish()
    }
}
