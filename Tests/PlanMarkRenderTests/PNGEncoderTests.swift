import Foundation
import PlanMarkRender
import Testing

/// The encoder: round trips, chunks, determinism, atomic writes.
@Suite struct PNGEncoderTests {
    let encoder = PNGEncoder()
    let decoder = PNGDecoder()

    /// A small image with every byte value in use, a translucent band and pHYs at 300 dpi (11811 px/m).
    static func sample(opaque: Bool, physicalScale: PhysicalScale? = nil) -> RGBAImage {
        let width = 37, height = 23
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let index = (y * width + x) * 4
                pixels[index] = UInt8((x * 7 + y * 3) & 0xFF)
                pixels[index + 1] = UInt8((x * y) & 0xFF)
                pixels[index + 2] = UInt8((255 - x * 5) & 0xFF)
                pixels[index + 3] = opaque ? 255 : UInt8((x * 11 + y * 13) & 0xFF)
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels, physicalScale: physicalScale)
    }

    @Test(arguments: [true, false])
    func roundTrips(opaque: Bool) async throws {
        let image = Self.sample(opaque: opaque)
        let bytes = try encoder.encode(image)
        let decoded = try decoder.decode(data: bytes, source: "memory")
        #expect(decoded.width == image.width && decoded.height == image.height)
        #expect(decoded.pixels == image.pixels)
        let header = try decoder.readHeader(data: bytes, source: "memory")
        #expect(header.bitDepth == 8 && !header.isInterlaced)
        #expect(header.colourType == (opaque ? .rgb : .rgba))
    }

    /// IHDR colour type byte (offset 9 of its data) read directly: 2 when opaque, 6 with alpha.
    @Test func choosesRGBWhenOpaque() async throws {
        let opaque = try #require(pngChunks(try encoder.encode(Self.sample(opaque: true))))
        let translucent = try #require(pngChunks(try encoder.encode(Self.sample(opaque: false))))
        #expect(opaque.first?.type == "IHDR" && opaque.first?.data[9] == 2)
        #expect(translucent.first?.type == "IHDR" && translucent.first?.data[9] == 6)
        #expect(opaque.first?.data[8] == 8)
    }

    /// sRGB chunk present before IDAT, no tIME/text chunks, IEND last.
    @Test func writesSRGBAndNoVolatileChunks() async throws {
        let chunks = try #require(pngChunks(try encoder.encode(Self.sample(opaque: false))))
        let types = chunks.map(\.type)
        let srgb = try #require(types.firstIndex(of: "sRGB"))
        let idat = try #require(types.firstIndex(of: "IDAT"))
        #expect(srgb < idat)
        #expect(chunks[srgb].data == [0])  // rendering intent 0, perceptual
        #expect(types.last == "IEND")
        #expect(!types.contains { ["tIME", "tEXt", "zTXt", "iTXt"].contains($0) })
    }

    /// pHYs kept, byte for byte: 11811 = 0x2E23 pixels per metre, unit 1.
    @Test func keepsPhysicalScale() async throws {
        let scale = PhysicalScale(pixelsPerUnitX: 11811, pixelsPerUnitY: 11811, unitIsMetre: true)
        let bytes = try encoder.encode(Self.sample(opaque: true, physicalScale: scale))
        let chunks = try #require(pngChunks(bytes))
        let phys = try #require(chunks.first { $0.type == "pHYs" })
        #expect(phys.data == [0, 0, 0x2E, 0x23, 0, 0, 0x2E, 0x23, 1])
        #expect(try decoder.decode(data: bytes, source: "memory").physicalScale == scale)
        // Without a scale there is no pHYs chunk.
        let plain = try #require(pngChunks(try encoder.encode(Self.sample(opaque: true))))
        #expect(!plain.contains { $0.type == "pHYs" })
    }

    /// A PngSuite pHYs survives decode then encode.
    @Test func keepsSourcePhysicalScale() async throws {
        let source = try decoder.decode(path: PNGFixtures.pngSuite.appendingPathComponent("cdun2c08.png").path)
        let again = try decoder.decode(data: try encoder.encode(source), source: "memory")
        #expect(again.physicalScale == PhysicalScale(pixelsPerUnitX: 1000, pixelsPerUnitY: 1000, unitIsMetre: true))
        #expect(again.pixels == source.pixels)
    }

    /// Same image, same bytes: twice in memory, and the file equals the memory encoding.
    @Test func isDeterministic() async throws {
        let image = Self.sample(opaque: false, physicalScale: PhysicalScale(pixelsPerUnitX: 2, pixelsPerUnitY: 3, unitIsMetre: false))
        let first = try encoder.encode(image)
        let second = try PNGEncoder().encode(image)
        #expect(first == second)
        let folder = try PNGFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("out.png").path
        try encoder.write(image, to: path)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == first)
    }

    /// Writing into a folder that does not exist: cannot-create error, nothing written.
    @Test func failsToCreateInMissingFolder() async throws {
        let folder = try PNGFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("missing/out.png").path
        #expect { try encoder.write(Self.sample(opaque: true), to: path) } throws: { error in
            guard case .cannotCreateOutput(let failedPath, _) = error as? RenderError else { return false }
            return failedPath == path && (error as! RenderError).description.hasPrefix(path + ": cannot create output: ")
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// A directory at the output path: refused, and the temporary file is cleaned away.
    @Test func failsOnDirectoryAndLeavesNoTemporaryFile() async throws {
        let folder = try PNGFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("out.png")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        #expect { try encoder.write(Self.sample(opaque: true), to: target.path) } throws: { error in
            guard case .cannotCreateOutput = error as? RenderError else { return false }
            return true
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.png"])
    }

    /// Overwriting replaces the old file whole, with no temporary left beside it.
    @Test func replacesExistingFile() async throws {
        let folder = try PNGFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("out.png").path
        try Data("old contents".utf8).write(to: URL(fileURLWithPath: path))
        let image = Self.sample(opaque: false)
        try encoder.write(image, to: path)
        #expect(try decoder.decode(path: path).pixels == image.pixels)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.png"])
    }

    @Test func refusesEmptyImageAndBadLevel() async {
        let empty = RGBAImage(width: 0, height: 0, pixels: [])
        #expect { try encoder.encode(empty) } throws: { error in
            guard case .cannotEncode = error as? RenderError else { return false }
            return true
        }
        #expect(throws: RenderError.self) { try PNGEncoder(compressionLevel: 10).encode(Self.sample(opaque: true)) }
    }

    /// Other filter and level settings still produce valid, equal-pixel PNGs.
    @Test(arguments: [(0, PNGEncoder.RowFilters.up), (9, .all), (1, .paeth)])
    func otherSettingsRoundTrip(level: Int, filters: PNGEncoder.RowFilters) async throws {
        let image = Self.sample(opaque: false)
        let bytes = try PNGEncoder(compressionLevel: level, filters: filters).encode(image)
        #expect(try decoder.decode(data: bytes, source: "memory").pixels == image.pixels)
    }
}

/// The unfiltered writer deflates row segments of about 4 megapixels on every core and joins them into
/// one zlib stream: images large enough for several segments must decode through libpng to the same pixels.
@Suite struct PNGEncoderSegmentTests {
    /// 2100 x 2000 = 4,200,000 pixels: two segments (a segment is 4,194,304 pixels); 2500 x 3400 = 8,500,000: three.
    /// Content changes every row and column (so a seam in the wrong place would show) and has long runs.
    static func large(width: Int, height: Int, opaque: Bool) -> RGBAImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let index = (y * width + x) * 4
                let inBox = (x / 97 + y / 89) % 3 == 0
                pixels[index] = inBox ? UInt8((x &* 31 &+ y) & 0xFF) : 255
                pixels[index + 1] = UInt8((y &* 7) & 0xFF)
                pixels[index + 2] = UInt8((x ^ y) & 0xFF)
                if !opaque { pixels[index + 3] = UInt8((x + 3 * y) & 0xFF) }
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    @Test(arguments: [(2100, 2000, true), (2100, 2000, false), (2500, 3400, true)])
    func severalSegmentsRoundTripThroughLibpng(width: Int, height: Int, opaque: Bool) async throws {
        let image = Self.large(width: width, height: height, opaque: opaque)
        let bytes = try PNGEncoder().encode(image)
        let decoded = try PNGDecoder().decode(data: bytes, source: "memory")
        #expect(decoded.width == width && decoded.height == height)
        #expect(decoded.pixels == image.pixels)
        // One zlib stream: the IDAT chunks joined start with the header for level 3 (0x78 0x5E, as zlib writes
        // it for levels 2 to 5) and are one stream libpng read to its end (checked by the decode above).
        let chunks = try #require(pngChunks(bytes))
        let idat = chunks.filter { $0.type == "IDAT" }.flatMap(\.data)
        #expect(Array(idat.prefix(2)) == [0x78, 0x5E])
        #expect(chunks.map(\.type).first == "IHDR" && chunks.map(\.type).last == "IEND")
        #expect(chunks.first?.data[9] == (opaque ? 2 : 6))
    }

    /// Level 0 (stored blocks), 1 and 9 through the same writer still give libpng the same pixels, and the
    /// zlib header's level bits follow zlib's rule (0x7801 for levels 0 and 1, 0x78DA for 9).
    @Test(arguments: [(0, [UInt8]([0x78, 0x01])), (1, [0x78, 0x01]), (9, [0x78, 0xDA])])
    func otherLevelsUseTheSameWriter(level: Int, header: [UInt8]) async throws {
        let image = Self.large(width: 2100, height: 2000, opaque: true)
        let bytes = try PNGEncoder(compressionLevel: level).encode(image)
        #expect(try PNGDecoder().decode(data: bytes, source: "memory").pixels == image.pixels)
        let idat = try #require(pngChunks(bytes)).filter { $0.type == "IDAT" }.flatMap(\.data)
        #expect(Array(idat.prefix(2)) == header)
    }
}
