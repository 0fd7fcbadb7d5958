#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open input file (or stdin for `-`, or bytes already in memory), read in blocks. Owns the file
/// handle.
///
/// Memory: `readAll` sizes its buffer from `fstat` for a regular file (one allocation of the file's
/// size plus one byte) and grows it geometrically (doubling) for a pipe, so reading n bytes copies
/// O(n) bytes in all and the buffer's capacity stays under twice what was read. A limit is checked
/// before reading (regular files) or as soon as it is passed (pipes): at most `limit + 1` bytes are
/// ever held.
public final class InputFile {
    /// The name as the user gave it.
    public let source: String
    private let handle: UnsafeMutablePointer<FILE>?
    private let ownsHandle: Bool
    /// In-memory input (`init(bytes:source:)`) and how much of it was handed out.
    private let memory: [UInt8]
    private var memoryOffset = 0

    /// How many times a buffer had to be enlarged (and copied) while reading; for tests of growth.
    private(set) var growths = 0
    /// Bytes handed out so far.
    public private(set) var bytesRead = 0

    /// Opens `path`, or stdin when `path` is `-`.
    public init(path: String) throws(FormatError) {
        source = path
        memory = []
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

    /// Reads from an open descriptor, which stays open (it is duplicated); `source` names it in errors.
    init(fileDescriptor: Int32, source: String) throws(FormatError) {
        self.source = source
        memory = []
        guard let file = fdopen(dup(fileDescriptor), "rb") else {
            throw FormatError(.unreadable, source: source, message: String(cString: strerror(errno)))
        }
        handle = file
        ownsHandle = true
    }

    /// Reads `bytes` as if they were a file named `source` (request bodies, fuzzing, tests).
    public init(bytes: [UInt8], source: String) {
        self.source = source
        memory = bytes
        handle = nil
        ownsHandle = false
    }

    deinit {
        if ownsHandle, let handle { fclose(handle) }
    }

    /// Appends up to `maxCount` bytes to `buffer`; returns how many were read (0 at the end).
    /// `buffer` grows geometrically when its capacity is short, so repeated calls copy O(total) bytes.
    /// - Complexity: O(maxCount), amortised over the buffer's growth.
    public func read(into buffer: inout [UInt8], maxCount: Int) throws(FormatError) -> Int {
        guard maxCount > 0 else { return 0 }
        let oldCount = buffer.count
        guard let handle else {
            let count = min(maxCount, memory.count - memoryOffset)
            if count > 0 {
                reserve(&buffer, oldCount + count)
                buffer.append(contentsOf: memory[memoryOffset..<(memoryOffset + count)])
                memoryOffset += count
                bytesRead += count
            }
            return count
        }
        reserve(&buffer, oldCount + maxCount)
        var readCount = 0
        buffer.append(contentsOf: repeatElement(0, count: maxCount))
        buffer.withUnsafeMutableBytes { raw in
            readCount = fread(raw.baseAddress! + oldCount, 1, maxCount, handle)
        }
        buffer.removeLast(maxCount - readCount)
        bytesRead += readCount
        if readCount < maxCount && ferror(handle) != 0 {
            let code = errno
            throw FormatError(.unreadable, source: source, message: String(cString: strerror(code)))
        }
        return readCount
    }

    /// Makes room for `needed` bytes, at least doubling the capacity when it has to grow.
    private func reserve(_ buffer: inout [UInt8], _ needed: Int) {
        guard needed > buffer.capacity else { return }
        if buffer.capacity > 0 { growths += 1 }
        buffer.reserveCapacity(max(needed, buffer.capacity * 2))
    }

    /// The bytes left to read when that is known in advance (a regular file or memory), else nil.
    private func remainingSize() -> Int? {
        guard let handle else { return memory.count - memoryOffset }
        var status = stat()
        guard fstat(fileno(handle), &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        let position = ftello(handle)
        guard position >= 0 else { return nil }
        return max(0, Int(status.st_size) - Int(position))
    }

    /// Reads the rest of the file, refusing more than `limit` bytes.
    ///
    /// A regular file over the limit is refused from its size before anything is read; a pipe is
    /// refused as soon as it passes the limit (at most `limit + 1` bytes are read).
    /// - Complexity: O(n) for n bytes; memory n plus a constant for a regular file, under 2n for a pipe.
    public func readAll(limit: Int = 1 << 31) throws(FormatError) -> [UInt8] {
        func tooLarge() -> FormatError { FormatError(.malformed, source: source, message: "larger than \(limit) bytes") }
        let most = limit < Int.max ? limit + 1 : limit  // reading one byte past the limit proves it is passed
        var bytes: [UInt8] = []
        if let size = remainingSize() {
            if size > limit { throw tooLarge() }
            // One byte more than the size, so reaching the end needs no second allocation (a file that
            // grows meanwhile is still read, with geometric growth).
            bytes.reserveCapacity(size + 1)
        } else {
            bytes.reserveCapacity(min(most, 1 << 16))
        }
        while true {
            if bytes.count == bytes.capacity { reserve(&bytes, bytes.count + 1) }
            let room = min(bytes.capacity - bytes.count, most - bytes.count)
            if try read(into: &bytes, maxCount: room) == 0 { break }
            if bytes.count > limit { throw tooLarge() }
        }
        return bytes
    }

    /// Reads a whole file (or stdin) at once.
    public static func readAll(path: String) throws(FormatError) -> [UInt8] {
        try InputFile(path: path).readAll()
    }
}
