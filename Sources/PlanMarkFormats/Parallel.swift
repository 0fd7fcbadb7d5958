import Dispatch

/// Runs `body` for `0..<count` on all cores and returns the results in order.
/// - Complexity: O(count) calls of `body`, spread over the cores.
public func parallelMap<T>(_ count: Int, _ body: (Int) throws -> T) rethrows -> [T] {
    if count <= 1 { return try (0..<count).map(body) }
    var results = [Result<T, any Error>?](repeating: nil, count: count)
    results.withUnsafeMutableBufferPointer { slots in
        let slots = UncheckedSendable(slots)
        withoutActuallyEscaping(body) { body in
            let body = UncheckedSendable(body)
            DispatchQueue.concurrentPerform(iterations: count) { index in
                slots.value[index] = Result { try body.value(index) }
            }
        }
    }
    return try results.map { try $0!.get() }
}

/// Wraps a value that is shared across `concurrentPerform` iterations which touch disjoint parts.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// The number of cores to spread batch work over.
public var processorCount: Int {
    max(1, Int(sysconfNumberOfProcessors()))
}

#if canImport(Glibc)
import Glibc
func sysconfNumberOfProcessors() -> Int { sysconf(Int32(_SC_NPROCESSORS_ONLN)) }
#else
import Darwin
func sysconfNumberOfProcessors() -> Int { sysconf(_SC_NPROCESSORS_ONLN) }
#endif
