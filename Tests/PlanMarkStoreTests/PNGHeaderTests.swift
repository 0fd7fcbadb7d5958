import Testing
@testable import PlanMarkStore

/// The PNG header reader: size from IHDR, refusals with a reason.
@Suite struct PNGHeaderTests {
    @Test func readsWidthAndHeight() async throws {
        // 0x00012345 = 74565 wide, 0x0000BEEF = 48879 high: checks byte order on both fields.
        let header = try PNGHeader(bytes: StoreFixtures.pngHeader(width: 0x12345, height: 0xBEEF), path: "p.png")
        #expect(header.width == 74565 && header.height == 48879)
    }

    /// A real PNG written by Python's zlib/struct (Benchmarks/store/generate.py's writer): 1 x 1.
    @Test func readsARealFile() async throws {
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
                              0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0, 0x90, 0x77, 0x53, 0xDE]
        let header = try PNGHeader(bytes: bytes, path: "one.png")
        #expect(header.width == 1 && header.height == 1)
    }

    @Test(arguments: [
        ([UInt8](), "the file does not start with the PNG signature"),
        (Array("GIF89a..................".utf8), "the file does not start with the PNG signature"),
        (Array(StoreFixtures.pngHeader(width: 4, height: 4).prefix(20)), "the file ends inside the PNG header"),
        (StoreFixtures.pngHeader(width: 4, height: 4, chunkType: "IDAT"), "the first chunk is not a 13-byte IHDR"),
        (StoreFixtures.pngHeader(width: 4, height: 4, length: 12), "the first chunk is not a 13-byte IHDR"),
        (StoreFixtures.pngHeader(width: 0, height: 4), "IHDR gives an invalid size 0x4"),
        (StoreFixtures.pngHeader(width: 0x8000_0000, height: 4), "IHDR gives an invalid size 2147483648x4"),
    ])
    func refuses(bytes: [UInt8], detail: String) {
        #expect(throws: StoreError.notPNG(path: "x.png", detail: detail)) { try PNGHeader(bytes: bytes, path: "x.png") }
    }
}
