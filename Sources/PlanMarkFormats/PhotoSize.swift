/// The pixel size a JPEG or PNG photo declares in its header, read without decoding the photo, and the
/// limits photos are held to: checked from the header when a photo is attached (both stores refuse what is
/// over them), and again when a report shows a photo (a store written before the limits may hold larger ones).
public struct PhotoSize: Hashable, Sendable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// The most pixels a photo may have: 100 megapixels (a 108-megapixel phone sensor's 12000 x 9000 is over; its
    /// usual binned 12-megapixel photos are far under).
    public static let maxPixels = 100_000_000
    /// The longest side a photo may have, in pixels.
    public static let maxSide = 20_000

    /// Creates a size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `4000 x 3000`.
    public var description: String { "\(width) x \(height)" }

    /// width × height.
    public var pixels: Int { width * height }

    /// Within `maxPixels` and `maxSide`.
    public var isWithinLimits: Bool { width <= Self.maxSide && height <= Self.maxSide && pixels <= Self.maxPixels }

    /// The limits in words: `at most 100000000 pixels and 20000 a side`.
    public static var limitsText: String { "at most \(maxPixels) pixels and \(maxSide) a side" }

    /// The size `bytes` declare for a photo of `type`: a JPEG's first start-of-frame header, a PNG's IHDR; nil
    /// for a PDF, or when the header cannot be read (such files are stored, and a report lists them as unreadable).
    /// - Complexity: O(segments before a JPEG's frame header); O(1) for a PNG.
    public init?(of bytes: [UInt8], type: AttachmentType) {
        switch type {
        case .jpeg:
            guard let size = Self.jpeg(bytes) else { return nil }
            self = size
        case .png:
            guard let size = Self.png(bytes) else { return nil }
            self = size
        case .pdf:
            return nil
        }
    }

    /// A PNG's IHDR: the signature, a 13-byte `IHDR` chunk first, width and height big-endian, both non-zero.
    /// - Complexity: O(1).
    static func png(_ bytes: [UInt8]) -> PhotoSize? {
        guard bytes.count >= 24, bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
              bytes[12..<16].elementsEqual("IHDR".utf8) else { return nil }
        func word(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        let width = word(16), height = word(20)
        guard width > 0, height > 0 else { return nil }
        return PhotoSize(width: width, height: height)
    }

    /// A JPEG's first start-of-frame segment (SOF0...SOF15 but DHT, JPG and DAC), found by walking the segments.
    /// - Complexity: O(number of segments before the frame header).
    static func jpeg(_ bytes: [UInt8]) -> PhotoSize? {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var i = 2
        while i + 4 <= bytes.count {
            guard bytes[i] == 0xFF else { return nil }
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill byte
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC {
                guard i + 9 < bytes.count else { return nil }
                let height = Int(bytes[i + 5]) << 8 | Int(bytes[i + 6])
                let width = Int(bytes[i + 7]) << 8 | Int(bytes[i + 8])
                guard width > 0, height > 0 else { return nil }
                return PhotoSize(width: width, height: height)
            }
            if marker == 0xDA || marker == 0xD9 { return nil }
            i += 2 + length
        }
        return nil
    }
}
