import Dispatch
import Foundation
import Testing
@testable import PlanMarkFormats
import PlanMarkGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pipe with `bytes` written into it by another thread; `drainAndWait` reads what the reader left
/// (so the writer never blocks or gets SIGPIPE) and waits for the writer. No sleeps.
final class FeedingPipe: @unchecked Sendable {
    let readEnd: Int32
    private let writeEnd: Int32
    private let done = DispatchSemaphore(value: 0)

    init(_ bytes: [UInt8]) {
        var ends: [Int32] = [0, 0]
        precondition(pipe(&ends) == 0, "pipe")
        readEnd = ends[0]
        writeEnd = ends[1]
        let writeEnd = writeEnd, done = done
        DispatchQueue.global().async {
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let n = write(writeEnd, raw.baseAddress! + offset, raw.count - offset)
                    if n <= 0 { break }
                    offset += n
                }
            }
            close(writeEnd)
            done.signal()
        }
    }

    func drainAndWait() {
        var scratch = [UInt8](repeating: 0, count: 1 << 16)
        while scratch.withUnsafeMutableBytes({ read(readEnd, $0.baseAddress!, $0.count) }) > 0 {}
        done.wait()
        close(readEnd)
    }
}

/// Reading whole files and streams: linear, with memory about the input's size, limits checked early.
/// Growth is checked structurally (capacity, number of reallocations), never by timing.
@Suite struct InputFileTests {
    static let size = 3 << 20 | 7  // 3 MiB and a bit: not a power of two

    static func content(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ ($0 >> 11)) }
    }

    /// A regular file is sized from fstat: one allocation of its size (+1), never grown.
    @Test func regularFileReadInOneAllocation() async throws {
        let bytes = Self.content(Self.size)
        let path = try temporaryFile("big.bin", "")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let input = try InputFile(path: path)
        let got = try input.readAll()
        #expect(got == bytes)
        #expect(input.growths == 0)
        #expect(got.capacity <= Self.size + 1 + 8192, "capacity \(got.capacity) for \(Self.size) bytes")
    }

    /// A pipe has no size: the buffer doubles, so n bytes take about log2(n / 64 KiB) reallocations
    /// and the capacity stays under twice the size (1 MiB steps would have taken 3 copies of up to n).
    @Test func pipeGrowsGeometrically() async throws {
        let bytes = Self.content(Self.size)
        let pipe = FeedingPipe(bytes)
        let input = try InputFile(fileDescriptor: pipe.readEnd, source: "pipe")
        let got = try input.readAll()
        pipe.drainAndWait()
        #expect(got == bytes)
        // 64 KiB doubled 6 times is 4 MiB, the first capacity over 3 MiB + 7.
        #expect(input.growths == 6)
        #expect(got.capacity < 2 * got.count)
    }

    /// Over the limit: a regular file is refused from its size before a byte is read.
    @Test func regularFileOverLimitRefusedUnread() async throws {
        let path = try temporaryFile("big.json", String(repeating: " ", count: 2 << 20))
        let input = try InputFile(path: path)
        #expect(throws: FormatError(.malformed, source: path, message: "larger than 1048576 bytes")) {
            try input.readAll(limit: 1 << 20)
        }
        #expect(input.bytesRead == 0)
        #expect(try InputFile(path: path).readAll(limit: 2 << 20).count == 2 << 20)
    }

    /// Over the limit: a pipe is refused as soon as it passes it, holding at most the limit plus one byte.
    @Test func pipeOverLimitRefusedEarly() async throws {
        let pipe = FeedingPipe(Self.content(Self.size))
        let input = try InputFile(fileDescriptor: pipe.readEnd, source: "-")
        #expect(throws: FormatError(.malformed, source: "-", message: "larger than 1000000 bytes")) {
            try input.readAll(limit: 1_000_000)
        }
        #expect(input.bytesRead == 1_000_001)
        pipe.drainAndWait()
    }

    /// Exactly at the limit is fine, for a pipe and for memory.
    @Test func exactlyAtTheLimit() async throws {
        let bytes = Self.content(100_000)
        let pipe = FeedingPipe(bytes)
        let got = try InputFile(fileDescriptor: pipe.readEnd, source: "-").readAll(limit: 100_000)
        pipe.drainAndWait()
        #expect(got == bytes)
        #expect(try InputFile(bytes: bytes, source: "m").readAll(limit: 100_000) == bytes)
        #expect(throws: FormatError.self) { try InputFile(bytes: bytes, source: "m").readAll(limit: 99_999) }
    }

    /// `read(into:)` grows the caller's buffer geometrically too: a 1 MiB line read in 4 KiB blocks by
    /// the CSV reader takes a handful of reallocations, not one per block.
    @Test func csvLongLineGrowsGeometrically() async throws {
        let note = String(repeating: "n", count: 1 << 20)
        let input = InputFile(bytes: Array("id,x,y,note\nA,1,2,\(note)\nB,3,4,short\n".utf8), source: "m.csv")
        var reader = try MarkerFileReader(input: input, format: .csv, conversion: nil, blockSize: 4096)
        let rows = try reader.readAll()
        #expect(rows.map(\.id) == ["A", "B"] && rows.first?.note?.count == 1 << 20)
        #expect(input.growths <= 10, "\(input.growths) reallocations")
    }

    /// Many blank lines before the header are passed over with an offset, in blocks: the buffer stays
    /// about a block (few reallocations) and the line numbers are right.
    @Test func blankLinesBeforeTheHeader() async throws {
        let blank = 200_000
        let input = InputFile(bytes: Array((String(repeating: " \n", count: blank) + "id,x,y\nA,1,2\n").utf8), source: "m.csv")
        var reader = try MarkerFileReader(input: input, format: .csv, conversion: nil, blockSize: 4096)
        #expect(try reader.readAll() == [MarkerRow(id: "A", line: blank + 2, position: PixelPoint(x: 1, y: 2), ref: "A")])
        #expect(input.growths <= 2, "\(input.growths) reallocations")
    }

    /// An in-memory input hands out its bytes in pieces like a file.
    @Test func memoryInput() async throws {
        let input = InputFile(bytes: Array("abcdef".utf8), source: "m")
        var buffer: [UInt8] = []
        #expect(try input.read(into: &buffer, maxCount: 4) == 4)
        #expect(try input.read(into: &buffer, maxCount: 4) == 2)
        #expect(try input.read(into: &buffer, maxCount: 4) == 0)
        #expect(buffer == Array("abcdef".utf8) && input.bytesRead == 6)
    }

    /// 8 MiB of whitespace before a regions file: read in one allocation and parsed.
    @Test func whitespaceBeforeJSON() async throws {
        let path = try temporaryFile("regions.geojson", String(repeating: " ", count: 8 << 20) + #"{"type":"FeatureCollection","features":[]}"#)
        let input = try InputFile(path: path)
        let bytes = try input.readAll()
        #expect(input.growths == 0)
        #expect(try RegionsFile.parse(bytes, source: path).isEmpty)
    }
}
