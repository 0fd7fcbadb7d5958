import PlanMarkGeometry

/// One row of tiles of one level, ready to encode: `width` premultiplied pixels a row (16-bit, value x
/// 256), rows past the image zero (transparent).
struct TileBatch: Sendable {
    let z: Int
    let row: Int
    let width: Int
    let columns: Int
    let band: BandStorage

    /// The 256x256 tile at `column`, un-premultiplied to 8-bit straight alpha, transparent beyond the image.
    /// - Complexity: O(256 × 256).
    func tile(column: Int) -> RGBAImage {
        let side = TileScheme.tileSize
        let x0 = column * side
        let span = max(0, min(side, width - x0))
        var pixels = [UInt8](repeating: 0, count: side * side * 4)
        let band = UnsafePointer(self.band.samples)
        pixels.withUnsafeMutableBufferPointer { buffer in
            let out = buffer.baseAddress!
            for ty in 0..<side {
                let source = band + (ty * width + x0) * 4
                let target = out + ty * side * 4
                // Opaque pixels (alpha 255 x 256) only need rounding: (s + 128) >> 8 <= 255 for s <= 65280,
                // which turns alpha into 255 too. One loop the compiler vectorises; the rest fixed below.
                for i in 0..<span * 4 {
                    target[i] = UInt8(truncatingIfNeeded: (UInt32(source[i]) &+ 128) >> 8)
                }
                for x in 0..<span {
                    let s = source + x * 4
                    let a = Int(s[3])
                    guard a < 65280 else { continue }
                    let d = target + x * 4
                    let a8 = (a + 128) >> 8
                    if a8 == 0 {
                        d[0] = 0; d[1] = 0; d[2] = 0; d[3] = 0
                        continue
                    }
                    // straight = premultiplied / alpha, both in the same x256 units.
                    let half = a >> 1
                    d[0] = UInt8(truncatingIfNeeded: min(255, (Int(s[0]) * 255 + half) / a))
                    d[1] = UInt8(truncatingIfNeeded: min(255, (Int(s[1]) * 255 + half) / a))
                    d[2] = UInt8(truncatingIfNeeded: min(255, (Int(s[2]) * 255 + half) / a))
                    d[3] = UInt8(truncatingIfNeeded: a8)
                }
            }
        }
        return RGBAImage(width: side, height: side, pixels: pixels)
    }
}
