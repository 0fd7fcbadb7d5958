import Foundation
import Testing
@testable import PlanMarkServer

/// `ReportPipe`: what the report's maker writes comes out in order and whole, in chunks of the pipe's size; the maker
/// cannot get more than `capacity` bytes ahead of the sender, and a cancel releases a maker that waits.
@Suite struct ReportPipeTests {
    /// 3 MiB + 5 bytes written in pieces of 1 to 100,000 bytes from a thread while the sender reads: the same bytes
    /// come out, every chunk but the last of `chunkSize`, then a successful end.
    @Test func bytesComeOutWholeAndInOrder() async throws {
        let pipe = ReportPipe(chunkSize: 64 << 10, capacity: 256 << 10)
        let total = 3 << 20 + 5
        let bytes = (0..<total).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) }
        let maker = Task.detached {
            var offset = 0, size = 1
            while offset < total {
                let count = min(size, total - offset)
                let accepted = bytes[offset..<(offset + count)].withUnsafeBytes { pipe.write($0) }
                if !accepted { return false }
                offset += count
                size = size * 7 % 100_000 + 1
            }
            pipe.finish(.success(()))
            return true
        }
        var received: [UInt8] = []
        var sizes: [Int] = []
        reading: while true {
            switch await pipe.next() {
            case .chunk(let chunk):
                received += chunk
                sizes.append(chunk.count)
            case .end(.success): break reading
            case .end(.failure(let end)): Issue.record("ended with \(end)"); break reading
            }
        }
        #expect(await maker.value)
        #expect(received == bytes)
        #expect(sizes.dropLast().allSatisfy { $0 == 64 << 10 } && sizes.last == total % (64 << 10))
    }

    /// Nothing reads: a maker writing 4 MiB through a 1 MiB pipe cannot finish, so whenever the cancel comes (before it
    /// waits or while it waits) its write answers false; the sender then sees the cancelled end.
    @Test func cancelReleasesAWaitingMaker() async throws {
        let pipe = ReportPipe(chunkSize: 256 << 10, capacity: 1 << 20)
        let maker = Task.detached {
            [UInt8](repeating: 7, count: 4 << 20).withUnsafeBytes { pipe.write($0) }
        }
        pipe.cancel()
        #expect(await maker.value == false)
        #expect(pipe.isCancelled)
        guard case .end(.failure(.cancelled)) = await pipe.next() else {
            Issue.record("the sender did not see the cancel")
            return
        }
    }

    /// A stream that ends within its first chunk is there whole when `waitForStart` returns true.
    @Test func shortStreamEndsBeforeItStarts() async throws {
        let pipe = ReportPipe(chunkSize: 1000, capacity: 4000)
        Task.detached {
            _ = Array("%PDF-1.5 short".utf8).withUnsafeBytes { pipe.write($0) }
            pipe.finish(.success(()))
        }
        #expect(await pipe.waitForStart())
        guard case .chunk(let bytes) = await pipe.next() else { Issue.record("no chunk"); return }
        #expect(bytes == Array("%PDF-1.5 short".utf8))
        guard case .end(.success) = await pipe.next() else { Issue.record("no end"); return }
    }
}
