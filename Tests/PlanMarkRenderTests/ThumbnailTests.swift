import PlanMarkRender
import Testing

/// `PNGDecoder.thumbnail`: a PNG decoded by rows into a box-averaged picture that fits a box, flattened onto white.
@Suite struct ThumbnailTests {
    static func image(width: Int, height: Int, pixel: (Int, Int) -> [UInt8]) -> RGBAImage {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height { for x in 0..<width { pixels += pixel(x, y) } }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    func thumbnail(_ image: RGBAImage, _ maxWidth: Int, _ maxHeight: Int) throws -> RGBAImage {
        try PNGDecoder().thumbnail(data: try PNGEncoder().encode(image), source: "test", maxWidth: maxWidth, maxHeight: maxHeight)
    }

    /// 100 x 60, left half red, right half blue, into 10 x 10: 10 x 6 (the aspect kept), each output pixel the mean of
    /// a 10 x 10 block, so the left 5 columns are red and the right 5 blue exactly.
    @Test func halvesStayApart() async throws {
        let picture = try thumbnail(Self.image(width: 100, height: 60) { x, _ in x < 50 ? [255, 0, 0, 255] : [0, 0, 255, 255] }, 10, 10)
        #expect(picture.width == 10 && picture.height == 6)
        for y in 0..<6 {
            for x in 0..<10 {
                let i = (y * 10 + x) * 4
                #expect(Array(picture.pixels[i..<(i + 4)]) == (x < 5 ? [255, 0, 0, 255] : [0, 0, 255, 255]), "\(x),\(y)")
            }
        }
    }

    /// Averages: a 4 x 4 of alternating black and white columns into 2 x 2 is mid grey (127.5 rounds to 128); a
    /// transparent black image comes out white (the paper), a half-transparent black one mid grey.
    @Test func meansAreFlattenedOntoWhite() async throws {
        let stripes = try thumbnail(Self.image(width: 4, height: 4) { x, _ in x % 2 == 0 ? [0, 0, 0, 255] : [255, 255, 255, 255] }, 2, 2)
        #expect(stripes.width == 2 && stripes.pixels == [UInt8](repeating: 0, count: 16).enumerated().map { $0.offset % 4 == 3 ? 255 : 128 })
        let clear = try thumbnail(Self.image(width: 8, height: 8) { _, _ in [0, 0, 0, 0] }, 4, 4)
        #expect(clear.pixels.allSatisfy { $0 == 255 })
        let half = try thumbnail(Self.image(width: 8, height: 8) { _, _ in [0, 0, 0, 128] }, 4, 4)
        // 255 × (255 − 128) / 255 = 127.
        #expect(half.pixels.enumerated().allSatisfy { $0.offset % 4 == 3 ? $0.element == 255 : $0.element == 127 })
    }

    /// A picture smaller than the box is not enlarged: it comes back pixel for pixel (opaque).
    @Test func smallPicturesAreKept() async throws {
        let source = Self.image(width: 7, height: 3) { x, y in [UInt8(x * 30), UInt8(y * 80), 9, 255] }
        let picture = try thumbnail(source, 100, 100)
        #expect(picture.width == 7 && picture.height == 3 && picture.pixels == source.pixels)
    }

    /// The decoder's limits are checked from the header: a side over `maxSide` is refused before any row is read.
    @Test func limitsComeFirst() async throws {
        let bytes = try PNGEncoder().encode(Self.image(width: 50, height: 2) { _, _ in [1, 2, 3, 255] })
        #expect(throws: RenderError.self) {
            try PNGDecoder(maxSide: 40).thumbnail(data: bytes, source: "wide", maxWidth: 10, maxHeight: 10)
        }
    }
}
