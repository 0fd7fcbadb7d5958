import PlanMarkGeometry

/// The tile pyramid of a drawing: 256x256 PNG tiles at every level of a `TileScheme`, each tile pixel
/// the area average of the full-resolution pixels it covers, averaged with premultiplied alpha.
/// Tiles that reach past the right or bottom edge are 256x256, transparent outside the image.
///
/// Level `maxZoom` is the full image averaged over `f x f` areas (`f = 2^(S - maxZoom)` in [1, 2), with
/// fractional weights at the area edges); every lower level halves the one above exactly (2x2 average).
///
/// A pure function of the image's pixels and the scheme.
public struct TilePyramid: Sendable {
    /// Which tiles.
    public let scheme: TileScheme
    /// How tiles are encoded.
    public var encoder: PNGEncoder

    /// Creates a pyramid maker.
    public init(scheme: TileScheme, encoder: PNGEncoder = PNGEncoder()) {
        self.scheme = scheme
        self.encoder = encoder
    }

    /// Calls `emit` with every tile of the pyramid and its PNG bytes, the highest level first.
    /// - Precondition: `image` is `scheme.width` x `scheme.height`.
    /// - Complexity: O(width × height) time; memory the image plus 1/4 of it (the first level below).
    public func makeTiles(of image: RGBAImage, emit: (TileCoordinate, [UInt8]) throws -> Void) throws {
        precondition(image.width == scheme.width && image.height == scheme.height, "TilePyramid: image size differs from the scheme")
        var level = LevelImage.top(of: image, factor: scheme.factor(at: scheme.maxZoom), size: scheme.levelSize(at: scheme.maxZoom))
        var z = scheme.maxZoom
        while true {
            for y in 0..<scheme.rows(at: z) {
                for x in 0..<scheme.columns(at: z) {
                    let tile = level.tile(column: x, row: y)
                    try emit(TileCoordinate(z: z, x: x, y: y), try encoder.encode(tile))
                }
            }
            if z == scheme.minZoom { break }
            level = level.halved()
            z -= 1
        }
    }

    /// The pixels of one tile, or nil when `coordinate` is not in the pyramid.
    /// - Complexity: O(width × height) (the levels above it are made).
    public func tile(_ coordinate: TileCoordinate, of image: RGBAImage) -> RGBAImage? {
        guard scheme.contains(coordinate) else { return nil }
        var level = LevelImage.top(of: image, factor: scheme.factor(at: scheme.maxZoom), size: scheme.levelSize(at: scheme.maxZoom))
        var z = scheme.maxZoom
        while z > coordinate.z {
            level = level.halved()
            z -= 1
        }
        return level.tile(column: coordinate.x, row: coordinate.y)
    }
}

/// One level of the pyramid: premultiplied RGBA as 16-bit values scaled by 256 (8 fraction bits), so
/// repeated halving keeps the area average within one step per channel.
struct LevelImage {
    let width: Int
    let height: Int
    /// `width * height * 4` premultiplied channels, each `value * 256`.
    var samples: [UInt16]

    /// The full image averaged over `factor x factor` areas into a `size` level.
    /// - Complexity: O(image.width × image.height + size.width × size.height).
    static func top(of image: RGBAImage, factor: Double, size: (width: Int, height: Int)) -> LevelImage {
        let (outWidth, outHeight) = size
        // Column weights: the share of input column `ix` in output column `j` is the length of
        // [ix, ix+1) ∩ [j f, (j+1) f), at most two output columns per input column (f >= 1).
        func spans(_ inCount: Int, _ outCount: Int) -> (first: [Int], weightFirst: [Double]) {
            var first = [Int](repeating: 0, count: inCount)
            var weight = [Double](repeating: 1, count: inCount)
            for i in 0..<inCount {
                let j = min(Int(Double(i) / factor), outCount - 1)
                first[i] = j
                let edge = Double(j + 1) * factor
                weight[i] = min(1, max(0, edge - Double(i)))
            }
            return (first, weight)
        }
        let (columnTarget, columnShare) = spans(image.width, outWidth)
        let (rowTarget, rowShare) = spans(image.height, outHeight)
        var sums = [Double](repeating: 0, count: outWidth * outHeight * 4)
        image.pixels.withUnsafeBufferPointer { pixels in
            sums.withUnsafeMutableBufferPointer { sums in
                for iy in 0..<image.height {
                    let jy = rowTarget[iy], wy = rowShare[iy]
                    for ix in 0..<image.width {
                        let p = (iy * image.width + ix) * 4
                        let alpha = Double(pixels[p + 3]) / 255
                        let premultiplied = (Double(pixels[p]) * alpha, Double(pixels[p + 1]) * alpha, Double(pixels[p + 2]) * alpha, Double(pixels[p + 3]))
                        let jx = columnTarget[ix], wx = columnShare[ix]
                        func add(_ ox: Int, _ oy: Int, _ w: Double) {
                            guard w > 0, ox < outWidth, oy < outHeight else { return }
                            let o = (oy * outWidth + ox) * 4
                            sums[o] += premultiplied.0 * w
                            sums[o + 1] += premultiplied.1 * w
                            sums[o + 2] += premultiplied.2 * w
                            sums[o + 3] += premultiplied.3 * w
                        }
                        add(jx, jy, wx * wy)
                        add(jx + 1, jy, (1 - wx) * wy)
                        add(jx, jy + 1, wx * (1 - wy))
                        add(jx + 1, jy + 1, (1 - wx) * (1 - wy))
                    }
                }
            }
        }
        let area = factor * factor
        let samples = sums.map { UInt16(min(65535, ($0 / area * 256).rounded())) }
        return LevelImage(width: outWidth, height: outHeight, samples: samples)
    }

    /// The next level down: each pixel the average of a 2x2 block, transparent beyond the edges.
    /// - Complexity: O(width × height).
    func halved() -> LevelImage {
        let outWidth = (width + 1) / 2, outHeight = (height + 1) / 2
        var out = [UInt16](repeating: 0, count: outWidth * outHeight * 4)
        for oy in 0..<outHeight {
            for ox in 0..<outWidth {
                for c in 0..<4 {
                    var sum = 0
                    for dy in 0..<2 {
                        for dx in 0..<2 {
                            let x = ox * 2 + dx, y = oy * 2 + dy
                            if x < width && y < height { sum += Int(samples[(y * width + x) * 4 + c]) }
                        }
                    }
                    out[(oy * outWidth + ox) * 4 + c] = UInt16((sum + 2) / 4)
                }
            }
        }
        return LevelImage(width: outWidth, height: outHeight, samples: out)
    }

    /// The 256x256 tile at `column`, `row`, un-premultiplied to 8-bit straight alpha.
    /// - Complexity: O(256 × 256).
    func tile(column: Int, row: Int) -> RGBAImage {
        let side = TileScheme.tileSize
        var pixels = [UInt8](repeating: 0, count: side * side * 4)
        for ty in 0..<side {
            let y = row * side + ty
            guard y < height else { break }
            for tx in 0..<side {
                let x = column * side + tx
                guard x < width else { break }
                let s = (y * width + x) * 4, d = (ty * side + tx) * 4
                let alpha = Double(samples[s + 3]) / 256
                let a8 = (alpha).rounded()
                guard a8 > 0 else { continue }
                for c in 0..<3 {
                    let straight = Double(samples[s + c]) / 256 / (alpha / 255)
                    pixels[d + c] = UInt8(min(255, max(0, straight.rounded())))
                }
                pixels[d + 3] = UInt8(min(255, a8))
            }
        }
        return RGBAImage(width: side, height: side, pixels: pixels)
    }
}
