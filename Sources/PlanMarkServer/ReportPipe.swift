import Dispatch
import Synchronization

/// Hands a report's bytes from the blocking thread that makes them to the task that sends them, holding at most
/// `capacity` bytes: the maker waits while the sender is behind (so a slow client slows the report instead of
/// filling memory), and stops as soon as the pipe is cancelled (the client went away, the request's task was
/// cancelled, or the service is stopping).
///
/// Bytes are passed on in chunks of `chunkSize` (the last may be shorter).
final class ReportPipe: Sendable {
    /// The size of the chunks handed to the sender.
    let chunkSize: Int
    /// The most bytes held at once (whole chunks waiting to be sent, plus the chunk being filled).
    let capacity: Int

    private struct State {
        var chunks: [[UInt8]] = []
        var head = 0
        var queued = 0
        var filling: [UInt8] = []
        var end: Result<Void, ReportPipeEnd>?
        var cancelled = false
        var makerWaiting = false
        var sender: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())
    private let space = DispatchSemaphore(value: 0)

    init(chunkSize: Int = 256 << 10, capacity: Int = 1 << 20) {
        self.chunkSize = max(1, chunkSize)
        self.capacity = max(self.chunkSize, capacity)
    }

    /// True once the pipe is cancelled: the maker's cheap cancellation check.
    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Appends `bytes` (maker's side, on a blocking thread); waits while `capacity` bytes are held. False once the
    /// pipe is cancelled (nothing more is wanted).
    /// - Complexity: O(bytes).
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let (accepted, wake, wait) = state.withLock { state -> (Int, CheckedContinuation<Void, Never>?, Bool) in
                if state.cancelled { return (-1, nil, false) }
                if state.queued + state.filling.count >= capacity {
                    state.makerWaiting = true
                    return (0, nil, true)
                }
                let count = min(bytes.count - offset, chunkSize - state.filling.count)
                state.filling.append(contentsOf: bytes[offset..<(offset + count)])
                var wake: CheckedContinuation<Void, Never>?
                if state.filling.count == chunkSize {
                    state.chunks.append(state.filling)
                    state.queued += state.filling.count
                    state.filling = []
                    state.filling.reserveCapacity(chunkSize)
                    wake = state.sender
                    state.sender = nil
                }
                return (count, wake, false)
            }
            if accepted < 0 { return false }
            wake?.resume()
            if wait {
                space.wait()
                continue
            }
            offset += accepted
        }
        return true
    }

    /// Ends the stream (maker's side): what is still being filled is passed on, then the end (or the failure).
    /// - Complexity: O(1) (the chunk being filled is moved, not copied).
    func finish(_ end: Result<Void, ReportPipeEnd>) {
        let wake = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.end == nil {
                if !state.filling.isEmpty {
                    state.chunks.append(state.filling)
                    state.queued += state.filling.count
                    state.filling = []
                }
                state.end = end
            }
            let wake = state.sender
            state.sender = nil
            return wake
        }
        wake?.resume()
    }

    /// Cancels the pipe (either side): the maker's next write or cancellation check stops it, a waiting maker
    /// and a waiting sender wake up, the chunks held are dropped.
    /// - Complexity: O(chunks held).
    func cancel() {
        let (wakeMaker, wakeSender) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
            state.cancelled = true
            state.chunks = []
            state.head = 0
            state.queued = 0
            state.filling = []
            if state.end == nil { state.end = .failure(.cancelled) }
            let maker = state.makerWaiting
            state.makerWaiting = false
            let sender = state.sender
            state.sender = nil
            return (maker, sender)
        }
        if wakeMaker { space.signal() }
        wakeSender?.resume()
    }

    /// What the sender gets next.
    enum Next {
        /// A chunk to send.
        case chunk([UInt8])
        /// The stream ended, completely or not.
        case end(Result<Void, ReportPipeEnd>)
    }

    /// The next chunk, waiting for it (sender's side); `.end` once every chunk has been taken.
    /// - Complexity: O(1) amortised (the chunk is moved out of the queue).
    func next() async -> Next {
        while true {
            let (taken, wakeMaker) = state.withLock { state -> (Next?, Bool) in
                if state.head < state.chunks.count {
                    let chunk = state.chunks[state.head]
                    state.chunks[state.head] = []
                    state.head += 1
                    if state.head == state.chunks.count {
                        state.chunks.removeAll(keepingCapacity: true)
                        state.head = 0
                    }
                    state.queued -= chunk.count
                    let wake = state.makerWaiting
                    state.makerWaiting = false
                    return (.chunk(chunk), wake)
                }
                if let end = state.end { return (.end(end), false) }
                return (nil, false)
            }
            if wakeMaker { space.signal() }
            if let taken { return taken }
            await waitForChunkOrEnd()
        }
    }

    /// Waits until the first chunk is ready or the stream has ended (sender's side) and says which: true when the
    /// whole stream has ended (its chunks, if any, are still there to take).
    /// - Complexity: O(1) besides the wait.
    func waitForStart() async -> Bool {
        while true {
            let ended = state.withLock { state -> Bool? in
                if state.end != nil { return true }
                if state.head < state.chunks.count { return false }
                return nil
            }
            if let ended { return ended }
            await waitForChunkOrEnd()
        }
    }

    /// Parks the sender until a chunk is queued or the stream has ended (at once when one is already there).
    private func waitForChunkOrEnd() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.head < state.chunks.count || state.end != nil { return true }
                state.sender = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }
}

/// Why a report's stream ended early.
enum ReportPipeEnd: Error {
    /// The pipe was cancelled.
    case cancelled
    /// The maker failed; the error as the service answers it.
    case failed(APIError)
}
