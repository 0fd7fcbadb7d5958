import Foundation
import PlanMarkRender
import Testing

/// PngSuite and libpng's test images through the decoder.
@Suite struct PNGSuiteTests {
    let decoder = PNGDecoder()

    @Test func fixturesArePresent() async {
        #expect(PNGFixtures.suite(mustFail: false).count == 162, "161 PngSuite images + PngSuite.png")
        #expect(PNGFixtures.suite(mustFail: true).count == 14)
        #expect(PNGFixtures.expectations.count >= 300)
    }

    /// Every non-x PngSuite image decodes, at the size PngSuite documents: sNN = NxN; cdf/cdh/cds
    /// 8x32, 32x8, 8x8 (pHYs demonstrations); all others 32x32.
    @Test(arguments: PNGFixtures.suite(mustFail: false))
    func decodesValidImage(path: String) async throws {
        let image = try decoder.decode(path: path)
        #expect(image.pixels.count == image.width * image.height * 4)
        let name = path.fileName
        if name == "PngSuite.png" { return }
        let documented = ["cdfn2c08.png": (8, 32), "cdhn2c08.png": (32, 8), "cdsn2c08.png": (8, 8)]
        if let (width, height) = documented[name] {
            #expect(image.width == width && image.height == height)
        } else if name.hasPrefix("s"), let side = Int(name.dropFirst().prefix(2)) {
            #expect(image.width == side && image.height == side)
        } else {
            #expect(image.width == 32 && image.height == 32)
        }
    }

    /// Every x* image is refused as bad data, with one line naming the file.
    @Test(arguments: PNGFixtures.suite(mustFail: true))
    func refusesCorruptImage(path: String) async {
        do {
            _ = try decoder.decode(path: path)
            Issue.record("\(path.fileName) decoded but must fail")
        } catch {
            switch error {
            case .notPNG, .corruptPNG, .imageSideTooLarge: break
            default: Issue.record("unexpected error kind: \(error)")
            }
            #expect(error.description.hasPrefix(path + ": "))
            #expect(!error.description.contains("\n"))
        }
    }

    /// The signature-damaged files are told apart from non-PNG files.
    @Test func classifiesSignatureDamage() async {
        let folder = PNGFixtures.pngSuite
        // xs1n0g01, xs2n0g01, xs4n0g01: first signature bytes wrong (libpng: "Not a PNG file").
        for name in ["xs1n0g01.png", "xs2n0g01.png", "xs4n0g01.png"] {
            let path = folder.appendingPathComponent(name).path
            #expect(throws: RenderError.notPNG(source: path)) { try decoder.decode(path: path) }
        }
        // xc1n0g08: colour type 1 does not exist; corrupt, not "not a PNG".
        let path = folder.appendingPathComponent("xc1n0g08.png").path
        #expect { try decoder.decode(path: path) } throws: { error in
            guard case .corruptPNG = error as? RenderError else { return false }
            return true
        }
    }

    /// Interlaced and non-interlaced twins decode to identical pixels (16-bit included).
    @Test(arguments: interlacedTwins())
    func twinsMatch(interlaced: String, plain: String) async throws {
        if !interlaced.contains("/libpng-pngsuite/") {  // some of libpng's i* copies are not interlaced
            #expect(try decoder.readHeader(path: interlaced).isInterlaced)
        }
        #expect(try !decoder.readHeader(path: plain).isInterlaced)
        let a = try decoder.decode(path: interlaced)
        let b = try decoder.decode(path: plain)
        #expect(a.width == b.width && a.height == b.height)
        #expect(a.pixels == b.pixels)
    }

    /// basi*/basn* and sNNi/sNNn at the top level; libpng's i* copies against their originals.
    static func interlacedTwins() -> [(String, String)] {
        var pairs: [(String, String)] = []
        let top = PNGFixtures.pngSuite
        for path in PNGFixtures.suite(mustFail: false) {
            let name = path.fileName
            if name.hasPrefix("basi") {
                pairs.append((path, top.appendingPathComponent("basn" + name.dropFirst(4)).path))
            } else if name.hasPrefix("s"), name.count == 12, name[name.index(name.startIndex, offsetBy: 3)] == "i" {
                pairs.append((path, top.appendingPathComponent(name.prefix(3) + "n" + name.dropFirst(4)).path))
            }
        }
        let libpng = top.appendingPathComponent("libpng-pngsuite")
        for folder in [libpng, libpng.appendingPathComponent("interlaced")] {
            for path in PNGFixtures.pngFiles(in: folder) where path.fileName.hasPrefix("i") {
                pairs.append((path, libpng.appendingPathComponent(String(path.fileName.dropFirst())).path))
            }
        }
        return pairs
    }

    @Test func twinListIsComplete() async {
        let pairs = Self.interlacedTwins()
        #expect(pairs.filter { $0.0.fileName.hasPrefix("basi") }.count == 15)
        #expect(pairs.contains { $0.0.fileName == "basi6a16.png" })
        #expect(pairs.filter { $0.0.fileName.hasPrefix("s") }.count == 18)
        for (a, b) in pairs { #expect(FileManager.default.fileExists(atPath: b), "\(a.fileName) has no twin") }
    }

    /// Decoded pixels equal Pillow's within 1 level (the decoder applies no gamma, like Pillow).
    @Test(arguments: PNGFixtures.expectations)
    func matchesPillow(_ expectation: PNGFixtures.Expectation) async throws {
        let image = try decoder.decode(path: expectation.sourcePath)
        let expected = try decoder.decode(path: expectation.expectedPath)
        #expect(expected.width == expectation.width && expected.height == expectation.height)
        #expect(image.width == expected.width && image.height == expected.height)
        #expect(maxDifference(image.pixels, expected.pixels) <= 1)
    }

    /// Those without gamma chunks (the issue's minimum) are a real part of the comparison.
    @Test func pillowComparisonCoversImagesWithoutGamma() async {
        let withoutGamma = PNGFixtures.expectations.filter { !$0.hasGammaChunk }
        #expect(withoutGamma.count >= 80)
        #expect(withoutGamma.contains { $0.key == "libpng-testpngs/gray-16" })
    }

    /// libpng's extra images (not the crashers) all decode.
    @Test(arguments: PNGFixtures.libpngFolders)
    func decodesLibpngTestImages(folder: String) async throws {
        let paths = PNGFixtures.pngFiles(in: PNGFixtures.pngSuite.appendingPathComponent(folder))
        #expect(!paths.isEmpty)
        for path in paths {
            #expect(throws: Never.self, "\(path.fileName)") { _ = try decoder.decode(path: path) }
        }
    }

    /// Hand-checkable pixels: basn0g01 is 1-bit grey (only black and white), basn6a08 keeps alpha,
    /// tbbn3p08's palette transparency becomes alpha 0 somewhere.
    @Test func normalisesSampleFormats() async throws {
        let folder = PNGFixtures.pngSuite
        let grey1 = try decoder.decode(path: folder.appendingPathComponent("basn0g01.png").path)
        for index in stride(from: 0, to: grey1.pixels.count, by: 4) {
            let r = grey1.pixels[index]
            #expect(r == 0 || r == 255)
            #expect(grey1.pixels[index + 1] == r && grey1.pixels[index + 2] == r && grey1.pixels[index + 3] == 255)
        }
        let alpha = try decoder.decode(path: folder.appendingPathComponent("basn6a08.png").path)
        #expect(Set(stride(from: 3, to: alpha.pixels.count, by: 4).map { alpha.pixels[$0] }).count > 2)
        let palette = try decoder.decode(path: folder.appendingPathComponent("tbbn3p08.png").path)
        #expect(stride(from: 3, to: palette.pixels.count, by: 4).contains { palette.pixels[$0] == 0 })
    }

    /// pHYs values as PngSuite documents them: cdf 1x4 (flat), cdh 4x1 (high), cds 1x1, cdu 1000/m.
    @Test(arguments: [
        ("cdfn2c08.png", PhysicalScale(pixelsPerUnitX: 1, pixelsPerUnitY: 4, unitIsMetre: false)),
        ("cdhn2c08.png", PhysicalScale(pixelsPerUnitX: 4, pixelsPerUnitY: 1, unitIsMetre: false)),
        ("cdsn2c08.png", PhysicalScale(pixelsPerUnitX: 1, pixelsPerUnitY: 1, unitIsMetre: false)),
        ("cdun2c08.png", PhysicalScale(pixelsPerUnitX: 1000, pixelsPerUnitY: 1000, unitIsMetre: true)),
    ])
    func readsPhysicalScale(name: String, scale: PhysicalScale) async throws {
        let path = PNGFixtures.pngSuite.appendingPathComponent(name).path
        #expect(try decoder.decode(path: path).physicalScale == scale)
        #expect(try decoder.readHeader(path: path).physicalScale == scale)
        #expect(try decoder.decode(path: PNGFixtures.pngSuite.appendingPathComponent("basn2c08.png").path).physicalScale == nil)
    }

    /// readHeader reports the stored format without decoding.
    @Test func readsHeader() async throws {
        let header = try decoder.readHeader(path: PNGFixtures.pngSuite.appendingPathComponent("basi4a16.png").path)
        #expect(header == PNGFileHeader(width: 32, height: 32, bitDepth: 16, colourType: .greyscaleAlpha, isInterlaced: true))
        let palette = try decoder.readHeader(path: PNGFixtures.pngSuite.appendingPathComponent("tbbn3p08.png").path)
        #expect(palette.colourType == .palette && palette.bitDepth == 8 && palette.hasTransparencyChunk)
    }
}
