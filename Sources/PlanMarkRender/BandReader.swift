import Dispatch
import Foundation

/// Decodes a PNG's rows 32 at a time into a ring of three buffers, ahead of the caller, which averages
/// the rows before: inflating and averaging run on different cores. A thread of its own decodes, and so
/// does the caller whenever it would otherwise wait for the next band, so that decoding (the one serial
/// part) goes on whichever of the two the scheduler runs.
final class BandReader: @unchecked Sendable {
    private static let rowsPerBand = 32
    private static let ringSize = 3
    private let session: PNGReadSession
    private let width: Int
    private let height: Int
    private let bands: Int
    private let buffers: [UnsafeMutablePointer<UInt8>]
    private let condition = NSCondition()
    private let done = DispatchGroup()
    // Under `condition`:
    private var decoded = 0
    private var consumed = 0
    private var decoding = false
    private var failure: (any Error)?
    private var cancelled = false

    init(session: PNGReadSession, width: Int, height: Int) {
        self.session = session
        self.width = width
        self.height = height
        bands = (height + BandReader.rowsPerBand - 1) / BandReader.rowsPerBand
        buffers = (0..<BandReader.ringSize).map { _ in .allocate(capacity: BandReader.rowsPerBand * width * 4) }
    }

    deinit { for buffer in buffers { buffer.deallocate() } }

    /// With `condition` locked: decodes the next band if one is due and nobody is decoding; false otherwise.
    private func decodeNext() -> Bool {
        guard !decoding, !cancelled, failure == nil, decoded < bands, decoded - consumed < Self.ringSize else { return false }
        decoding = true
        let band = decoded
        condition.unlock()
        let count = min(Self.rowsPerBand, height - band * Self.rowsPerBand)
        var error: (any Error)?
        do {
            try session.readRows(into: buffers[band % Self.ringSize], count: count)
        } catch let caught {
            error = caught
        }
        condition.lock()
        decoding = false
        if let error { failure = error } else { decoded += 1 }
        condition.broadcast()
        return true
    }

    /// Calls `body` with every band of rows in order, on the calling thread.
    /// - Complexity: O(width × height); memory three bands of 32 rows.
    func read(_ body: (UnsafePointer<UInt8>, Int) throws -> Void) throws {
        done.enter()
        Thread.detachNewThread { [self] in
            defer { done.leave() }
            condition.lock()
            while !cancelled && failure == nil && decoded < bands {
                if !decodeNext() { condition.wait() }
            }
            condition.unlock()
        }
        defer {
            condition.lock()
            cancelled = true
            condition.broadcast()
            condition.unlock()
            done.wait()
        }
        for band in 0..<bands {
            condition.lock()
            while decoded <= band && failure == nil {
                if !decodeNext() { condition.wait() }
            }
            let error = decoded <= band ? failure : nil
            condition.unlock()
            if let error { throw error }
            let count = min(Self.rowsPerBand, height - band * Self.rowsPerBand)
            try body(UnsafePointer(buffers[band % Self.ringSize]), count)
            condition.lock()
            consumed += 1
            condition.broadcast()
            condition.unlock()
        }
    }
}
