#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The size of a PNG image, read from its header (signature + IHDR chunk), never trusted from the user.
public struct PNGHeader: Hashable, Sendable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// The longest side a PNG may have (2^31 - 1, as the PNG specification allows); a PDF page's size is held to it too.
    public static let maxSide = 0x7FFF_FFFF

    /// The eight bytes every PNG file starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Parses the first 24 bytes of a PNG file: signature, IHDR length (13), `IHDR`, width, height
    /// (big-endian, 1...2^31-1 as the PNG specification requires).
    public init(bytes: [UInt8], path: String) throws(StoreError) {
        guard bytes.count >= 8, Array(bytes[0..<8]) == Self.signature else {
            throw .notPNG(path: path, detail: "the file does not start with the PNG signature")
        }
        guard bytes.count >= 24 else { throw .notPNG(path: path, detail: "the file ends inside the PNG header") }
        func word(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
        }
        guard word(8) == 13, Array(bytes[12..<16]) == Array("IHDR".utf8) else {
            throw .notPNG(path: path, detail: "the first chunk is not a 13-byte IHDR")
        }
        let width = word(16), height = word(20)
        guard width > 0, height > 0, width <= Self.maxSide, height <= Self.maxSide else {
            throw .notPNG(path: path, detail: "IHDR gives an invalid size \(width)x\(height)")
        }
        self.width = Int(width)
        self.height = Int(height)
    }

    /// Reads the header of the PNG file at `path`.
    public init(path: String) throws(StoreError) {
        guard let file = fopen(path, "rb") else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .missingImage(path: path) }
            throw .io("\(path): \(String(cString: strerror(code)))")
        }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: 24)
        let count = bytes.withUnsafeMutableBytes { fread($0.baseAddress!, 1, 24, file) }
        if count < 24 && ferror(file) != 0 { throw .io("\(path): \(String(cString: strerror(errno)))") }
        try self.init(bytes: Array(bytes[0..<count]), path: path)
    }
}
