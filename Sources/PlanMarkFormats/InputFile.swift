#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open input file (or stdin for `-`), read in blocks. Owns the file handle.
public final class InputFile {
    /// The name as the user gave it.
    public let source: String
    private let handle: UnsafeMutablePointer<FILE>
    private let ownsHandle: Bool

    /// Opens `path`, or stdin when `path` is `-`.
    public init(path: String) throws(FormatError) {
        source = path
        if path == "-" {
            handle = fdopen(STDIN_FILENO, "rb")
            ownsHandle = false
            return
        }
        guard let file = fopen(path, "rb") else {
            let code = errno
            if code == ENOENT || code == ENOTDIR {
                throw FormatError(.missingInput, source: path, message: "no such file")
            }
            throw FormatError(.unreadable, source: path, message: String(cString: strerror(code)))
        }
        handle = file
        ownsHandle = true
    }

    deinit {
        if ownsHandle { fclose(handle) }
    }

    /// Appends up to `maxCount` bytes to `buffer`; returns how many were read (0 at the end).
    public func read(into buffer: inout [UInt8], maxCount: Int) throws(FormatError) -> Int {
        let oldCount = buffer.count
        buffer.reserveCapacity(oldCount + maxCount)
        var readCount = 0
        buffer.append(contentsOf: repeatElement(0, count: maxCount))
        buffer.withUnsafeMutableBytes { raw in
            readCount = fread(raw.baseAddress! + oldCount, 1, maxCount, handle)
        }
        buffer.removeLast(maxCount - readCount)
        if readCount < maxCount && ferror(handle) != 0 {
            let code = errno
            throw FormatError(.unreadable, source: source, message: String(cString: strerror(code)))
        }
        return readCount
    }

    /// Reads the rest of the file, refusing more than `limit` bytes.
    public func readAll(limit: Int = 1 << 31) throws(FormatError) -> [UInt8] {
        var bytes: [UInt8] = []
        while true {
            let count = try read(into: &bytes, maxCount: 1 << 20)
            if count == 0 { break }
            if bytes.count > limit {
                throw FormatError(.malformed, source: source, message: "larger than \(limit) bytes")
            }
        }
        return bytes
    }

    /// Reads a whole file (or stdin) at once.
    public static func readAll(path: String) throws(FormatError) -> [UInt8] {
        try InputFile(path: path).readAll()
    }
}
