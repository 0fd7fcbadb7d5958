import Foundation
import PlanMarkRender
import Synchronization
import Testing

/// Bombs, crashers, missing and non-PNG input: refused with typed one-line errors or decoded safely.
@Suite struct PNGHostileInputTests {
    let decoder = PNGDecoder()

    func bomb(_ name: String) -> String { PNGFixtures.pngBombs.appendingPathComponent(name).path }

    /// 30000x30000 1-bit: 900 MP is over the 200 MP default budget; refused after the header.
    @Test func refusesPixelBomb() async {
        let path = bomb("bomb_1bit_30000x30000.png")
        #expect(throws: RenderError.imageTooManyPixels(source: path, width: 30000, height: 30000, maxPixels: 200_000_000)) {
            try decoder.decode(path: path)
        }
        let expected = "\(path): 30000x30000 pixels exceeds the limit of 200000000 pixels (--max-pixels)"
        #expect(RenderError.imageTooManyPixels(source: path, width: 30000, height: 30000, maxPixels: 200_000_000).description == expected)
    }

    /// 1,000,000 x 1,000,000: beyond the side limit, refused while libpng reads IHDR.
    @Test func refusesHugeHeader() async {
        let path = bomb("header_1000000x1000000.png")
        #expect(throws: RenderError.imageSideTooLarge(source: path, width: 1_000_000, height: 1_000_000, maxSide: PNGDecoder.defaultMaxSide)) {
            try decoder.decode(path: path)
        }
    }

    /// With the side limit lifted, the pixel budget still refuses it: a 4 TB allocation was never tried.
    @Test func pixelBudgetIsCheckedBeforeAllocation() async {
        let path = bomb("header_1000000x1000000.png")
        let lenient = PNGDecoder(maxSide: 2_000_000)
        #expect(throws: RenderError.imageTooManyPixels(source: path, width: 1_000_000, height: 1_000_000, maxPixels: 200_000_000)) {
            try lenient.decode(path: path)
        }
    }

    /// 1,000,001 x 1: one pixel too wide for libpng's own default limit and for ours.
    @Test func refusesOverWideHeader() async {
        let path = bomb("header_1000001x1.png")
        #expect(throws: RenderError.imageSideTooLarge(source: path, width: 1_000_001, height: 1, maxSide: PNGDecoder.defaultMaxSide)) {
            try decoder.decode(path: path)
        }
        // Even a decoder allowing longer sides stops at libpng's hard limit, PNG's 2^31 - 1.
        #expect(throws: RenderError.self) { try PNGDecoder(maxSide: 1_000_000).decode(path: path) }
    }

    /// A 64 MiB zTXt bomb: the image decodes, the text chunk is skipped.
    @Test func decodesPastTextBomb() async throws {
        let image = try decoder.decode(path: bomb("ztxt_bomb_64MiB.png"))
        #expect(image.width > 0 && image.pixels.count == image.width * image.height * 4)
    }

    /// Extra data after the image: decodes, libpng's complaint arrives as a warning.
    @Test func decodesWithTrailingGarbageAndWarns() async throws {
        let warnings = Mutex<[String]>([])
        var lenient = decoder
        lenient.warningHandler = { warning in warnings.withLock { $0.append(warning) } }
        let image = try lenient.decode(path: bomb("idat_trailing_garbage.png"))
        #expect(image.width > 0)
        #expect(warnings.withLock { $0 }.contains { $0.contains("Too much image data") })
    }

    /// libpng's crashers: each decodes or is refused as bad data with one line naming the file.
    @Test(arguments: PNGFixtures.pngFiles(in: PNGFixtures.pngSuite.appendingPathComponent("libpng-testpngs/crashers")))
    func survivesCrasher(path: String) async {
        do {
            let image = try decoder.decode(path: path)
            #expect(image.pixels.count == image.width * image.height * 4)
        } catch {
            switch error {
            case .corruptPNG, .notPNG, .imageSideTooLarge, .imageTooManyPixels: break
            default: Issue.record("unexpected error kind: \(error)")
            }
            #expect(error.description.hasPrefix(path + ": "))
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func crashersArePresent() async {
        #expect(PNGFixtures.pngFiles(in: PNGFixtures.pngSuite.appendingPathComponent("libpng-testpngs/crashers")).count == 23)
    }

    @Test func reportsMissingFile() async {
        let path = "/nonexistent-planmark-folder/plan.png"
        #expect(throws: RenderError.inputNotFound(path: path)) { try decoder.decode(path: path) }
        #expect(RenderError.inputNotFound(path: "plan.png").description == "plan.png: no such file")
    }

    @Test func refusesDirectory() async throws {
        let folder = try PNGFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect { try decoder.decode(path: folder.path) } throws: { error in
            guard case .cannotOpenInput(let path, _) = error as? RenderError else { return false }
            return path == folder.path
        }
    }

    @Test func refusesNonPNGData() async {
        let text = Array("id,x,y\n1,10,20\n".utf8)
        #expect(throws: RenderError.notPNG(source: "<stdin>")) { try decoder.decode(data: text, source: "<stdin>") }
        #expect(throws: RenderError.notPNG(source: "<stdin>")) { try decoder.decode(data: [], source: "<stdin>") }
        #expect(RenderError.notPNG(source: "plan.png").description == "plan.png: not a PNG file")
    }

    /// A PNG cut in half is corrupt (65), not "not a PNG" and not an I/O error.
    @Test func refusesTruncatedData() async throws {
        let whole = try [UInt8](Data(contentsOf: PNGFixtures.pngSuite.appendingPathComponent("basn2c08.png")))
        let half = Array(whole.prefix(whole.count / 2))
        #expect { try decoder.decode(data: half, source: "cut.png") } throws: { error in
            guard case .corruptPNG(let source, let reason) = error as? RenderError else { return false }
            return source == "cut.png" && reason.contains("end of file")
        }
        #expect { try decoder.decode(data: Array(whole.prefix(5)), source: "cut.png") } throws: { error in
            guard case .corruptPNG = error as? RenderError else { return false }
            return true
        }
    }

    /// Memory input (stdin) decodes exactly like the file.
    @Test func memoryInputEqualsFileInput() async throws {
        let url = PNGFixtures.pngSuite.appendingPathComponent("basi6a16.png")
        let fromFile = try decoder.decode(path: url.path)
        let fromMemory = try decoder.decode(data: [UInt8](Data(contentsOf: url)), source: "<stdin>")
        #expect(fromFile.pixels == fromMemory.pixels)
        #expect(try decoder.readHeader(data: [UInt8](Data(contentsOf: url)), source: "-").width == 32)
    }

    /// The pixel budget is configurable and inclusive: 32x32 = 1024 pixels.
    @Test func pixelBudgetIsConfigurable() async throws {
        let path = PNGFixtures.pngSuite.appendingPathComponent("basn2c08.png").path
        #expect(throws: RenderError.imageTooManyPixels(source: path, width: 32, height: 32, maxPixels: 1023)) {
            try PNGDecoder(maxPixels: 1023).decode(path: path)
        }
        #expect(try PNGDecoder(maxPixels: 1024).decode(path: path).width == 32)
        #expect(throws: RenderError.imageSideTooLarge(source: path, width: 32, height: 32, maxSide: 31)) {
            try PNGDecoder(maxSide: 31).decode(path: path)
        }
        #expect(try PNGDecoder(maxSide: 32).decode(path: path).height == 32)
    }
}
