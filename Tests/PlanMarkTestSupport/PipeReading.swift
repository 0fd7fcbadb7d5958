import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading a child process's pipes with read(2) instead of `availableData` / `readDataToEndOfFile()`.
///
/// swift-corelibs-foundation's `FileHandle` traps the whole test process when a read fails (for example with
/// EBADF, seen once in a full run while many processes were being launched at once; swiftlang/swift#57827). A
/// test helper must end its output instead, so the test that owns it fails with what it has, not every test.
extension FileHandle {
    /// What has arrived, waiting for at least one byte; empty at end of file or on any error. EINTR is retried.
    /// - Complexity: O(n) for the n bytes returned (at most 64 KiB).
    public func readAvailableBytes() -> Data {
        let descriptor = fileDescriptor
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress!, $0.count) }
            if count > 0 { return Data(buffer[0..<count]) }
            if count < 0 && errno == EINTR { continue }
            return Data()
        }
    }

    /// Everything until end of file (or until the first error other than EINTR).
    /// - Complexity: O(n) for the n bytes read.
    public func readBytesToEnd() -> Data {
        var data = Data()
        while true {
            let chunk = readAvailableBytes()
            if chunk.isEmpty { return data }
            data.append(chunk)
        }
    }
}

/// read(2), named apart from `FileHandle.read`.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
