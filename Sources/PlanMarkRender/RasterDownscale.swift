extension RGBAImage {
    /// A smaller copy made with an area (box) filter: each output pixel is the average of the input
    /// area it covers, with fractional weights at its edges. Channels are averaged as stored, which
    /// is exact for opaque images (the renderer flattens onto white first).
    ///
    /// Memory: the output plus three rows; the input is read once, row by row.
    /// - Precondition: `width` and `height` are in `1...self.width` and `1...self.height`.
    /// - Complexity: O(self.width × self.height).
    public func downscaled(width outWidth: Int, height outHeight: Int) -> RGBAImage {
        precondition(outWidth >= 1 && outWidth <= width && outHeight >= 1 && outHeight <= height)
        if outWidth == width && outHeight == height { return self }
        let sx = Double(width) / Double(outWidth)
        let sy = Double(height) / Double(outHeight)
        // Each input column feeds output column `target[ix]` with weight `share[ix]`, and the next
        // one with `1 - share[ix]` (an input pixel is never wider than an output pixel here).
        var target = [Int](repeating: 0, count: width)
        var share = [Float](repeating: 1, count: width)
        for ix in 0..<width {
            let column = min(Int(Double(ix) / sx), outWidth - 1)
            target[ix] = column
            let boundary = Double(column + 1) * sx
            if Double(ix + 1) > boundary + 1e-9, column + 1 < outWidth {
                share[ix] = Float(boundary - Double(ix))
            }
        }
        let rowCount = outWidth * 4
        var rowStorage = [Float](repeating: 0, count: rowCount + 4)
        var sumStorage = [Float](repeating: 0, count: rowCount)
        let norm = Float(1 / (sx * sy))
        var output = [UInt8](repeating: 255, count: outWidth * outHeight * 4)
        pixels.withUnsafeBufferPointer { sourceBuffer in
        output.withUnsafeMutableBufferPointer { destinationBuffer in
        rowStorage.withUnsafeMutableBufferPointer { rowBuffer in
        sumStorage.withUnsafeMutableBufferPointer { sumBuffer in
        target.withUnsafeBufferPointer { target in
        share.withUnsafeBufferPointer { share in
            let source = sourceBuffer.baseAddress!, destination = destinationBuffer.baseAddress!
            let row = rowBuffer.baseAddress!, sum = sumBuffer.baseAddress!
            var outY = 0
            var boundary = sy
            for y in 0..<height {
                row.update(repeating: 0, count: rowCount + 4)
                var p = source + y * width * 4
                for x in 0..<width {
                    let o = row + target[x] * 4
                    let w = share[x]
                    let r = Float(p[0]), g = Float(p[1]), b = Float(p[2]), a = Float(p[3])
                    if w == 1 {
                        o[0] += r; o[1] += g; o[2] += b; o[3] += a
                    } else {
                        let v = 1 - w
                        o[0] += r * w; o[1] += g * w; o[2] += b * w; o[3] += a * w
                        o[4] += r * v; o[5] += g * v; o[6] += b * v; o[7] += a * v
                    }
                    p += 4
                }
                let first: Float = Double(y + 1) < boundary - 1e-9 ? 1 : Float(boundary - Double(y))
                for i in 0..<rowCount { sum[i] += row[i] * first }
                if first < 1 || Double(y + 1) >= boundary - 1e-9 {
                    if outY < outHeight {
                        let out = destination + outY * rowCount
                        for i in 0..<rowCount {
                            out[i] = UInt8(min(max(sum[i] * norm + 0.5, 0), 255))
                            sum[i] = 0
                        }
                    }
                    outY += 1
                    boundary = Double(outY + 1) * sy
                    let rest = 1 - first
                    if rest > 1e-6, outY < outHeight {
                        for i in 0..<rowCount { sum[i] += row[i] * rest }
                    }
                }
            }
        }
        }
        }
        }
        }
        }
        // The print size stays the same, so the pixel density shrinks with the pixel count.
        let scale = physicalScale.map {
            PhysicalScale(
                pixelsPerUnitX: UInt32((Double($0.pixelsPerUnitX) / sx).rounded()),
                pixelsPerUnitY: UInt32((Double($0.pixelsPerUnitY) / sy).rounded()), unitIsMetre: $0.unitIsMetre)
        }
        return RGBAImage(width: outWidth, height: outHeight, pixels: output, physicalScale: scale)
    }
}
