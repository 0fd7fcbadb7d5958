import Dispatch

/// Writes results to stdout (or another sink) on a background queue, so the next block is computed while the last one
/// is written. At most `depth` pieces wait at once, which bounds the memory it holds.
final class BackgroundWriter: @unchecked Sendable {
    private let queue = DispatchQueue(label: "planmark.stdout")
    private let slots: DispatchSemaphore
    private let output: any OutputSink
    /// The first failure; read and written on `queue` only.
    private var failure: OutputError?

    /// Creates a writer that lets `depth` pieces wait.
    init(depth: Int = 4, to output: any OutputSink = StandardOutput()) {
        slots = DispatchSemaphore(value: depth)
        self.output = output
    }

    /// Queues `bytes` for the output; blocks while `depth` pieces are already waiting.
    func write(_ bytes: [UInt8]) {
        slots.wait()
        queue.async {
            if self.failure == nil {
                do throws(OutputError) { try self.output.write(bytes) } catch { self.failure = error }
            }
            self.slots.signal()
        }
    }

    /// Waits for everything queued, flushes, and reports the first failure.
    func finish() throws(OutputError) {
        let failure: OutputError? = queue.sync {
            if self.failure == nil {
                do throws(OutputError) { try self.output.flush() } catch { self.failure = error }
            }
            return self.failure
        }
        if let failure { throw failure }
    }
}
