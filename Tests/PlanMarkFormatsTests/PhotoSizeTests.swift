import PlanMarkFormats
import Testing

/// `PhotoSize`: the size a photo's header declares, and the limits (100,000,000 pixels, 20,000 a side).
@Suite struct PhotoSizeTests {
    static func png(width: UInt32, height: UInt32) -> [UInt8] {
        func word(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + word(13) + Array("IHDR".utf8) + word(width) + word(height) + [8, 6, 0, 0, 0]
    }

    /// SOI, then `segments` (each a marker and its payload, lengths written out), then a frame header of `marker`.
    static func jpeg(frame marker: UInt8, width: Int, height: Int, segments: [(UInt8, [UInt8])] = []) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        for (segment, payload) in segments {
            bytes += [0xFF, segment, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        return bytes + [0xFF, marker, 0x00, 0x0B, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 0x01,
                        0x01, 0x11, 0x00, 0xFF, 0xD9]
    }

    @Test func pngSizeIsReadFromIHDR() async {
        #expect(PhotoSize(of: Self.png(width: 14000, height: 14000), type: .png) == PhotoSize(width: 14000, height: 14000))
        #expect(PhotoSize(of: Self.png(width: 0x7FFF_FFFF, height: 1), type: .png)?.width == 0x7FFF_FFFF)
        #expect(PhotoSize(of: Self.png(width: 0, height: 5), type: .png) == nil)
        #expect(PhotoSize(of: Array(Self.png(width: 3, height: 5).prefix(23)), type: .png) == nil)
        #expect(PhotoSize(of: Self.png(width: 3, height: 5), type: .pdf) == nil)
    }

    /// The first frame header counts, after APPn, DQT and DHT segments (DHT's marker, C4, lies in the SOF range and is
    /// not a frame); progressive (C2) frames too; a stream that reaches its scan or end without one has no size.
    @Test func jpegSizeIsReadFromTheFrameHeader() async {
        let app0: (UInt8, [UInt8]) = (0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
        let dht: (UInt8, [UInt8]) = (0xC4, [UInt8](repeating: 0, count: 17))
        let dqt: (UInt8, [UInt8]) = (0xDB, [UInt8](repeating: 1, count: 65))
        #expect(PhotoSize(of: Self.jpeg(frame: 0xC0, width: 65535, height: 65535, segments: [app0, dqt, dht]), type: .jpeg)
                == PhotoSize(width: 65535, height: 65535))
        #expect(PhotoSize(of: Self.jpeg(frame: 0xC2, width: 4032, height: 3024, segments: [app0]), type: .jpeg) == PhotoSize(width: 4032, height: 3024))
        #expect(PhotoSize(of: [0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02, 0xFF, 0xD9], type: .jpeg) == nil)
        #expect(PhotoSize(of: Array(Self.jpeg(frame: 0xC0, width: 10, height: 10).prefix(8)), type: .jpeg) == nil)
        #expect(PhotoSize(of: Self.jpeg(frame: 0xC0, width: 0, height: 10), type: .jpeg) == nil)
    }

    @Test(arguments: [
        (20000, 5000, true), (5000, 20000, true), (10000, 10000, true),
        (20001, 1, false), (1, 20001, false), (10001, 10000, false), (14000, 14000, false), (30000, 30000, false), (65535, 65535, false),
    ])
    func limits(width: Int, height: Int, within: Bool) async {
        #expect(PhotoSize(width: width, height: height).isWithinLimits == within)
    }
}
