import Foundation
import Testing
import PlanMarkGeometry
@testable import PlanMarkRender

/// The tile pyramid against area averages worked out by hand (premultiplied alpha, exact halving,
/// a fractional server zoom, transparency beyond the edges), and its three ways in (an image with
/// serial or concurrent emit, a PNG read band by band, rows fed band by band) against each other.
@Suite struct TilePyramidTests {
    /// RGBA of pixel (x, y) of a tile.
    static func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [Int] {
        let p = (y * image.width + x) * 4
        return image.pixels[p..<p + 4].map(Int.init)
    }

    static func expectClose(_ got: [Int], _ want: [Int], within tolerance: Int = 1, _ comment: Comment? = nil) {
        #expect(zip(got, want).allSatisfy { abs($0 - $1) <= tolerance }, "got \(got), want \(want) \(comment?.description ?? "")")
    }

    static func image(width: Int, height: Int, _ colour: (Int, Int) -> [UInt8]) -> RGBAImage {
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height { for x in 0..<width { pixels += colour(x, y) } }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// 512x512 at S = 0: level -1 halves it once (512 / 2 = 256 fits, so it is minZoom). Its pixel (0, 0)
    /// averages a half-transparent red (255, 0, 0, 128) twice and an opaque blue twice. Premultiplied:
    /// red (128, 0, 0, 128), blue (0, 0, 255, 255); the mean (64, 0, 127.5, 191.5); straight again
    /// R = 64 / 191.5 * 255 = 85.2, B = 127.5 / 191.5 * 255 = 169.8, A = 191.5 -> (85, 0, 170, 192).
    /// (Averaging straight colours would give (128, 0, 128, 192): the transparent red would count fully.)
    @Test func halvingAveragesPremultiplied() async throws {
        let image = Self.image(width: 512, height: 512) { x, y in
            if x < 2 && y < 2 { return x == 0 ? [255, 0, 0, 128] : [0, 0, 255, 255] }
            return [255, 255, 255, 255]
        }
        let scheme = try #require(TileScheme(width: 512, height: 512, zoom: 0))
        #expect(scheme.levels == -1...0)
        let pyramid = TilePyramid(scheme: scheme)
        let top = try #require(pyramid.tile(TileCoordinate(z: 0, x: 0, y: 0), of: image))
        #expect(Self.pixel(top, 0, 0) == [255, 0, 0, 128])
        #expect(Self.pixel(top, 1, 1) == [0, 0, 255, 255])
        let half = try #require(pyramid.tile(TileCoordinate(z: -1, x: 0, y: 0), of: image))
        #expect(half.width == 256 && half.height == 256)
        Self.expectClose(Self.pixel(half, 0, 0), [85, 0, 170, 192])
        #expect(Self.pixel(half, 1, 0) == [255, 255, 255, 255])
        #expect(Self.pixel(half, 255, 255) == [255, 255, 255, 255])
    }

    /// Four halvings of a 4096-wide stripe pattern: 16 columns of 0 and 16 of 255 in turn average, at
    /// level -4 (f = 16), to pixels alternating 0 and 255; at level -5 (f = 32) to 127.5 -> 127 or 128.
    @Test func repeatedHalvingStaysExact() async throws {
        let image = Self.image(width: 4096, height: 64) { x, _ in
            let v: UInt8 = (x / 16) % 2 == 0 ? 0 : 255
            return [v, v, v, 255]
        }
        let scheme = try #require(TileScheme(width: 4096, height: 64, zoom: 0))
        #expect(scheme.minZoom == -4)
        let pyramid = TilePyramid(scheme: scheme)
        let tile = try #require(pyramid.tile(TileCoordinate(z: -4, x: 0, y: 0), of: image))
        #expect(Self.pixel(tile, 0, 0) == [0, 0, 0, 255])
        #expect(Self.pixel(tile, 1, 3) == [255, 255, 255, 255])
        // Rows 64 / 16 = 4 are the image; below them nothing.
        #expect(Self.pixel(tile, 1, 4) == [0, 0, 0, 0])
        #expect(pyramid.tile(TileCoordinate(z: -5, x: 0, y: 0), of: image) == nil)
    }

    /// S = log2(1.5): one level, z 0, f = 1.5, 3 x 3 pixels from a 4 x 4 grey image.
    /// Pixel (0, 0) covers [0, 1.5)^2: image pixels (0,0) weight 1, (1,0) and (0,1) 0.5, (1,1) 0.25, over
    /// 2.25: (0 + 90 x 0.5 + 180 x 0.5 + 255 x 0.25) / 2.25 = 88.3.
    /// Pixel (1, 1) covers [1.5, 3)^2: (1,1) 0.25, (2,1) 0.5, (1,2) 0.5, (2,2) 1: (63.75 + 25 + 25 + 50) / 2.25 = 72.8.
    /// Pixel (2, 2) covers [3, 4.5)^2, of which only image pixel (3, 3) exists: alpha 255 / 2.25 = 113.3,
    /// colour that pixel's own 200 (premultiplied 200 / 2.25, divided by alpha 1 / 2.25).
    @Test func fractionalZoomAveragesByArea() async throws {
        let grey: [[UInt8]] = [
            [0, 90, 50, 50],
            [180, 255, 50, 50],
            [50, 50, 50, 50],
            [50, 50, 50, 200],
        ]
        let image = Self.image(width: 4, height: 4) { x, y in [grey[y][x], grey[y][x], grey[y][x], 255] }
        let scheme = try #require(TileScheme(width: 4, height: 4, zoom: Zoom(0.5849625007211562)))
        #expect(scheme.levels == 0...0)
        #expect(scheme.levelSize(at: 0) == (3, 3))
        let tile = try #require(TilePyramid(scheme: scheme).tile(TileCoordinate(z: 0, x: 0, y: 0), of: image))
        #expect(tile.width == 256 && tile.height == 256)
        Self.expectClose(Self.pixel(tile, 0, 0), [88, 88, 88, 255])
        Self.expectClose(Self.pixel(tile, 1, 1), [73, 73, 73, 255])
        Self.expectClose(Self.pixel(tile, 2, 2), [200, 200, 200, 113])
        #expect(Self.pixel(tile, 3, 0) == [0, 0, 0, 0])
        #expect(Self.pixel(tile, 0, 3) == [0, 0, 0, 0])
    }

    /// 300x200 at S = 0: tile (0, 1, 0) holds image columns 256..<300 in its first 44 columns and rows
    /// 0..<200; the rest of its 256x256 is transparent. Level -1 (150 x 100) is one tile.
    @Test func edgeTilesAreFullSizeAndTransparentBeyondTheImage() async throws {
        let image = Self.image(width: 300, height: 200) { x, y in [UInt8(x % 256), UInt8(y), 7, 255] }
        let scheme = try #require(TileScheme(width: 300, height: 200, zoom: 0))
        let pyramid = TilePyramid(scheme: scheme)
        let edge = try #require(pyramid.tile(TileCoordinate(z: 0, x: 1, y: 0), of: image))
        #expect(edge.width == 256 && edge.height == 256)
        #expect(Self.pixel(edge, 0, 0) == [0, 0, 7, 255])  // image pixel (256, 0)
        #expect(Self.pixel(edge, 43, 199) == [43, 199, 7, 255])  // image pixel (299, 199)
        #expect(Self.pixel(edge, 44, 0) == [0, 0, 0, 0])
        #expect(Self.pixel(edge, 0, 200) == [0, 0, 0, 0])
        #expect(Self.pixel(edge, 255, 255) == [0, 0, 0, 0])
        let low = try #require(pyramid.tile(TileCoordinate(z: -1, x: 0, y: 0), of: image))
        // (0, 0) averages image (0,0), (1,0), (0,1), (1,1): R (0+1+0+1)/4 = 0.5, G (0+0+1+1)/4 = 0.5.
        Self.expectClose(Self.pixel(low, 0, 0), [0, 0, 7, 255])
        #expect(Self.pixel(low, 149, 99)[3] == 255)
        #expect(Self.pixel(low, 150, 0) == [0, 0, 0, 0])
        #expect(Self.pixel(low, 0, 100) == [0, 0, 0, 0])
    }

    /// An odd side: 301 wide at S = 0 gives level -1 151 wide, whose last column averages image column
    /// 300 with transparency: alpha 255 / 2 = 127.5, colour unchanged.
    @Test func oddSideAveragesWithTransparency() async throws {
        let image = Self.image(width: 301, height: 2) { _, _ in [40, 80, 120, 255] }
        let scheme = try #require(TileScheme(width: 301, height: 2, zoom: 0))
        let low = try #require(TilePyramid(scheme: scheme).tile(TileCoordinate(z: -1, x: 0, y: 0), of: image))
        #expect(Self.pixel(low, 149, 0) == [40, 80, 120, 255])
        Self.expectClose(Self.pixel(low, 150, 0), [40, 80, 120, 128])
    }

    @Test func tilesOutsideThePyramidAreNil() async throws {
        let image = Self.image(width: 300, height: 200) { _, _ in [1, 2, 3, 255] }
        let pyramid = TilePyramid(scheme: try #require(TileScheme(width: 300, height: 200, zoom: 0)))
        for outside in [TileCoordinate(z: 1, x: 0, y: 0), TileCoordinate(z: 0, x: 2, y: 0), TileCoordinate(z: 0, x: 0, y: 1),
                        TileCoordinate(z: 0, x: -1, y: 0), TileCoordinate(z: -2, x: 0, y: 0)] {
            #expect(pyramid.tile(outside, of: image) == nil, "\(outside)")
        }
    }

    /// A sheet with transparency and odd sides at a fractional zoom, made every way: each tile emitted
    /// once, the same bytes from the serial and the concurrent emit, and from the PNG read band by band;
    /// each decodes to what `tile(_:of:)` gives.
    @Test func everyWayInGivesTheSameTiles() async throws {
        let image = Self.image(width: 1203, height: 777) { x, y in
            [UInt8((x * 7 + y * 3) % 256), UInt8((x ^ y) % 256), UInt8(y % 256), UInt8(x % 97 == 0 ? 0 : 255 - (y % 5) * 40)]
        }
        let scheme = try #require(TileScheme(width: 1203, height: 777, zoom: 2.3))
        let pyramid = TilePyramid(scheme: scheme)
        var serial: [TileCoordinate: [UInt8]] = [:]
        try pyramid.makeTiles(of: image) { tile, bytes in
            #expect(serial[tile] == nil, "\(tile) twice")
            serial[tile] = bytes
        }
        #expect(serial.count == scheme.tileCount)
        #expect(serial.keys.allSatisfy(scheme.contains))

        let collected = Collected()
        try pyramid.makeTilesConcurrently(of: image, emit: { collected.add($0, $1) })
        #expect(collected.tiles == serial)

        let folder = try PNGFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("sheet.png").path
        try PNGEncoder().write(image, to: path)
        let streamed = Collected()
        try pyramid.makeTilesConcurrently(ofPNGFile: path, emit: { streamed.add($0, $1) })
        #expect(streamed.tiles == serial)

        // Rows fed by the caller (a PDF page drawn band by band), in bands of sizes that share nothing with 256.
        for bandRows in [1, 100, 777] {
            let fed = Collected()
            try pyramid.makeTilesConcurrently(feeding: { feed in
                for top in stride(from: 0, to: image.height, by: bandRows) {
                    let rows = min(bandRows, image.height - top)
                    let band = Array(image.pixels[top * image.width * 4..<(top + rows) * image.width * 4])
                    try band.withUnsafeBufferPointer { try feed($0.baseAddress!, rows) }
                }
            }, emit: { fed.add($0, $1) })
            #expect(fed.tiles == serial, "bands of \(bandRows) rows")
        }

        // Every tile decodes to 256x256; the first and last tile of each level against `tile(_:of:)`.
        for (tile, bytes) in serial {
            let decoded = try PNGDecoder().decode(data: bytes, source: "\(tile)")
            #expect(decoded.width == 256 && decoded.height == 256)
        }
        for z in scheme.levels {
            for tile in [TileCoordinate(z: z, x: 0, y: 0), TileCoordinate(z: z, x: scheme.columns(at: z) - 1, y: scheme.rows(at: z) - 1)] {
            let bytes = try #require(serial[tile])
            let decoded = try PNGDecoder().decode(data: bytes, source: "\(tile)")
            let direct = try #require(pyramid.tile(tile, of: image))
            #expect(decoded.pixels == direct.pixels, "\(tile)")
            }
        }
    }

    /// The band reader against the whole-image decoder on every PngSuite image that must decode (grey,
    /// RGB, palette, 16-bit, tRNS, interlaced): the same tiles either way.
    @Test func bandReaderMatchesWholeDecode() async throws {
        let paths = PNGFixtures.suite(mustFail: false)
        try #require(!paths.isEmpty, "PngSuite missing under \(PNGFixtures.pngSuite.path)")
        for path in paths {
            let image = try PNGDecoder().decode(path: path)
            let pyramid = TilePyramid(scheme: try #require(TileScheme(width: image.width, height: image.height, zoom: 0)))
            var whole: [TileCoordinate: [UInt8]] = [:]
            try pyramid.makeTiles(of: image) { whole[$0] = $1 }
            let streamed = Collected()
            try pyramid.makeTilesConcurrently(ofPNGFile: path, emit: { streamed.add($0, $1) })
            #expect(streamed.tiles == whole, "\(path.fileName)")
        }
    }

    /// A PNG that ends half way fails with the decoder's error after some tiles were made, and the
    /// error is the one thrown (not swallowed by the encoding threads).
    @Test func truncatedInputFails() async throws {
        let image = Self.image(width: 600, height: 600) { x, y in [UInt8(x % 256), UInt8(y % 256), UInt8((x * y) % 251), 255] }
        let bytes = try PNGEncoder(compressionLevel: 0).encode(image)
        let pyramid = TilePyramid(scheme: try #require(TileScheme(width: 600, height: 600, zoom: 0)))
        let collected = Collected()
        #expect(throws: RenderError.self) {
            try pyramid.makeTilesConcurrently(ofPNG: Array(bytes.prefix(bytes.count / 2)), source: "half", emit: { collected.add($0, $1) })
        }
        #expect(collected.tiles.count < pyramid.scheme.tileCount)
    }

    /// An error thrown by `emit` stops the work and comes back to the caller.
    @Test func emitErrorsComeBack() async throws {
        struct Full: Error {}
        let image = Self.image(width: 1000, height: 1000) { _, _ in [9, 9, 9, 255] }
        let pyramid = TilePyramid(scheme: try #require(TileScheme(width: 1000, height: 1000, zoom: 0)))
        #expect(throws: Full.self) { try pyramid.makeTilesConcurrently(of: image, emit: { _, _ in throw Full() }) }
        #expect(throws: Full.self) { try pyramid.makeTiles(of: image) { _, _ in throw Full() } }
    }
}

/// Tiles gathered from several threads.
final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [TileCoordinate: [UInt8]] = [:]
    func add(_ tile: TileCoordinate, _ bytes: [UInt8]) {
        lock.lock()
        precondition(storage[tile] == nil, "\(tile) twice")
        storage[tile] = bytes
        lock.unlock()
    }
    var tiles: [TileCoordinate: [UInt8]] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
